#include "core/hudi/EffectiveConfig.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/JobConfiguration.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

using Params = std::vector<std::string>;

ProjectSettings settings(bool enabled, std::vector<std::string> allowlist) {
    ProjectSettings s;
    s.hudiConfigsEnabled = enabled;
    s.hudiConfigAllowlist = std::move(allowlist);
    return s;
}

const DroppedConfig* droppedKey(const EffectiveConfig& e, const std::string& key, Provenance from) {
    for (const auto& d : e.dropped)
        if (d.key == key && d.source == from)
            return &d;
    return nullptr;
}

} // namespace

class TestEffectiveConfig : public QObject {
    Q_OBJECT

private slots:
    void describeSeedPosition() {
        // CONTRACT/seed 000: --class Foo --hudi-conf hoodie.a=b s3://bucket/app.jar --hudi-conf hoodie.c=d
        // arg1
        const Params p{"--class",    "Foo",    "--hudi-conf", "hoodie.a=b",          "--conf",
                       "spark.x=1",  "--conf", "hoodie.z=1",  "s3://bucket/app.jar", "--hudi-conf",
                       "hoodie.c=d", "arg1"};
        const JobConfiguration j = describeParameters(p, settings(true, {"hoodie.a"}));
        QCOMPARE(*j.applicationPath, std::string("s3://bucket/app.jar"));
        QCOMPARE(j.arguments, (Params{"--hudi-conf", "hoodie.c=d", "arg1"}));
        QCOMPARE(j.sparkConfigs, (std::map<std::string, std::string>{{"spark.x", "1"}}));
        QCOMPARE(j.hudiConfigs, (std::map<std::string, std::string>{{"hoodie.a", "b"}}));
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.a"), HudiConfigStatus::Applied);
        QCOMPARE(j.misplacedHudiConfigs, (std::vector<ConfigSetting>{{"hoodie.c", "d", 10}}));
    }

    void describeStatusesAndLastValueWins() {
        const Params p{"--hudi-conf", "hoodie.a=1",
                       "--hudi-conf", "hoodie.a=2",
                       "--hudi-conf", "hoodie.b=1",
                       "--hudi-conf", "hoodie.metrics.on=true",
                       "--hudi-conf", "hoodie.metadata.enable=false",
                       "x.py"};
        const JobConfiguration j = describeParameters(p, settings(true, {"hoodie.a", "hoodie.metadata."}));
        QCOMPARE(j.hudiConfigs.at("hoodie.a"), std::string("2"));
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.a"), HudiConfigStatus::Applied);
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.b"), HudiConfigStatus::NotAllowed);
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.metrics.on"), HudiConfigStatus::Reserved);
        QCOMPARE(j.hudiConfigsStatus.at("hoodie.metadata.enable"), HudiConfigStatus::OverriddenByPlatform);
        QCOMPARE(describeParameters(p, settings(false, {"hoodie.a"})).hudiConfigsStatus.at("hoodie.a"),
                 HudiConfigStatus::NotAllowed);
        QVERIFY(!describeParameters({"--class", "A"}, {}).applicationPath);
    }

    void precedence() {
        const ConfigPairs cluster{{"spark.executor.memory", "4g"},
                                  {"spark.serializer", "cluster.Serializer"},
                                  {"hoodie.datasource.write.hive_style_partitioning", "false"},
                                  {"hoodie.upsert.shuffle.parallelism", "100"},
                                  {"hoodie.bulkinsert.shuffle.parallelism", "10"}};
        const Params job{"--conf", "spark.executor.memory=8g", "--hudi-conf",
                         "hoodie.upsert.shuffle.parallelism=400", "app.jar"};
        const EffectiveConfig e =
            EffectiveConfig::resolve(cluster, job, settings(true, {"hoodie.upsert."}), "run-1");
        // Platform default, overridden by the cluster.
        QCOMPARE(e.spark.at("spark.serializer"), (ResolvedValue{"cluster.Serializer", Provenance::Cluster}));
        QCOMPARE(e.spark.at("spark.sql.extensions").source, Provenance::PlatformDefault);
        QCOMPARE(e.hudi.at("hoodie.datasource.write.hive_style_partitioning"),
                 (ResolvedValue{"false", Provenance::Cluster}));
        // Job over cluster.
        QCOMPARE(e.spark.at("spark.executor.memory"), (ResolvedValue{"8g", Provenance::Job}));
        QCOMPARE(e.hudi.at("hoodie.upsert.shuffle.parallelism"), (ResolvedValue{"400", Provenance::Job}));
        QCOMPARE(e.hudi.at("hoodie.bulkinsert.shuffle.parallelism"),
                 (ResolvedValue{"10", Provenance::Cluster}));
        // Platform-managed always wins.
        QCOMPARE(e.spark.at("spark.onehouse.jobRunId"),
                 (ResolvedValue{"run-1", Provenance::PlatformManaged}));
        for (const auto& [k, v] : HudiConfigPolicy::platformManagedHudiConfigs())
            QCOMPARE(e.hudi.at(k), (ResolvedValue{v, Provenance::PlatformManaged}));
        QVERIFY(e.dropped.empty());
        QVERIFY(e.hudiDefaultsConf().find("hoodie.upsert.shuffle.parallelism=400\n") != std::string::npos);
    }

    void droppedConfigsSayWhy() {
        const ConfigPairs cluster{{"hoodie.write.lock.provider", "x"},
                                  {"hoodie.metadata.enable", "false"},
                                  {"spark.master", "yarn"},
                                  {"other.key", "1"}};
        const Params job{"--hudi-conf", "hoodie.a=1",
                         "--hudi-conf", "hoodie.b=1",
                         "--hudi-conf", "hoodie.write.lock.provider=y",
                         "--hudi-conf", "hoodie.metadata.enable=false",
                         "--conf",      "hoodie.c=1",
                         "--conf",      "spark.onehouse.jobRunId=mine",
                         "--conf",      "custom=1",
                         "app.jar",     "--hudi-conf",
                         "hoodie.d=1"};
        const EffectiveConfig e =
            EffectiveConfig::resolve(cluster, job, settings(true, {"hoodie.a", "hoodie.metadata."}), "r");
        QCOMPARE(e.hudi.at("hoodie.a"), (ResolvedValue{"1", Provenance::Job}));
        QVERIFY(!e.hudi.contains("hoodie.b"));
        QVERIFY(!e.hudi.contains("hoodie.write.lock.provider"));
        QVERIFY(!e.hudi.contains("hoodie.d")); // an application argument
        QCOMPARE(droppedKey(e, "hoodie.b", Provenance::Job)->reason,
                 std::string("it is outside the project's allow-list"));
        QVERIFY(droppedKey(e, "hoodie.write.lock.provider", Provenance::Job)
                    ->reason.starts_with("it is reserved"));
        QVERIFY(droppedKey(e, "hoodie.write.lock.provider", Provenance::Cluster));
        QCOMPARE(droppedKey(e, "hoodie.metadata.enable", Provenance::Job)->reason,
                 std::string("the platform sets it for every run"));
        QVERIFY(droppedKey(e, "hoodie.metadata.enable", Provenance::Cluster));
        QVERIFY(droppedKey(e, "hoodie.c", Provenance::Job)->reason.find("--hudi-conf") != std::string::npos);
        QCOMPARE(e.spark.at("spark.onehouse.jobRunId").value, std::string("r"));
        QVERIFY(droppedKey(e, "spark.onehouse.jobRunId", Provenance::Job));
        QVERIFY(droppedKey(e, "spark.master", Provenance::Cluster));
        QVERIFY(droppedKey(e, "custom", Provenance::Job));
        QVERIFY(droppedKey(e, "other.key", Provenance::Cluster));
        QVERIFY(!droppedKey(e, "hoodie.d", Provenance::Job));

        const EffectiveConfig off = EffectiveConfig::resolve({}, job, settings(false, {"hoodie.a"}), "r");
        QCOMPARE(droppedKey(off, "hoodie.a", Provenance::Job)->reason,
                 std::string("--hudi-conf is not enabled for this project"));
    }

    void lineBreaksNeverReachThePropertiesFile() {
        const ConfigPairs cluster{{"hoodie.a", "x\nhoodie.write.lock.provider=evil"},
                                  {"hoodie.b", " padded"}};
        const Params job{"--hudi-conf", "hoodie.c=1\rhoodie.metrics.on=true", "app.jar"};
        const EffectiveConfig e = EffectiveConfig::resolve(cluster, job, settings(true, {"hoodie."}), "r");
        QVERIFY(!e.hudi.contains("hoodie.a"));
        QVERIFY(!e.hudi.contains("hoodie.b"));
        QVERIFY(!e.hudi.contains("hoodie.c"));
        QVERIFY(droppedKey(e, "hoodie.a", Provenance::Cluster)->reason.find("line break") !=
                std::string::npos);
        QVERIFY(droppedKey(e, "hoodie.c", Provenance::Job));
        const std::string conf = e.hudiDefaultsConf();
        QVERIFY(conf.find("lock") == std::string::npos);
        QVERIFY(conf.find("metrics") == std::string::npos);
        QCOMPARE(std::count(conf.begin(), conf.end(), '\n'), std::ptrdiff_t(e.hudi.size()));
    }

    void provenanceNames() {
        QCOMPARE(std::string(provenanceName(Provenance::PlatformDefault)), std::string("PLATFORM_DEFAULT"));
        QCOMPARE(std::string(provenanceName(Provenance::Cluster)), std::string("CLUSTER"));
        QCOMPARE(std::string(provenanceName(Provenance::Job)), std::string("JOB"));
        QCOMPARE(std::string(provenanceName(Provenance::PlatformManaged)), std::string("PLATFORM_MANAGED"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestEffectiveConfig)
#include "tst_effectiveconfig.moc"
