// CREATE / ALTER / DELETE / DESCRIBE JOB and SHOW JOBS [SUMMARY] through the real jobdeckd: CONTRACT §2 and
// §3 to the letter (every --hudi-conf message), the allow-list's CREATE vs ALTER rules, hudiConfigsStatus,
// secret masking and the **** round trip, and the seed's count_transactions example.
#include "core/wire/SparkJobSummary.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

namespace {

const std::string kNotEnabled =
    "--hudi-conf is not enabled for this organization. Remove the --hudi-conf parameters, "
    "or contact Onehouse support to enable Hudi config overrides on Spark jobs.";

std::string notPermitted(const std::string& keys) {
    return "--hudi-conf keys are not permitted for this organization: " + keys +
           ". Remove them, or contact Onehouse support to allow them.";
}

const QString kSeedCreate = R"(CREATE JOB `count_transactions`
    TYPE = 'JAR'
    PARAMETERS = ( '--class', 'com.example.MySparkApp',
                   '--hudi-conf', 'hoodie.datasource.meta.sync.glue.catalogId=123456789012',
                   's3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar' )
    CLUSTER = 'onehouse_cluster_spark')";

const QString kSeedAlter = R"(ALTER JOB `count_transactions`
    SET PARAMETERS = ( '--class', 'com.example.MySparkApp',
                       '--hudi-conf', 'hoodie.datasource.meta.sync.glue.catalogId=123456789012',
                       '--hudi-conf', 'hoodie.datasource.hive_sync.database=analytics',
                       's3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar' ))";

} // namespace

class TestJobs final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials* who = nullptr) {
        return runStatement(m_service, who ? *who : m_operator, statement);
    }
    json admin(const QString& statement) {
        const auto r = runStatement(m_service, m_admin, statement);
        if (statusOf(r) != kSuccess)
            qWarning("admin statement failed: %s", r.dump().c_str());
        return r;
    }
    json describe(const QString& name, const ApiCredentials* who = nullptr) {
        return run("DESCRIBE JOB " + name, who)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
    }
    // CREATE JOB <name> with the parameters (already quoted and comma-separated).
    json create(const QString& name, const QString& parameters, const QString& extra = {}) {
        return run(
            QString("CREATE JOB %1 TYPE = 'JAR' PARAMETERS = (%2) CLUSTER = 'onehouse_cluster_spark' %3")
                .arg(name, parameters, extra));
    }
    json alter(const QString& name, const QString& parameters) {
        return run(QString("ALTER JOB %1 SET PARAMETERS = (%2)").arg(name, parameters));
    }
    // The parameters as stored, read from the database (DESCRIBE masks them).
    std::vector<std::string> storedParameters(const std::string& name) {
        ServiceDatabase db(m_service);
        const QString stored = db.value("SELECT parameters FROM jobs WHERE name = ? AND project_uid = ?",
                                        {QString::fromStdString(name), m_operator.projectUid});
        if (stored.isNull())
            return {};
        return json::parse(stored.toStdString()).get<std::vector<std::string>>();
    }
    void resetHudiSettings(bool enabled, const QStringList& allowlist) {
        const auto current =
            admin("DESCRIBE PROJECT")["apiResponse"]["describeProjectApiResponse"]["project"]["settings"];
        QStringList present;
        for (const auto& e : current["hudiConfigAllowlist"])
            present << QString::fromStdString(e.get<std::string>());
        if (!present.isEmpty())
            admin("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('" + present.join("', '") + "')");
        if (!allowlist.isEmpty())
            admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('" + allowlist.join("', '") + "')");
        admin(QString("ALTER PROJECT SET HUDI_CONFIGS = %1").arg(enabled ? "ENABLED" : "DISABLED"));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("jobs", "admin");
        m_operator = m_service.createKey("jobs", "operator");
        m_viewer = m_service.createKey("jobs", "viewer");
        QVERIFY(m_admin.isValid() && m_operator.isValid() && m_viewer.isValid());
        QCOMPARE(
            statusOf(run("CREATE CLUSTER onehouse_cluster_spark TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 0")),
            kSuccess);
    }

    // --- The seed: 000-hudi-conf-on-jobs ---------------------------------------------------------------

    void seedCreateIsRefusedWhileTheFeatureIsOff() {
        resetHudiSettings(false, {});
        const auto r = run(kSeedCreate);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), kNotEnabled);
        QCOMPARE(statusOf(run("DESCRIBE JOB count_transactions")), kFailed);
    }

    void seedCreateIsRefusedOutsideTheAllowList() {
        resetHudiSettings(true, {});
        const auto r = run(kSeedCreate);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), notPermitted("hoodie.datasource.meta.sync.glue.catalogId"));
    }

    void seedCreateAndDescribe() {
        resetHudiSettings(true, {"hoodie.datasource.meta.sync."});
        const auto created = run(kSeedCreate);
        QCOMPARE(statusOf(created), kSuccess);
        const auto ref = created["apiResponse"]["createJobApiResponse"];
        QCOMPARE(ref["name"].get<std::string>(), std::string("count_transactions"));

        const auto job = describe("count_transactions", &m_viewer);
        QCOMPARE(job["jobId"], ref["jobId"]);
        QCOMPARE(job["name"].get<std::string>(), std::string("count_transactions"));
        QCOMPARE(job["type"].get<std::string>(), std::string("JAR"));
        QCOMPARE(job["cluster"].get<std::string>(), std::string("onehouse_cluster_spark"));
        QCOMPARE(job["parameters"], json({"--class", "com.example.MySparkApp", "--hudi-conf",
                                          "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                                          "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"}));
        QCOMPARE(job["applicationPath"].get<std::string>(),
                 std::string("s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"));
        QCOMPARE(job["arguments"], json::array());
        QCOMPARE(job["sparkConfigs"], json::object());
        QCOMPARE(job["hudiConfigs"], json({{"hoodie.datasource.meta.sync.glue.catalogId", "123456789012"}}));
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.datasource.meta.sync.glue.catalogId", "APPLIED"}}));
        QCOMPARE(job["maxConcurrentRuns"].get<int>(), 1);
        QCOMPARE(job["activeRuns"].get<int>(), 0);
        QVERIFY(!job["createdAt"].get<std::string>().empty());
        QCOMPARE(job["createdAt"], job["updatedAt"]);
    }

    void seedAlterAddsAConfigurationOnceAllowed() {
        auto r = run(kSeedAlter);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), notPermitted("hoodie.datasource.hive_sync.database"));
        QCOMPARE(describe("count_transactions")["hudiConfigs"].size(), std::size_t(1));

        admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.hive_sync.database')");
        r = run(kSeedAlter);
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(r["apiResponse"]["alterJobApiResponse"]["name"].get<std::string>(),
                 std::string("count_transactions"));
        const auto job = describe("count_transactions");
        QCOMPARE(job["hudiConfigs"], json({{"hoodie.datasource.meta.sync.glue.catalogId", "123456789012"},
                                           {"hoodie.datasource.hive_sync.database", "analytics"}}));
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.datasource.meta.sync.glue.catalogId", "APPLIED"},
                                                 {"hoodie.datasource.hive_sync.database", "APPLIED"}}));
        QVERIFY(job["updatedAt"].get<std::string>() >= job["createdAt"].get<std::string>());
    }

    void seedPositionMatters() {
        resetHudiSettings(true, {"hoodie."});
        const auto r =
            create("position", "'--class', 'Foo', '--hudi-conf', 'hoodie.a=b', 's3://bucket/app.jar', "
                               "'--hudi-conf', 'hoodie.c=d', 'arg1'");
        QCOMPARE(statusOf(r), kSuccess);
        const auto job = describe("position");
        QCOMPARE(job["applicationPath"].get<std::string>(), std::string("s3://bucket/app.jar"));
        QCOMPARE(job["arguments"], json({"--hudi-conf", "hoodie.c=d", "arg1"}));
        QCOMPARE(job["hudiConfigs"], json({{"hoodie.a", "b"}}));
        QCOMPARE(job["misplacedHudiConfigs"], json({"hoodie.c=d"}));
    }

    void seedOnePairPerFlag() {
        const auto r = create("literal", "'--hudi-conf', 'hoodie.x1=y1,hoodie.x2=y2', 'app.jar'");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(describe("literal")["hudiConfigs"], json({{"hoodie.x1", "y1,hoodie.x2=y2"}}));
    }

    void confAndHudiConfGoToTheirOwnPlaces() {
        const auto r = create("confs", "'--conf', 'spark.executor.memory=4g', '-c', 'spark.a=b', '--conf', "
                                       "'hoodie.ignored=1', '--hudi-conf', 'hoodie.kept=2', 'app.jar'");
        QCOMPARE(statusOf(r), kSuccess);
        const auto job = describe("confs");
        QCOMPARE(job["sparkConfigs"], json({{"spark.executor.memory", "4g"}, {"spark.a", "b"}}));
        QCOMPARE(job["hudiConfigs"], json({{"hoodie.kept", "2"}}));
    }

    // --- Every --hudi-conf message of CONTRACT §3 --------------------------------------------------------

    void hudiConfErrorMessages_data() {
        QTest::addColumn<QString>("parameters");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a hudi key")
            << "'--hudi-conf', 'spark.x=y', 'app.jar'"
            << "--hudi-conf only accepts hoodie.* keys, got 'spark.x'. Use --conf for "
               "Spark configs.";
        QTest::newRow("flag last") << "'--class', 'X', '--hudi-conf'"
                                   << "--hudi-conf must be followed by hudi config <key>=<value>";
        QTest::newRow("no equals") << "'--hudi-conf', 'hoodie.x', 'app.jar'"
                                   << "Hudi config must be of format <key>=<value>";
        QTest::newRow("empty value")
            << "'--hudi-conf', 'hoodie.x=', 'app.jar'"
            << "--hudi-conf value for 'hoodie.x' is empty. Remove the config to fall back to "
               "the platform default.";
        const QString whitespace =
            "--hudi-conf entry for 'hoodie.x' contains a line break or leading/trailing "
            "whitespace, which would not survive the run's properties file intact.";
        QTest::newRow("trailing space in value") << "'--hudi-conf', 'hoodie.x=y ', 'app.jar'" << whitespace;
        QTest::newRow("leading space in value") << "'--hudi-conf', 'hoodie.x= y', 'app.jar'" << whitespace;
        QTest::newRow("space before =") << "'--hudi-conf', 'hoodie.x =y', 'app.jar'" << whitespace;
        QTest::newRow("line break") << "'--hudi-conf', 'hoodie.x=a\nb', 'app.jar'" << whitespace;
        QTest::newRow("reserved lock") << "'--hudi-conf', 'hoodie.write.lock.provider=x', 'app.jar'"
                                       << QString::fromStdString(notPermitted("hoodie.write.lock.provider"));
        QTest::newRow("reserved metrics") << "'--hudi-conf', 'hoodie.metrics.on=true', 'app.jar'"
                                          << QString::fromStdString(notPermitted("hoodie.metrics.on"));
        QTest::newRow("reserved freeze")
            << "'--hudi-conf', 'hoodie.write.config.freeze=false', 'app.jar'"
            << QString::fromStdString(notPermitted("hoodie.write.config.freeze"));
        QTest::newRow("reserved cleaner")
            << "'--hudi-conf', 'hoodie.cleaner.policy.failed.writes=LAZY', 'app.jar'"
            << QString::fromStdString(notPermitted("hoodie.cleaner.policy.failed.writes"));
        QTest::newRow("reserved cleaner new name")
            << "'--hudi-conf', 'hoodie.clean.failed.writes.policy=LAZY', 'app.jar'"
            << QString::fromStdString(notPermitted("hoodie.clean.failed.writes.policy"));
        QTest::newRow("reserved concurrency")
            << "'--hudi-conf', 'hoodie.write.concurrency.mode=x', 'app.jar'"
            << QString::fromStdString(notPermitted("hoodie.write.concurrency.mode"));
    }

    void hudiConfErrorMessages() {
        QFETCH(QString, parameters);
        QFETCH(QString, message);
        resetHudiSettings(true, {"hoodie."}); // the widest allow-list: only the format and reserved keys fail
        const auto r = create("bad_hudi", parameters);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(QString::fromStdString(errorOf(r)), message);
        QCOMPARE(statusOf(run("DESCRIBE JOB bad_hudi")), kFailed);
    }

    void notPermittedListsTheKeysSorted() {
        resetHudiSettings(true, {"hoodie.datasource.meta.sync."});
        const auto r =
            create("bad_hudi", "'--hudi-conf', 'hoodie.zeta=1', '--hudi-conf', 'hoodie.alpha=2', "
                               "'--hudi-conf', 'hoodie.datasource.meta.sync.glue.catalogId=3', 'app.jar'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), notPermitted("hoodie.alpha, hoodie.zeta"));
        // The status names the refusal's code and the first parameter it concerns (docs/wire-format.md).
        QCOMPARE(r.value("diagnosticCode", std::string()), std::string("hudi-conf.not-permitted"));
        QCOMPARE(r.value("parameterIndex", -1), 1);
    }

    // A refusal carries the validator's code, and the parameter when it concerns one; other failures do not.
    void refusalsCarryTheirDiagnosticCodeAndParameter() {
        resetHudiSettings(true, {"hoodie."});
        const auto unknown = create("bad_opt", "'--class', 'A', '--no-such-option', 'app.jar'");
        QCOMPARE(statusOf(unknown), kFailed);
        QCOMPARE(unknown.value("diagnosticCode", std::string()), std::string("option.unknown"));
        QCOMPARE(unknown.value("parameterIndex", -1), 2);
        // An option and its value in one parameter, as typed on one line: the editor's message, and a
        // secret value in it stays masked.
        const auto oneLine = create("bad_opt", "'--conf spark.hadoop.fs.s3a.secret.key=abc123', 'app.jar'");
        QCOMPARE(statusOf(oneLine), kFailed);
        QCOMPARE(oneLine.value("diagnosticCode", std::string()), std::string("option.unknown"));
        QCOMPARE(errorOf(oneLine),
                 std::string("Unrecognized option '--conf spark.hadoop.fs.s3a.secret.key=****' "
                             "before the application path: an option and its value are "
                             "parameters of their own."));
        const auto empty = run("ALTER JOB no_such_job SET PARAMETERS = ('app.jar')");
        QCOMPARE(statusOf(empty), kFailed);
        QVERIFY(!empty.contains("diagnosticCode") && !empty.contains("parameterIndex"));
        const auto noPath = create("bad_path", "'--class', 'A'");
        QCOMPARE(noPath.value("diagnosticCode", std::string()), std::string("path.missing"));
        QVERIFY(!noPath.contains("parameterIndex"));
        // A **** standing for no stored value: the same code and parameter the console's editor shows.
        const auto masked = create("bad_mask", "'--conf', 'spark.db.password=****', 'app.jar'");
        QCOMPARE(statusOf(masked), kFailed);
        QCOMPARE(masked.value("diagnosticCode", std::string()), std::string("secret.unresolved-mask"));
        QCOMPARE(masked.value("parameterIndex", -1), 1);
        QVERIFY(errorOf(masked).find("no stored value") != std::string::npos);
    }

    void featureOffRefusesEveryHudiConf() {
        resetHudiSettings(false, {"hoodie."});
        const auto r = create("bad_hudi", "'--hudi-conf', 'hoodie.a=1', 'app.jar'");
        QCOMPARE(errorOf(r), kNotEnabled);
        // Without --hudi-conf before the path the feature is not needed; after the path it is an argument.
        QCOMPARE(statusOf(create("no_hudi", "'app.jar', '--hudi-conf', 'hoodie.a=1'")), kSuccess);
        QCOMPARE(describe("no_hudi")["hudiConfigs"], json::object());
    }

    void platformOptionsAndUnknownOptionsAreRefused() {
        resetHudiSettings(true, {"hoodie."});
        for (const QString& parameters :
             {QString("'--master', 'yarn', 'app.jar'"), QString("'--deploy-mode', 'cluster', 'app.jar'"),
              QString("'--no-such-option', 'app.jar'")}) {
            const auto r = create("bad_opt", parameters);
            QCOMPARE(statusOf(r), kFailed);
            const QString option = parameters.section('\'', 1, 1);
            QVERIFY2(QString::fromStdString(errorOf(r)).contains(option), errorOf(r).c_str());
        }
        const auto hoodie = create("bad_opt", "'--hoodie-conf', 'hoodie.a=b', 'app.jar'");
        QCOMPARE(statusOf(hoodie), kFailed);
        QVERIFY2(errorOf(hoodie).find("--hudi-conf") != std::string::npos, errorOf(hoodie).c_str());
    }

    // --- CREATE vs ALTER with a narrowed allow-list ------------------------------------------------------

    void alterKeepsPairsTheJobAlreadyHad() {
        resetHudiSettings(true, {"hoodie.datasource.write.operation", "hoodie.datasource.hive_sync."});
        const QString params = "'--hudi-conf', 'hoodie.datasource.write.operation=upsert', '--hudi-conf', "
                               "'hoodie.datasource.hive_sync.database=db', 'app.jar'";
        QCOMPARE(statusOf(create("narrowed", params)), kSuccess);

        // Narrow the allow-list: the same pairs are still accepted on ALTER, but no longer applied.
        admin("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation')");
        QCOMPARE(statusOf(alter("narrowed", params + ", 'newarg'")), kSuccess);
        auto job = describe("narrowed");
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.datasource.write.operation", "NOT_ALLOWED"},
                                                 {"hoodie.datasource.hive_sync.database", "APPLIED"}}));
        QCOMPARE(job["arguments"], json({"newarg"}));
        // CREATE with the same pairs is refused.
        auto r = create("narrowed2", params);
        QCOMPARE(errorOf(r), notPermitted("hoodie.datasource.write.operation"));
        // A changed value is a new pair: checked like CREATE.
        r = alter("narrowed", "'--hudi-conf', 'hoodie.datasource.write.operation=insert', 'app.jar'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), notPermitted("hoodie.datasource.write.operation"));

        // Switch the feature off: still editable with the pairs it had; nothing applied; new pairs refused.
        admin("ALTER PROJECT SET HUDI_CONFIGS = DISABLED");
        QCOMPARE(statusOf(alter("narrowed", params)), kSuccess);
        job = describe("narrowed");
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.datasource.write.operation", "NOT_ALLOWED"},
                                                 {"hoodie.datasource.hive_sync.database", "NOT_ALLOWED"}}));
        QCOMPARE(job["hudiConfigs"].size(), std::size_t(2)); // still stored
        r = alter("narrowed", params + ", '--hudi-conf', 'hoodie.other=1'");
        QCOMPARE(r.value("apiStatus", std::string()), kSuccess); // after the path: an application argument
        r = alter("narrowed", "'--hudi-conf', 'hoodie.other=1', " + params);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), kNotEnabled);
        // Dropping a pair is always possible.
        QCOMPARE(statusOf(alter("narrowed", "'app.jar'")), kSuccess);
        QCOMPARE(describe("narrowed")["hudiConfigs"], json::object());
    }

    void statusIsComputedAgainstTheCurrentSettings() {
        resetHudiSettings(true, {"hoodie.datasource.write."});
        QCOMPARE(statusOf(create("status",
                                 "'--hudi-conf', 'hoodie.datasource.write.operation=upsert', 'app.jar'")),
                 kSuccess);
        QCOMPARE(
            describe("status")["hudiConfigsStatus"]["hoodie.datasource.write.operation"].get<std::string>(),
            std::string("APPLIED"));
        resetHudiSettings(true, {});
        QCOMPARE(
            describe("status")["hudiConfigsStatus"]["hoodie.datasource.write.operation"].get<std::string>(),
            std::string("NOT_ALLOWED"));
        resetHudiSettings(true, {"hoodie.datasource.write.operation"});
        const auto shown = run("SHOW JOBS")["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        bool found = false;
        for (const auto& job : shown)
            if (job["name"] == "status") {
                found = true;
                QCOMPARE(job["hudiConfigsStatus"]["hoodie.datasource.write.operation"].get<std::string>(),
                         std::string("APPLIED"));
            }
        QVERIFY(found);
    }

    void describeGivesAReasonForEveryStatus() {
        // hudiConfigsStatusReasons: core's explanation for each key, under the CURRENT settings, beside the
        // unchanged hudiConfigsStatus; SHOW JOBS leaves it out.
        resetHudiSettings(true, {"hoodie.datasource.write.", "hoodie."});
        QCOMPARE(statusOf(create("reasons", "'--hudi-conf', 'hoodie.datasource.write.operation=upsert', "
                                            "'--hudi-conf', 'hoodie.metadata.enable=false', '--hudi-conf', "
                                            "'hoodie.a.secret=s3cr3t', 'app.jar'")),
                 kSuccess);
        auto job = describe("reasons", &m_viewer);
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.datasource.write.operation", "APPLIED"},
                                                 {"hoodie.metadata.enable", "OVERRIDDEN_BY_PLATFORM"},
                                                 {"hoodie.a.secret", "APPLIED"}}));
        auto reasons = job["hudiConfigsStatusReasons"];
        QCOMPARE(reasons.size(), std::size_t(3));
        QCOMPARE(reasons["hoodie.datasource.write.operation"].get<std::string>(),
                 std::string("Applied: allowed by the project's allow-list entry 'hoodie.datasource.write.' "
                             "(a family)."));
        QVERIFY(reasons["hoodie.metadata.enable"].get<std::string>().find("to 'true' on every run") !=
                std::string::npos);
        QVERIFY(job.dump().find("s3cr3t") == std::string::npos); // a reason never carries a value

        // Narrowed: the reason says which statement would apply it again.
        resetHudiSettings(true, {"hoodie.metadata."});
        reasons = describe("reasons")["hudiConfigsStatusReasons"];
        QVERIFY2(reasons["hoodie.datasource.write.operation"].get<std::string>().find(
                     "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation')") !=
                     std::string::npos,
                 reasons.dump().c_str());
        resetHudiSettings(false, {"hoodie.datasource.write.operation"});
        reasons = describe("reasons")["hudiConfigsStatusReasons"];
        const auto off = reasons["hoodie.datasource.write.operation"].get<std::string>();
        QVERIFY2(off.starts_with("Not applied: --hudi-conf is not enabled for this project, although"),
                 off.c_str());
        QVERIFY(off.find("ALTER PROJECT SET HUDI_CONFIGS = ENABLED.") != std::string::npos);

        // Present (empty) for a job without Hudi configurations; absent from SHOW JOBS.
        QCOMPARE(statusOf(create("no_reasons", "'app.jar'")), kSuccess);
        QCOMPARE(describe("no_reasons")["hudiConfigsStatusReasons"], json::object());
        for (const auto& listed : run("SHOW JOBS")["apiResponse"]["showJobsApiResponse"]["sparkJobs"])
            QVERIFY(!listed.contains("hudiConfigsStatusReasons"));
        QCOMPARE(statusOf(run("DELETE JOB reasons")), kSuccess);
        QCOMPARE(statusOf(run("DELETE JOB no_reasons")), kSuccess);
    }

    void platformManagedKeysShowAsOverridden() {
        // Allowed and stored, but the platform sets it on every run (core/hudi/HudiConfigPolicy), so it never
        // applies.
        resetHudiSettings(true, {"hoodie."});
        QCOMPARE(statusOf(create("managed", "'--hudi-conf', 'hoodie.metadata.enable=false', '--hudi-conf', "
                                            "'hoodie.datasource.write.operation=upsert', 'app.jar'")),
                 kSuccess);
        const auto job = describe("managed");
        QCOMPARE(job["hudiConfigs"]["hoodie.metadata.enable"].get<std::string>(), std::string("false"));
        QCOMPARE(job["hudiConfigsStatus"], json({{"hoodie.metadata.enable", "OVERRIDDEN_BY_PLATFORM"},
                                                 {"hoodie.datasource.write.operation", "APPLIED"}}));
        // Outside the allow-list NOT_ALLOWED is what matters to the user: it ranks above the override.
        resetHudiSettings(true, {"hoodie.datasource."});
        QCOMPARE(describe("managed")["hudiConfigsStatus"]["hoodie.metadata.enable"].get<std::string>(),
                 std::string("NOT_ALLOWED"));
    }

    void reservedKeysOfLegacyJobsShowAsReserved() {
        // A job stored before a key became reserved (written straight into the database, as an older
        // version would have): the key is reported, never applied.
        resetHudiSettings(true, {"hoodie."});
        QCOMPARE(statusOf(create("legacy", "'--hudi-conf', 'hoodie.a=1', 'app.jar'")), kSuccess);
        {
            ServiceDatabase db(m_service);
            const json params = {"--hudi-conf", "hoodie.a=1", "--hudi-conf", "hoodie.write.lock.provider=x",
                                 "app.jar"};
            QCOMPARE(db.execute("UPDATE jobs SET parameters = ? WHERE name = 'legacy'",
                                {QString::fromStdString(params.dump())}),
                     1);
        }
        const auto job = describe("legacy");
        QCOMPARE(job["hudiConfigsStatus"]["hoodie.a"].get<std::string>(), std::string("APPLIED"));
        QCOMPARE(job["hudiConfigsStatus"]["hoodie.write.lock.provider"].get<std::string>(),
                 std::string("RESERVED"));
        // ALTER with the pairs the job already has is accepted even for the reserved one.
        QCOMPARE(statusOf(alter("legacy",
                                "'--hudi-conf', 'hoodie.a=1', '--hudi-conf', 'hoodie.write.lock.provider=x', "
                                "'app.jar', 'more'")),
                 kSuccess);
    }

    // --- Secrets -----------------------------------------------------------------------------------------

    void secretsAreMaskedInEveryFieldForEveryRole() {
        resetHudiSettings(true, {"hoodie."});
        const auto r =
            create("secretive", "'--conf', 'spark.hadoop.fs.s3a.secret.key=SPARKSECRET', '--hudi-conf', "
                                "'hoodie.x.password=HUDISECRET', 'app.jar', '--db-password', 'ARGSECRET', "
                                "'--api-token=INLINESECRET', '--hudi-conf', 'hoodie.y.token=MISPLACED'");
        QCOMPARE(statusOf(r), kSuccess);
        for (const auto* who : {&m_viewer, &m_operator, &m_admin}) {
            const auto job = describe("secretive", who);
            QCOMPARE(job["sparkConfigs"]["spark.hadoop.fs.s3a.secret.key"].get<std::string>(),
                     std::string("****"));
            QCOMPARE(job["hudiConfigs"]["hoodie.x.password"].get<std::string>(), std::string("****"));
            QCOMPARE(job["parameters"][1].get<std::string>(),
                     std::string("spark.hadoop.fs.s3a.secret.key=****"));
            QCOMPARE(job["arguments"][1].get<std::string>(), std::string("****"));
            QCOMPARE(job["arguments"][2].get<std::string>(), std::string("--api-token=****"));
            const auto shown = run("SHOW JOBS", who).dump();
            const auto summaries = run("SHOW JOBS SUMMARY", who).dump();
            for (const char* secret :
                 {"SPARKSECRET", "HUDISECRET", "ARGSECRET", "INLINESECRET", "MISPLACED"}) {
                QVERIFY2(job.dump().find(secret) == std::string::npos, job.dump().c_str());
                QVERIFY2(shown.find(secret) == std::string::npos, secret);
                QVERIFY2(summaries.find(secret) == std::string::npos, secret);
            }
        }
        QVERIFY(!m_service.errorOutput().contains("ARGSECRET"));
    }

    void maskedValuesSentBackKeepTheStoredOnes() {
        // ALTER with exactly what DESCRIBE showed (masked), plus one change.
        auto parameters = describe("secretive")["parameters"];
        parameters.push_back("extra");
        QStringList quoted;
        for (const auto& p : parameters)
            quoted << "'" + QString::fromStdString(p.get<std::string>()) + "'";
        QCOMPARE(statusOf(alter("secretive", quoted.join(", "))), kSuccess);
        const auto stored = storedParameters("secretive");
        QCOMPARE(stored, (std::vector<std::string>{"--conf", "spark.hadoop.fs.s3a.secret.key=SPARKSECRET",
                                                   "--hudi-conf", "hoodie.x.password=HUDISECRET", "app.jar",
                                                   "--db-password", "ARGSECRET", "--api-token=INLINESECRET",
                                                   "--hudi-conf", "hoodie.y.token=MISPLACED", "extra"}));
        // A new value replaces the stored one.
        QCOMPARE(statusOf(alter("secretive", "'app.jar', '--db-password', 'NEWSECRET'")), kSuccess);
        QCOMPARE(storedParameters("secretive"),
                 (std::vector<std::string>{"app.jar", "--db-password", "NEWSECRET"}));
        // **** for a key the job has no value for cannot be resolved.
        const auto r = alter("secretive", "'app.jar', '--db-password', '****', '--other-secret', '****'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("The value of '--other-secret' is masked (****) but the Job has no stored "
                             "value for it; send the real value."));
        QCOMPARE(storedParameters("secretive"),
                 (std::vector<std::string>{"app.jar", "--db-password", "NEWSECRET"}));
    }

    // --- The rest of CREATE / ALTER / DELETE / DESCRIBE / SHOW -------------------------------------------

    void createRefusals() {
        auto r = create("count_transactions", "'app.jar'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Job count_transactions already exists"));
        r = run("CREATE JOB orphan TYPE = 'JAR' PARAMETERS = ('app.jar') CLUSTER = 'nope'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Cluster nope does not exist"));
        r = run("CREATE JOB broken TYPE = 'JAR' PARAMETERS = ('app.jar')");
        QCOMPARE(statusOf(r), kInvalid);
        QVERIFY(!errorOf(r).empty());
        r = run(
            "CREATE JOB broken TYPE = 'SCALA' PARAMETERS = ('app.jar') CLUSTER = 'onehouse_cluster_spark'");
        QCOMPARE(statusOf(r), kInvalid);
        r = create("zero", "'app.jar'", "MAX_CONCURRENT_RUNS = 0");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MAX_CONCURRENT_RUNS must be between 1 and 1000, got 0"));
        r = create("two", "'app.jar'", "MAX_CONCURRENT_RUNS = 2");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("MAX_CONCURRENT_RUNS above 1 needs concurrent runs, which are not enabled "
                             "for this project. Contact Onehouse support to enable them."));
    }

    void pythonJobsAndBackquotedNames() {
        QCOMPARE(statusOf(run(
                     "CREATE JOB `py job` TYPE = 'PYTHON' PARAMETERS = ('--py-files', 'deps.zip', 'main.py', "
                     "'--date', '2026-01-01') CLUSTER = 'onehouse_cluster_spark'")),
                 kSuccess);
        const auto job = describe("`py job`");
        QCOMPARE(job["name"].get<std::string>(), std::string("py job"));
        QCOMPARE(job["type"].get<std::string>(), std::string("PYTHON"));
        QCOMPARE(job["applicationPath"].get<std::string>(), std::string("main.py"));
        QCOMPARE(job["arguments"], json({"--date", "2026-01-01"}));
    }

    void alterSetsSeveralClausesAtOnce() {
        QCOMPARE(statusOf(run("CREATE CLUSTER second TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
        QCOMPARE(statusOf(create("multi", "'app.jar'")), kSuccess);
        const auto before = describe("multi");
        QTest::qWait(5);
        const auto r = run("ALTER JOB multi SET CLUSTER = 'second' SET PARAMETERS = ('other.jar', 'x') "
                           "SET MAX_CONCURRENT_RUNS = 1");
        QCOMPARE(statusOf(r), kSuccess);
        const auto job = describe("multi");
        QCOMPARE(job["cluster"].get<std::string>(), std::string("second"));
        QCOMPARE(job["applicationPath"].get<std::string>(), std::string("other.jar"));
        QCOMPARE(job["jobId"], before["jobId"]);
        QCOMPARE(job["createdAt"], before["createdAt"]);
        QVERIFY(job["updatedAt"].get<std::string>() > before["updatedAt"].get<std::string>());
        // A refused clause refuses the whole statement.
        QCOMPARE(errorOf(run("ALTER JOB multi SET PARAMETERS = ('a.jar') SET CLUSTER = 'nope'")),
                 std::string("Cluster nope does not exist"));
        QCOMPARE(describe("multi")["cluster"].get<std::string>(), std::string("second"));
        QCOMPARE(describe("multi")["applicationPath"].get<std::string>(), std::string("other.jar"));
        QCOMPARE(errorOf(run("ALTER JOB ghost SET CLUSTER = 'second'")),
                 std::string("Job ghost does not exist"));
    }

    void showJobsListsEveryJobByName() {
        const auto r = run("SHOW JOBS", &m_viewer);
        QCOMPARE(statusOf(r), kSuccess);
        const auto jobs = r["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        QVERIFY(jobs.size() >= 5);
        std::vector<std::string> names;
        for (const auto& job : jobs) {
            names.push_back(job["name"].get<std::string>());
            for (const char* field : {"jobId", "name", "type", "cluster", "parameters", "applicationPath",
                                      "arguments", "sparkConfigs", "hudiConfigs", "hudiConfigsStatus",
                                      "maxConcurrentRuns", "activeRuns", "createdAt", "updatedAt"})
                QVERIFY2(job.contains(field), field);
            // SHOW JOBS writes its jobs as text, DESCRIBE JOB through a DOM: the same object, but for the
            // reasons DESCRIBE JOB adds. Back-quoted: names may hold spaces.
            QString name = QString::fromStdString(job["name"].get<std::string>());
            name.replace(QLatin1Char('`'), QStringLiteral("``"));
            json described = describe(QLatin1Char('`') + name + QLatin1Char('`'), &m_viewer);
            QVERIFY(described.contains("hudiConfigsStatusReasons"));
            described.erase("hudiConfigsStatusReasons");
            QVERIFY2(job == described, (job.dump() + "\n" + described.dump()).c_str());
        }
        QVERIFY(std::is_sorted(names.begin(), names.end()));
    }

    // Each job's summary is SHOW JOBS' job cut down to what the Jobs list shows, in the same order;
    // SHOW JOBS itself is unchanged by it.
    void showJobsSummaryListsEachJobsListedFields() {
        const auto full = run("SHOW JOBS", &m_viewer)["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        const auto r = run("show jobs summary", &m_viewer);
        QCOMPARE(statusOf(r), kSuccess);
        QVERIFY(!r["apiResponse"].contains("showJobsApiResponse"));
        const auto summaries = r["apiResponse"]["showJobsSummaryApiResponse"]["jobs"];
        QCOMPARE(summaries.size(), full.size());
        QVERIFY(full.size() >= 5);
        for (std::size_t i = 0; i < full.size(); ++i) {
            QCOMPARE(summaries[i], json(summaryOf(full[i].get<SparkJob>())));
            QCOMPARE(summaries[i].size(), std::size_t(6));
        }
        // LIMIT: the first by name.
        const auto two = run("SHOW JOBS SUMMARY LIMIT 2", &m_viewer);
        QCOMPARE(statusOf(two), kSuccess);
        QCOMPARE(two["apiResponse"]["showJobsSummaryApiResponse"]["jobs"],
                 json::array({summaries[0], summaries[1]}));
        const auto none = run("SHOW JOBS SUMMARY LIMIT 0", &m_viewer);
        QCOMPARE(statusOf(none), kFailed);
        QCOMPARE(errorOf(none), std::string("LIMIT must be at least 1"));
        QCOMPARE(statusOf(run("SHOW JOBS LIMIT 2", &m_viewer)), kInvalid);
    }

    void viewersOnlyRead() {
        const std::pair<QString, const char*> cases[] = {
            {"CREATE JOB v TYPE = 'JAR' PARAMETERS = ('a.jar') CLUSTER = 'second'", "CREATE JOB"},
            {"ALTER JOB multi SET MAX_CONCURRENT_RUNS = 1", "ALTER JOB"},
            {"DELETE JOB multi", "DELETE JOB"},
            {"RUN JOB multi", "RUN JOB"},
        };
        for (const auto& [statement, action] : cases) {
            const auto r = run(statement, &m_viewer);
            QCOMPARE(statusOf(r), kFailed);
            QCOMPARE(errorOf(r), "Permission denied: viewer cannot " + std::string(action));
        }
        QCOMPARE(statusOf(run("DESCRIBE JOB multi", &m_viewer)), kSuccess);
    }

    void deleteIsRefusedWhileARunIsActive() {
        const QString app = QStringLiteral(JOBDECK_SOURCE_DIR) + "/tests/apps/jobdeck_test_app.py";
        QCOMPARE(
            statusOf(run(QString("CREATE JOB sleeper TYPE = 'PYTHON' PARAMETERS = ('%1', '--sleep', '60') "
                                 "CLUSTER = 'onehouse_cluster_spark'")
                             .arg(app))),
            kSuccess);
        const auto started = run("RUN JOB sleeper");
        QCOMPARE(statusOf(started), kSuccess);
        const std::string runId = started["apiResponse"]["runJobApiResponse"]["jobRunId"].get<std::string>();
        QCOMPARE(describe("sleeper")["activeRuns"].get<int>(), 1);
        // The lists count the run for that job alone, and agree with each other.
        const auto summaries = run("SHOW JOBS SUMMARY")["apiResponse"]["showJobsSummaryApiResponse"]["jobs"];
        const auto jobs = run("SHOW JOBS")["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        QCOMPARE(summaries.size(), jobs.size());
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            QCOMPARE(summaries[i][4], jobs[i]["activeRuns"]);
            if (jobs[i]["name"] == "sleeper")
                QCOMPARE(jobs[i]["activeRuns"].get<int>(), 1);
        }
        auto r = run("DELETE JOB sleeper");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("Job sleeper has 1 active run(s); cancel them or wait for them to finish "
                             "before deleting it"));
        QCOMPARE(statusOf(run(
                     QString("CANCEL JOB_RUN `%1` JOB_NAME = 'sleeper'").arg(QString::fromStdString(runId)))),
                 kSuccess);
        QTRY_COMPARE_WITH_TIMEOUT(describe("sleeper")["activeRuns"].get<int>(), 0, 30000);
        r = run("DELETE JOB sleeper");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(r["apiResponse"]["deleteJobApiResponse"]["name"].get<std::string>(), std::string("sleeper"));
        QCOMPARE(errorOf(run("DESCRIBE JOB sleeper")), std::string("Job sleeper does not exist"));
        QCOMPARE(errorOf(run("DELETE JOB sleeper")), std::string("Job sleeper does not exist"));
        // The name is free again.
        QCOMPARE(statusOf(create("sleeper", "'app.jar'")), kSuccess);
    }

    // DESCRIBE JOB answers are kept until something is committed (service/statements/StatementExecutor):
    // every change must show on the next DESCRIBE, whoever made it.
    void describeShowsEveryChangeAtOnce() {
        QCOMPARE(errorOf(run("DESCRIBE JOB fresh")), std::string("Job fresh does not exist"));
        QCOMPARE(statusOf(create("fresh", "'--class', 'A', 'app.jar'")), kSuccess);
        QCOMPARE(describe("fresh")["maxConcurrentRuns"].get<int>(), 1);
        QCOMPARE(describe("fresh")["maxConcurrentRuns"].get<int>(), 1); // answered again, unchanged
        QCOMPARE(statusOf(alter("fresh", "'--class', 'B', 'app.jar'")), kSuccess);
        QCOMPARE(describe("fresh")["parameters"], json::array({"--class", "B", "app.jar"}));
        // The viewer's key is checked (and cached) before the next change: its next request must
        // still see that change.
        QCOMPARE(describe("fresh", &m_viewer)["maxConcurrentRuns"].get<int>(), 1);
        {
            // Another process (an operator's SQL shell, a second jobdeckd) changes the job.
            ServiceDatabase db(m_service);
            QCOMPARE(db.execute("UPDATE jobs SET max_concurrent_runs = 7 WHERE name = 'fresh'"), 1);
        }
        QCOMPARE(describe("fresh")["maxConcurrentRuns"].get<int>(), 7);
        QCOMPARE(describe("fresh", &m_viewer)["maxConcurrentRuns"].get<int>(), 7);
        QCOMPARE(statusOf(run("DELETE JOB fresh")), kSuccess);
        QCOMPARE(errorOf(run("DESCRIBE JOB fresh")), std::string("Job fresh does not exist"));
    }

    void jobChangesArePublishedAsEvents() {
        const auto before =
            request(m_service.url("/v1/events", "after=0&wait=0"), "GET", {}, m_viewer.headers());
        QCOMPARE(before.status, 200);
        const std::int64_t after = before.json()["next"].get<std::int64_t>();
        QCOMPARE(statusOf(create("evented", "'app.jar'")), kSuccess);
        QCOMPARE(statusOf(alter("evented", "'b.jar'")), kSuccess);
        QCOMPARE(statusOf(run("DELETE JOB evented")), kSuccess);
        QCOMPARE(statusOf(create("evented", "'app.jar', 'x'", "MAX_CONCURRENT_RUNS = 5")),
                 kFailed); // no event
        const auto r = request(m_service.url("/v1/events", QString("after=%1&wait=5").arg(after)), "GET", {},
                               m_viewer.headers());
        QCOMPARE(r.status, 200);
        std::vector<std::string> types;
        const json body = r.json();
        for (const auto& event : body["events"])
            if (event["jobName"] == "evented")
                types.push_back(event["type"].get<std::string>());
        QCOMPARE(types, (std::vector<std::string>{"JOB_CREATED", "JOB_ALTERED", "JOB_DELETED"}));
    }

    void anAcknowledgedCreateSurvivesKill9() {
        QCOMPARE(statusOf(create("durable", "'app.jar'")), kSuccess);
        m_service.kill9();
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QCOMPARE(statusOf(run("DESCRIBE JOB durable")), kSuccess);
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
