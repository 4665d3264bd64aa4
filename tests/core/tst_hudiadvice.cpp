#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/HudiAdvice.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace jobdeck;

namespace {

// Builds a job's parameter list the way the parser reports it: each config's tokenIndex points at its
// "key=value" token.
struct Job final {
    std::vector<std::string> parameters;
    std::vector<ConfigSetting> spark;
    std::vector<ConfigSetting> hudi;

    Job& option(std::initializer_list<std::string> tokens) {
        parameters.insert(parameters.end(), tokens);
        return *this;
    }
    Job& conf(const std::string& key, const std::string& value) {
        parameters.push_back("--conf");
        spark.push_back({key, value, static_cast<int>(parameters.size())});
        parameters.push_back(key + "=" + value);
        return *this;
    }
    Job& hudiConf(const std::string& key, const std::string& value) {
        parameters.push_back("--hudi-conf");
        hudi.push_back({key, value, static_cast<int>(parameters.size())});
        parameters.push_back(key + "=" + value);
        return *this;
    }
    std::vector<Diagnostic> advise() const {
        std::vector<std::string> all = parameters;
        all.push_back("s3://bucket/app.jar");
        all.push_back("--app-arg");
        return adviseOnConfigs(all, spark, hudi);
    }
    std::vector<std::string> withTail(std::vector<std::string> p) const {
        p.push_back("s3://bucket/app.jar");
        p.push_back("--app-arg");
        return p;
    }
};

std::vector<Diagnostic> withCode(const std::vector<Diagnostic>& all, const std::string& code) {
    std::vector<Diagnostic> out;
    for (const auto& d : all)
        if (d.code == code)
            out.push_back(d);
    return out;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

Job hiveSyncJob() {
    return Job().hudiConf("hoodie.datasource.hive_sync.enable", "true");
}

} // namespace

class TestHudiAdvice : public QObject {
    Q_OBJECT

private slots:
    void nothingToSayAboutAPlainJob() {
        QVERIFY(adviseOnConfigs({}, {}, {}).empty());
        const auto findings = Job()
                                  .option({"--class", "com.acme.Main", "--num-executors", "4"})
                                  .hudiConf("hoodie.datasource.write.operation", "upsert")
                                  .hudiConf("hoodie.table.name", "orders")
                                  .conf("spark.executor.memory", "4g")
                                  .advise();
        QVERIFY(findings.empty());
    }

    void deprecatedKeyIsRenamed() {
        Job job =
            Job().hudiConf("hoodie.table.name", "t").hudiConf("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
        const auto found = withCode(job.advise(), "catalogue.deprecated-key");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Info);
        QCOMPARE(found[0].tokenIndex, 3);
        QVERIFY(
            contains(found[0].message, "'hoodie.cleaner.policy' is the old name of 'hoodie.clean.policy'"));
        QCOMPARE(found[0].fixes.size(), std::size_t(1));
        QCOMPARE(found[0].fixes[0].parameters.list(),
                 job.withTail({"--hudi-conf", "hoodie.table.name=t", "--hudi-conf",
                               "hoodie.clean.policy=KEEP_LATEST_COMMITS"}));
    }

    void oldNameNextToCurrentNameIsShadowed() {
        Job job = Job()
                      .hudiConf("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS")
                      .hudiConf("hoodie.clean.policy", "KEEP_LATEST_COMMITS");
        const auto findings = job.advise();
        QVERIFY(withCode(findings, "catalogue.deprecated-key").empty());
        const auto shadowed = withCode(findings, "catalogue.shadowed-old-name");
        QCOMPARE(shadowed.size(), std::size_t(1));
        QCOMPARE(shadowed[0].severity, Severity::Warning);
        QCOMPARE(shadowed[0].tokenIndex, 1);
        QVERIFY(contains(shadowed[0].message,
                         "Hudi reads 'hoodie.clean.policy' and ignores 'hoodie.cleaner.policy'"));
        QCOMPARE(shadowed[0].fixes.at(0).parameters.list(),
                 job.withTail({"--hudi-conf", "hoodie.clean.policy=KEEP_LATEST_COMMITS"}));
    }

    void deprecatedKeyValueIsCheckedToo() {
        const auto findings = Job().hudiConf("hoodie.cleaner.policy", "KEEP_EVERYTHING").advise();
        QCOMPARE(withCode(findings, "catalogue.deprecated-key").size(), std::size_t(1));
        const auto bad = withCode(findings, "catalogue.invalid-value");
        QCOMPARE(bad.size(), std::size_t(1));
        QVERIFY(contains(bad[0].message, "'hoodie.clean.policy' expects one of KEEP_LATEST_COMMITS"));
    }

    void invalidValues() {
        const auto findings = Job()
                                  .hudiConf("hoodie.datasource.hive_sync.enable", "yes")
                                  .hudiConf("hoodie.upsert.shuffle.parallelism", "many")
                                  .hudiConf("hoodie.datasource.write.table.type", "merge_on_read")
                                  .advise();
        const auto bad = withCode(findings, "catalogue.invalid-value");
        QCOMPARE(bad.size(), std::size_t(2));
        QCOMPARE(bad[0].severity, Severity::Warning);
        QCOMPARE(bad[0].tokenIndex, 1);
        QVERIFY(contains(bad[0].message, "expects true or false, got 'yes'"));
        QCOMPARE(bad[1].tokenIndex, 3);
        QVERIFY(contains(bad[1].message, "whole number"));
    }

    void typoGetsRenameFixes() {
        Job job = Job().hudiConf("hoodie.datasource.hive_sync.jdbcurll", "jdbc:hive2://hs2:10000");
        const auto found = withCode(job.advise(), "catalogue.likely-typo");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Warning);
        QVERIFY(contains(found[0].message, "did you mean 'hoodie.datasource.hive_sync.jdbcurl'"));
        QVERIFY(!found[0].fixes.empty());
        QCOMPARE(found[0].fixes[0].title, std::string("Rename to hoodie.datasource.hive_sync.jdbcurl"));
        QCOMPARE(found[0].fixes[0].parameters.list(),
                 job.withTail({"--hudi-conf", "hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://hs2:10000"}));
    }

    void unknownKeyFarFromEverything() {
        const auto findings = Job().hudiConf("hoodie.acme.custom.payload.setting", "x").advise();
        QCOMPARE(findings.size(), std::size_t(1));
        QCOMPARE(findings[0].code, std::string_view("catalogue.unknown-key"));
        QCOMPARE(findings[0].severity, Severity::Info);
        QVERIFY(findings[0].fixes.empty());
        // A non-hoodie key near nothing is left to the validator's error.
        QVERIFY(Job().hudiConf("spark.executor.memory", "4g").advise().empty());
    }

    void flinkOptionWithoutSparkCounterpart() {
        const auto found =
            withCode(Job().hudiConf("read.streaming.enabled", "true").advise(), "catalogue.flink-option");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Info);
        QVERIFY(contains(found[0].message, "Flink SQL connector; Spark jobs do not read it"));
        QVERIFY(found[0].fixes.empty());
    }

    void flinkOptionRenamedToItsHudiKey() {
        Job job = Job().hudiConf("write.precombine.field", "ts");
        const auto found = withCode(job.advise(), "catalogue.flink-option");
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY(contains(found[0].message, "(now 'ordering.fields')"));
        QVERIFY(contains(found[0].message, "'hoodie.datasource.write.precombine.field'"));
        QCOMPARE(found[0].fixes.size(), std::size_t(1));
        QCOMPARE(found[0].fixes[0].parameters.list(),
                 job.withTail({"--hudi-conf", "hoodie.datasource.write.precombine.field=ts"}));

        const auto policy = withCode(Job().hudiConf("clean.policy", "KEEP_LATEST_COMMITS").advise(),
                                     "catalogue.flink-option");
        QCOMPARE(policy.size(), std::size_t(1));
        QVERIFY(contains(policy[0].message, "'hoodie.clean.policy'"));

        Job mode = Job().hudiConf("hive_sync.mode", "jdbc");
        const auto modeFound = withCode(mode.advise(), "catalogue.flink-option");
        QCOMPARE(modeFound.size(), std::size_t(1));
        QCOMPARE(modeFound[0].fixes.at(0).parameters.list(),
                 mode.withTail({"--hudi-conf", "hoodie.datasource.hive_sync.mode=jdbc"}));
    }

    void jdbcModeWithoutUrl() {
        const auto fired =
            withCode(hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.mode", "jdbc").advise(),
                     "advice.hive-sync.jdbc-without-url");
        QCOMPARE(fired.size(), std::size_t(1));
        QCOMPARE(fired[0].severity, Severity::Warning);
        QCOMPARE(fired[0].tokenIndex, 3);
        QVERIFY(contains(fired[0].message, "jdbc:hive2://localhost:10000"));
        // Mode alone shows intent (a Streamer may enable sync in its own arguments).
        QCOMPARE(withCode(Job().hudiConf("hoodie.datasource.hive_sync.mode", "JDBC").advise(),
                          "advice.hive-sync.jdbc-without-url")
                     .size(),
                 std::size_t(1));

        const auto withUrl = hiveSyncJob()
                                 .hudiConf("hoodie.datasource.hive_sync.mode", "jdbc")
                                 .hudiConf("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hs2:10000")
                                 .advise();
        QVERIFY(withCode(withUrl, "advice.hive-sync.jdbc-without-url").empty());
        QVERIFY(withCode(withUrl, "advice.hive-sync.hms4-no-jdbc-fallback").empty());
        QVERIFY(withCode(withUrl, "advice.hive-sync.hms-without-uris").empty());

        const auto disabled = Job()
                                  .hudiConf("hoodie.datasource.hive_sync.enable", "false")
                                  .hudiConf("hoodie.datasource.hive_sync.mode", "jdbc")
                                  .advise();
        QVERIFY(withCode(disabled, "advice.hive-sync.jdbc-without-url").empty());
    }

    void jdbcCredentials() {
        const Job base = hiveSyncJob()
                             .hudiConf("hoodie.datasource.hive_sync.mode", "jdbc")
                             .hudiConf("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hs2:10000");
        const auto userOnly =
            withCode(Job(base).hudiConf("hoodie.datasource.hive_sync.username", "etl").advise(),
                     "advice.hive-sync.jdbc-credentials");
        QCOMPARE(userOnly.size(), std::size_t(1));
        QCOMPARE(userOnly[0].severity, Severity::Info);
        QVERIFY(contains(userOnly[0].message, "password"));

        const auto passwordOnly =
            withCode(Job(base).hudiConf("hoodie.datasource.hive_sync.password", "s3cr3t-value").advise(),
                     "advice.hive-sync.jdbc-credentials");
        QCOMPARE(passwordOnly.size(), std::size_t(1));
        QVERIFY(!contains(passwordOnly[0].message, "s3cr3t-value")); // secrets never echoed

        const auto both = Job(base)
                              .hudiConf("hoodie.datasource.hive_sync.username", "etl")
                              .hudiConf("hoodie.datasource.hive_sync.password", "pw")
                              .advise();
        QVERIFY(withCode(both, "advice.hive-sync.jdbc-credentials").empty());
        QVERIFY(withCode(base.advise(), "advice.hive-sync.jdbc-credentials").empty());
    }

    void hmsWithoutUris() {
        const auto fired = withCode(hiveSyncJob().advise(), "advice.hive-sync.hms-without-uris");
        QCOMPARE(fired.size(), std::size_t(1));
        QCOMPARE(fired[0].severity, Severity::Warning);
        QCOMPARE(fired[0].tokenIndex, 1);
        QVERIFY(contains(fired[0].message, "the default since Hudi 0.13"));
        QVERIFY(contains(fired[0].message, "thrift://localhost:9083"));

        const auto explicitMode =
            withCode(hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.mode", "hms").advise(),
                     "advice.hive-sync.hms-without-uris");
        QCOMPARE(explicitMode.size(), std::size_t(1));
        QCOMPARE(explicitMode[0].tokenIndex, 3);

        const auto viaMetaSync = Job().hudiConf("hoodie.datasource.meta.sync.enable", "true").advise();
        QCOMPARE(withCode(viaMetaSync, "advice.hive-sync.hms-without-uris").size(), std::size_t(1));
        const auto glueOnly = Job()
                                  .hudiConf("hoodie.datasource.meta.sync.enable", "true")
                                  .hudiConf("hoodie.meta.sync.client.tool.class",
                                            "org.apache.hudi.aws.sync.AwsGlueCatalogSyncTool")
                                  .advise();
        QVERIFY(withCode(glueOnly, "advice.hive-sync.hms-without-uris").empty());

        for (const Job& quiet :
             {hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.metastore.uris", "thrift://hms:9083"),
              hiveSyncJob().conf("spark.hadoop.hive.metastore.uris", "thrift://hms:9083"),
              hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.use_spark_catalog", "true"),
              hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.mode", "hiveql"), Job()})
            QVERIFY(withCode(quiet.advise(), "advice.hive-sync.hms-without-uris").empty());
    }

    void hms4FallbackNote() {
        const auto hiveql =
            withCode(hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.mode", "hiveql").advise(),
                     "advice.hive-sync.hms4-no-jdbc-fallback");
        QCOMPARE(hiveql.size(), std::size_t(1));
        QCOMPARE(hiveql[0].severity, Severity::Info);
        QVERIFY(contains(hiveql[0].message, "mode=hiveql"));
        QVERIFY(contains(hiveql[0].message, "mode=jdbc and a valid hoodie.datasource.hive_sync.jdbcurl"));
        QVERIFY(hiveql[0].fixes.empty()); // no URL to fall back to: nothing to offer

        // With a JDBC URL the fix switches the mode in place...
        Job withMode = hiveSyncJob()
                           .hudiConf("hoodie.datasource.hive_sync.mode", "hms")
                           .hudiConf("hoodie.datasource.hive_sync.metastore.uris", "thrift://hms:9083")
                           .hudiConf("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hs2:10000");
        const auto inPlace = withCode(withMode.advise(), "advice.hive-sync.hms4-no-jdbc-fallback");
        QCOMPARE(inPlace.size(), std::size_t(1));
        QCOMPARE(inPlace[0].fixes.size(), std::size_t(1));
        auto expected = withMode.parameters;
        expected[3] = "hoodie.datasource.hive_sync.mode=jdbc";
        QCOMPARE(inPlace[0].fixes[0].parameters.list(), withMode.withTail(expected));

        // ...or adds it next to the URL when the mode was left to its default.
        Job defaultMode =
            hiveSyncJob().hudiConf("hoodie.datasource.hive_sync.jdbcurl", "jdbc:hive2://hs2:10000");
        const auto added = withCode(defaultMode.advise(), "advice.hive-sync.hms4-no-jdbc-fallback");
        QCOMPARE(added.size(), std::size_t(1));
        QCOMPARE(added[0].fixes.size(), std::size_t(1));
        QCOMPARE(
            added[0].fixes[0].parameters.list(),
            defaultMode.withTail({"--hudi-conf", "hoodie.datasource.hive_sync.enable=true", "--hudi-conf",
                                  "hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://hs2:10000", "--hudi-conf",
                                  "hoodie.datasource.hive_sync.mode=jdbc"}));

        QVERIFY(withCode(Job().advise(), "advice.hive-sync.hms4-no-jdbc-fallback").empty());
    }

    void nonPartitionedExtractorOnPartitionedTable() {
        Job job = Job()
                      .hudiConf("hoodie.datasource.write.partitionpath.field", "region")
                      .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                "org.apache.hudi.hive.NonPartitionedExtractor");
        const auto found = withCode(job.advise(), "advice.partition-extractor.non-partitioned-with-fields");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Warning);
        QCOMPARE(found[0].tokenIndex, 3);
        QCOMPARE(found[0].fixes.size(), std::size_t(1));
        // The fix removes the pair (flag and value) so Hudi infers the extractor.
        QCOMPARE(found[0].fixes[0].parameters.list(),
                 job.withTail({"--hudi-conf", "hoodie.datasource.write.partitionpath.field=region"}));

        const auto unpartitioned = Job()
                                       .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                                 "org.apache.hudi.hive.NonPartitionedExtractor")
                                       .advise();
        QVERIFY(unpartitioned.empty());
    }

    void partitionedExtractorWithNonPartitionedKeys() {
        Job job = Job()
                      .hudiConf("hoodie.datasource.write.keygenerator.class",
                                "org.apache.hudi.keygen.NonpartitionedKeyGenerator")
                      .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                "org.apache.hudi.hive.MultiPartKeysValueExtractor");
        const auto found = withCode(job.advise(), "advice.partition-extractor.partitioned-without-fields");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].fixes[0].parameters.list().at(3),
                 std::string("hoodie.datasource.hive_sync.partition_extractor_class="
                             "org.apache.hudi.hive.NonPartitionedExtractor"));
        const auto byType = Job()
                                .hudiConf("hoodie.datasource.write.keygenerator.type", "NON_PARTITION")
                                .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                          "org.apache.hudi.hive.SinglePartPartitionValueExtractor")
                                .advise();
        QCOMPARE(withCode(byType, "advice.partition-extractor.partitioned-without-fields").size(),
                 std::size_t(1));
        const auto avro = Job()
                              .hudiConf("hoodie.datasource.write.keygenerator.class",
                                        "org.apache.hudi.keygen.NonpartitionedAvroKeyGenerator")
                              .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                        "org.apache.hudi.hive.MultiPartKeysValueExtractor")
                              .advise();
        QCOMPARE(withCode(avro, "advice.partition-extractor.partitioned-without-fields").size(),
                 std::size_t(1));
    }

    void hiveStyleExtractorWithoutHiveStylePaths() {
        const Job base = Job()
                             .hudiConf("hoodie.datasource.write.partitionpath.field", "dt")
                             .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                       "org.apache.hudi.hive.HiveStylePartitionValueExtractor");
        const auto found = withCode(base.advise(), "advice.partition-extractor.hive-style-mismatch");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].fixes.size(), std::size_t(1));
        QCOMPARE(found[0].fixes[0].parameters.list().size(),
                 base.parameters.size()); // 2 removed, tail 2 added

        const auto ok =
            Job(base).hudiConf("hoodie.datasource.write.hive_style_partitioning", "true").advise();
        QVERIFY(withCode(ok, "advice.partition-extractor.hive-style-mismatch").empty());
    }

    void multiPartExtractorWithSlashedTimestamps() {
        Job job = Job()
                      .hudiConf("hoodie.datasource.write.partitionpath.field", "ts")
                      .hudiConf("hoodie.datasource.write.keygenerator.class",
                                "org.apache.hudi.keygen.TimestampBasedKeyGenerator")
                      .hudiConf("hoodie.deltastreamer.keygen.timebased.output.dateformat", "yyyy/MM/dd")
                      .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                "org.apache.hudi.hive.MultiPartKeysValueExtractor");
        const auto found = withCode(job.advise(), "advice.partition-extractor.timestamp-multipart");
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY(contains(found[0].message, "'yyyy/MM/dd'"));
        auto expected = job.parameters;
        expected[7] = "hoodie.datasource.hive_sync.partition_extractor_class="
                      "org.apache.hudi.hive.SinglePartPartitionValueExtractor";
        QCOMPARE(found[0].fixes.at(0).parameters.list(), job.withTail(expected));

        Job custom =
            Job()
                .hudiConf("hoodie.datasource.write.partitionpath.field", "region:SIMPLE,ts:TIMESTAMP")
                .hudiConf("hoodie.datasource.write.keygenerator.class",
                          "org.apache.hudi.keygen.CustomKeyGenerator")
                .hudiConf("hoodie.keygen.timebased.output.dateformat", "yyyy/MM/dd")
                .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                          "org.apache.hudi.hive.MultiPartKeysValueExtractor");
        QCOMPARE(withCode(custom.advise(), "advice.partition-extractor.timestamp-multipart").size(),
                 std::size_t(1));

        Job dashed = Job()
                         .hudiConf("hoodie.datasource.write.keygenerator.type", "TIMESTAMP")
                         .hudiConf("hoodie.keygen.timebased.output.dateformat", "yyyy-MM-dd")
                         .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                   "org.apache.hudi.hive.MultiPartKeysValueExtractor");
        QVERIFY(withCode(dashed.advise(), "advice.partition-extractor.timestamp-multipart").empty());
    }

    void singlePartExtractorWithSeveralFields() {
        const auto found = withCode(Job()
                                        .hudiConf("hoodie.datasource.write.partitionpath.field", "region,dt")
                                        .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                                  "org.apache.hudi.hive.SinglePartPartitionValueExtractor")
                                        .advise(),
                                    "advice.partition-extractor.single-part-with-many-fields");
        QCOMPARE(found.size(), std::size_t(1));
        QVERIFY(contains(found[0].message, "names 2 partition fields"));
        const auto one = Job()
                             .hudiConf("hoodie.datasource.write.partitionpath.field", "dt")
                             .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                       "org.apache.hudi.hive.SinglePartPartitionValueExtractor")
                             .advise();
        QVERIFY(one.empty());
    }

    void speculation() {
        Job job = Job().conf("spark.speculation", "true");
        const auto found = withCode(job.advise(), "advice.spark.speculation");
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Warning);
        QVERIFY(contains(found[0].message, "corrupt files"));
        QCOMPARE(found[0].fixes.at(0).parameters.list(), job.withTail({"--conf", "spark.speculation=false"}));
        QVERIFY(Job().conf("spark.speculation", "false").advise().empty());
    }

    void tuningGuideValues_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("bad");
        QTest::addColumn<QString>("good");
        QTest::addColumn<QString>("code");
        QTest::newRow("readHostLocalDisk") << "spark.shuffle.readHostLocalDisk"
                                           << "false"
                                           << "true"
                                           << "advice.tuning.read-host-local-disk";
        QTest::newRow("io encryption") << "spark.io.encryption.enabled"
                                       << "true"
                                       << "false"
                                       << "advice.tuning.io-encryption";
        QTest::newRow("shuffle service") << "spark.shuffle.service.enabled"
                                         << "false"
                                         << "true"
                                         << "advice.tuning.shuffle-service";
        QTest::newRow("enableToString") << "spark.sql.enableToString"
                                        << "TRUE"
                                        << "false"
                                        << "advice.tuning.enable-to-string";
        QTest::newRow("locality") << "spark.locality.wait"
                                  << "3s"
                                  << "0s"
                                  << "advice.tuning.locality-wait";
        QTest::newRow("locality.process") << "spark.locality.wait.process"
                                          << "1"
                                          << "0"
                                          << "advice.tuning.locality-wait";
        QTest::newRow("locality.node") << "spark.locality.wait.node"
                                       << "500ms"
                                       << "0ms"
                                       << "advice.tuning.locality-wait";
        QTest::newRow("locality.rack") << "spark.locality.wait.rack"
                                       << "3s"
                                       << "0s"
                                       << "advice.tuning.locality-wait";
    }
    void tuningGuideValues() {
        QFETCH(QString, key);
        QFETCH(QString, bad);
        QFETCH(QString, good);
        QFETCH(QString, code);
        Job job = Job().option({"--class", "Main"}).conf(key.toStdString(), bad.toStdString());
        const auto found = withCode(job.advise(), code.toStdString());
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(found[0].severity, Severity::Info);
        QCOMPARE(found[0].tokenIndex, 3);
        QCOMPARE(found[0].fixes.size(), std::size_t(1));
        const std::string fixed = found[0].fixes[0].parameters.list().at(3);
        QVERIFY2(fixed.starts_with(key.toStdString() + "="), fixed.c_str());
        QVERIFY(Job().conf(key.toStdString(), good.toStdString()).advise().empty());
        QVERIFY(Job().conf("spark.executor.memory", "2g").advise().empty()); // unset keys: no nagging
    }

    void parallelismBelowTwiceTheCores() {
        Job job = Job()
                      .option({"--num-executors", "10", "--executor-cores=4", "--verbose"})
                      .conf("spark.sql.shuffle.partitions", "50")
                      .conf("spark.default.parallelism", "200")
                      .hudiConf("hoodie.upsert.shuffle.parallelism", "40");
        const auto found = withCode(job.advise(), "advice.tuning.parallelism");
        QCOMPARE(found.size(), std::size_t(2));
        QCOMPARE(found[0].tokenIndex, 5);
        QVERIFY(contains(found[0].message, "twice the 40 cores"));
        QCOMPARE(found[0].fixes.at(0).parameters.list().at(5),
                 std::string("spark.sql.shuffle.partitions=80"));
        QCOMPARE(found[1].fixes.at(0).parameters.list().at(9),
                 std::string("hoodie.upsert.shuffle.parallelism=80"));

        // Cores from --conf and dynamic allocation's maximum.
        Job dynamic = Job()
                          .conf("spark.executor.cores", "2")
                          .conf("spark.executor.instances", "100")
                          .conf("spark.dynamicAllocation.enabled", "true")
                          .conf("spark.dynamicAllocation.maxExecutors", "8")
                          .conf("spark.default.parallelism", "10");
        const auto dyn = withCode(dynamic.advise(), "advice.tuning.parallelism");
        QCOMPARE(dyn.size(), std::size_t(1));
        QVERIFY(contains(dyn[0].message, "advises 32"));

        // Unknown size, the engine's own choice (0) or a bucket table: nothing to say.
        QVERIFY(Job().conf("spark.sql.shuffle.partitions", "1").advise().empty());
        QVERIFY(Job()
                    .option({"--num-executors", "10", "--executor-cores", "4"})
                    .hudiConf("hoodie.upsert.shuffle.parallelism", "0")
                    .advise()
                    .empty());
        QVERIFY(Job()
                    .option({"--num-executors", "10", "--executor-cores", "4"})
                    .hudiConf("hoodie.index.type", "BUCKET")
                    .hudiConf("hoodie.upsert.shuffle.parallelism", "8")
                    .advise()
                    .empty());
    }

    void currentNameBeatsDeprecatedOne() {
        // hoodie.datasource.hive_sync.mode has no old name; use partition path via its current name and an
        // extractor given twice: the last pair wins.
        const auto findings = Job()
                                  .hudiConf("hoodie.datasource.write.partitionpath.field", "region")
                                  .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                            "org.apache.hudi.hive.NonPartitionedExtractor")
                                  .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                                            "org.apache.hudi.hive.MultiPartKeysValueExtractor")
                                  .advise();
        QVERIFY(withCode(findings, "advice.partition-extractor.non-partitioned-with-fields").empty());

        const auto both =
            Job()
                .hudiConf("hoodie.keygen.timebased.output.dateformat", "yyyy-MM-dd")
                .hudiConf("hoodie.deltastreamer.keygen.timebased.output.dateformat", "yyyy/MM/dd")
                .hudiConf("hoodie.datasource.write.keygenerator.type", "TIMESTAMP")
                .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                          "org.apache.hudi.hive.MultiPartKeysValueExtractor")
                .advise();
        QVERIFY(withCode(both, "advice.partition-extractor.timestamp-multipart").empty());

        // Order does not matter: the current name still wins when the old one comes first...
        const auto reversed =
            Job()
                .hudiConf("hoodie.deltastreamer.keygen.timebased.output.dateformat", "yyyy/MM/dd")
                .hudiConf("hoodie.keygen.timebased.output.dateformat", "yyyy-MM-dd")
                .hudiConf("hoodie.datasource.write.keygenerator.type", "TIMESTAMP")
                .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                          "org.apache.hudi.hive.MultiPartKeysValueExtractor")
                .advise();
        QVERIFY(withCode(reversed, "advice.partition-extractor.timestamp-multipart").empty());
        // ...and an old name alone counts as the config.
        const auto oldOnly =
            Job()
                .hudiConf("hoodie.deltastreamer.keygen.timebased.output.dateformat", "yyyy/MM/dd")
                .hudiConf("hoodie.datasource.write.keygenerator.type", "TIMESTAMP")
                .hudiConf("hoodie.datasource.hive_sync.partition_extractor_class",
                          "org.apache.hudi.hive.MultiPartKeysValueExtractor")
                .advise();
        QCOMPARE(withCode(oldOnly, "advice.partition-extractor.timestamp-multipart").size(), std::size_t(1));
    }

    void staleTokenIndexesGetNoFixAndNoCrash() {
        const std::vector<std::string> parameters = {"--hudi-conf",
                                                     "hoodie.cleaner.policy=KEEP_LATEST_COMMITS"};
        for (int index : {-1, 0, 7, 1000}) {
            const auto findings = adviseOnConfigs(parameters, {{"spark.speculation", "true", index}},
                                                  {{"hoodie.cleaner.policy", "KEEP_LATEST_COMMITS", index}});
            QCOMPARE(findings.size(), std::size_t(2));
            for (const auto& d : findings)
                QVERIFY(d.fixes.empty());
        }
        // Odd keys and values never throw.
        QVERIFY(adviseOnConfigs({}, {{"", "", -1}}, {{"", "", -1}, {"hoodie.", "=", 0}}).size() <= 1);
    }

    void fixBudgetLimitsCopiesNotFindings() {
        Job job;
        for (int i = 0; i < 10; ++i)
            job.hudiConf("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
        std::vector<std::string> all = job.parameters;
        const auto unlimited = adviseOnConfigs(all, job.spark, job.hudi);
        const auto limited = adviseOnConfigs(all, job.spark, job.hudi, 3);
        QCOMPARE(unlimited.size(), std::size_t(10));
        QCOMPARE(limited.size(), std::size_t(10));
        for (std::size_t i = 0; i < limited.size(); ++i) {
            QCOMPARE(unlimited[i].fixes.size(), std::size_t(1));
            QCOMPARE(limited[i].fixes.size(), std::size_t(i < 3 ? 1 : 0));
            QCOMPARE(limited[i].message, unlimited[i].message);
        }
        QVERIFY(adviseOnConfigs(all, job.spark, job.hudi, 0).front().fixes.empty());
    }

    // The advice's codes are diagnostic codes like the validator's: one descriptor each, with the
    // severity the rule reports, so the editor and the rule list cannot spell one differently.
    void everyRuleIsADiagnosticCode() {
        for (const AdviceRule& rule : adviceRules()) {
            const DiagnosticDescriptor* d = findDiagnosticDescriptor(rule.code);
            QVERIFY2(d, std::string(rule.code).c_str());
            QCOMPARE(d->severity, rule.severity);
            QCOMPARE(d->refusalRank, kNotARefusal);
        }
    }

    void everyFindingIsDocumentedAndNeverAnError() {
        std::ifstream file(JOBDECK_SOURCE_DIR "/docs/advice.md");
        QVERIFY(file.good());
        std::stringstream docs;
        docs << file.rdbuf();
        for (const AdviceRule& rule : adviceRules()) {
            QVERIFY(rule.severity != Severity::Error);
            QVERIFY2(contains(docs.str(), "`" + std::string(rule.code) + "`"),
                     std::string(rule.code).c_str());
        }

        // A job that trips many rules at once: each finding's code and severity match the rule list.
        const auto findings = Job()
                                  .option({"--num-executors", "2", "--executor-cores", "2"})
                                  .conf("spark.speculation", "true")
                                  .conf("spark.sql.shuffle.partitions", "1")
                                  .hudiConf("hoodie.datasource.hive_sync.enable", "true")
                                  .hudiConf("hoodie.cleaner.policy", "bad")
                                  .hudiConf("hoodie.upsert.shuffle.paralelism", "1")
                                  .hudiConf("read.streaming.enabled", "true")
                                  .advise();
        QVERIFY(findings.size() >= 7);
        for (const auto& d : findings) {
            const auto rule = std::find_if(adviceRules().begin(), adviceRules().end(),
                                           [&](const AdviceRule& r) { return r.code == d.code; });
            QVERIFY2(rule != adviceRules().end(), std::string(d.code).c_str());
            QCOMPARE(d.severity, rule->severity);
            QVERIFY(!d.message.empty());
        }
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestHudiAdvice)
#include "tst_hudiadvice.moc"
