// DESCRIBE PROJECT, ALTER PROJECT (switches, limits, allow-list) and SHOW AUDIT_LOG through the real
// jobdeckd.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

class TestProject final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials* who = nullptr) {
        return runStatement(m_service, who ? *who : m_admin, statement);
    }
    json settings() {
        return run("DESCRIBE PROJECT")["apiResponse"]["describeProjectApiResponse"]["project"]["settings"];
    }
    json allowlist() { return settings()["hudiConfigAllowlist"]; }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("proj", "admin");
        m_operator = m_service.createKey("proj", "operator");
        m_viewer = m_service.createKey("proj", "viewer");
        QVERIFY(m_admin.isValid() && m_operator.isValid() && m_viewer.isValid());
        QCOMPARE(statusOf(run("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 0")), kSuccess);
    }

    void describesTheProjectWithDefaults() {
        const auto r = run("DESCRIBE PROJECT", &m_viewer);
        QCOMPARE(statusOf(r), kSuccess);
        const auto project = r["apiResponse"]["describeProjectApiResponse"]["project"];
        QCOMPARE(project["projectUid"].get<std::string>(), m_viewer.projectUid.toStdString());
        QCOMPARE(project["name"].get<std::string>(), std::string("proj"));
        QCOMPARE(project["settings"], json({{"hudiConfigs", "DISABLED"},
                                            {"hudiConfigAllowlist", json::array()},
                                            {"concurrentRuns", "DISABLED"},
                                            {"maxConcurrentRunsLimit", 1}}));
        // The audit log is for admins only.
        QVERIFY(!project.contains("recentAudit"));
        const auto forOperator = run("DESCRIBE PROJECT", &m_operator);
        QVERIFY(!forOperator["apiResponse"]["describeProjectApiResponse"]["project"].contains("recentAudit"));
        // Each caller is told its own role.
        QCOMPARE(project["callerRole"].get<std::string>(), std::string("viewer"));
        QCOMPARE(forOperator["apiResponse"]["describeProjectApiResponse"]["project"]["callerRole"]
                     .get<std::string>(),
                 std::string("operator"));
    }

    void adminsSeeRecentAuditInDescribeProject() {
        run("SHOW CLUSTERS", &m_viewer);
        const auto project = run("DESCRIBE PROJECT")["apiResponse"]["describeProjectApiResponse"]["project"];
        QVERIFY(project["recentAudit"].is_array());
        QVERIFY(!project["recentAudit"].empty());
        QVERIFY(project["recentAudit"].size() <= 20);
        // Newest first: the SHOW CLUSTERS just run.
        QCOMPARE(project["recentAudit"][0]["statement"].get<std::string>(), std::string("SHOW CLUSTERS"));
        QCOMPARE(project["recentAudit"][0]["role"].get<std::string>(), std::string("viewer"));
    }

    void onlyAdminsAlterTheProjectOrReadTheAuditLog() {
        for (const auto* who : {&m_operator, &m_viewer}) {
            const std::string role = who->role.toStdString();
            for (const char* statement :
                 {"ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                  "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 9",
                  "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.a.')"}) {
                const auto r = run(statement, who);
                QCOMPARE(statusOf(r), kFailed);
                QCOMPARE(errorOf(r), "Permission denied: " + role + " cannot ALTER PROJECT");
            }
            const auto r = run("SHOW AUDIT_LOG", who);
            QCOMPARE(statusOf(r), kFailed);
            QCOMPARE(errorOf(r), "Permission denied: " + role + " cannot SHOW AUDIT_LOG");
        }
        QCOMPARE(settings()["hudiConfigs"].get<std::string>(), std::string("DISABLED"));
        QCOMPARE(allowlist().size(), std::size_t(0));
    }

    void switchesHudiConfigs() {
        auto r = run("ALTER PROJECT SET HUDI_CONFIGS = ENABLED");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(r["apiResponse"]["alterProjectApiResponse"]["settings"]["hudiConfigs"].get<std::string>(),
                 std::string("ENABLED"));
        QCOMPARE(settings()["hudiConfigs"].get<std::string>(), std::string("ENABLED"));
        QCOMPARE(statusOf(run("ALTER PROJECT SET HUDI_CONFIGS = DISABLED")), kSuccess);
        QCOMPARE(settings()["hudiConfigs"].get<std::string>(), std::string("DISABLED"));
    }

    void concurrentRunsSwitchAndLimitGovernMaxConcurrentRuns() {
        const QString create =
            "CREATE JOB %1 TYPE = 'JAR' PARAMETERS = ('--class', 'X', 'x.jar') CLUSTER = 'c' "
            "MAX_CONCURRENT_RUNS = %2";
        auto r = run(create.arg("j2").arg(2), &m_operator);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("MAX_CONCURRENT_RUNS above 1 needs concurrent runs, which are not enabled "
                             "for this project. Contact Onehouse support to enable them."));
        QCOMPARE(statusOf(run(create.arg("j1").arg(1), &m_operator)), kSuccess);

        QCOMPARE(statusOf(run("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 3")),
                 kSuccess);
        QCOMPARE(settings()["concurrentRuns"].get<std::string>(), std::string("ENABLED"));
        QCOMPARE(settings()["maxConcurrentRunsLimit"].get<int>(), 3);
        QCOMPARE(statusOf(run(create.arg("j3").arg(3), &m_operator)), kSuccess);
        r = run(create.arg("j4").arg(4), &m_operator);
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("MAX_CONCURRENT_RUNS 4 is above this project's limit of 3. Contact Onehouse "
                             "support to raise it."));
        r = run("ALTER JOB j1 SET MAX_CONCURRENT_RUNS = 4", &m_operator);
        QCOMPARE(errorOf(r),
                 std::string("MAX_CONCURRENT_RUNS 4 is above this project's limit of 3. Contact Onehouse "
                             "support to raise it."));
        QCOMPARE(statusOf(run("ALTER JOB j1 SET MAX_CONCURRENT_RUNS = 2", &m_operator)), kSuccess);

        r = run(create.arg("j0").arg(0), &m_operator);
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MAX_CONCURRENT_RUNS must be between 1 and 1000, got 0"));

        r = run("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 0");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MAX_CONCURRENT_RUNS_LIMIT must be between 1 and 1000, got 0"));
        QCOMPARE(settings()["maxConcurrentRunsLimit"].get<int>(), 3);

        // Switching off keeps jobs as they are (they are not edited behind the user's back) but refuses new
        // ones.
        QCOMPARE(statusOf(run("ALTER PROJECT SET CONCURRENT_RUNS = DISABLED")), kSuccess);
        const auto j3 = run("DESCRIBE JOB j3")["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        QCOMPARE(j3["maxConcurrentRuns"].get<int>(), 3);
        QCOMPARE(statusOf(run("ALTER JOB j3 SET MAX_CONCURRENT_RUNS = 2", &m_operator)), kFailed);
        QCOMPARE(statusOf(run("ALTER JOB j3 SET MAX_CONCURRENT_RUNS = 1", &m_operator)), kSuccess);
        // Other clauses of an ALTER do not trip over the job's existing value.
        QCOMPARE(statusOf(run("ALTER JOB j1 SET CLUSTER = 'c'", &m_operator)), kSuccess);
    }

    void allowlistAcceptsKeysAndFamilies() {
        auto r = run("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.', "
                     "'hoodie.datasource.write.operation')");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(allowlist(), json({"hoodie.datasource.meta.sync.", "hoodie.datasource.write.operation"}));
        // Adding what is there already is a no-op.
        QCOMPARE(
            statusOf(run("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation')")),
            kSuccess);
        QCOMPARE(allowlist().size(), std::size_t(2));
        // A family wider than a reserved one is accepted (it never covers the reserved keys).
        QCOMPARE(statusOf(run("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.write.')")), kSuccess);
        QCOMPARE(allowlist().size(), std::size_t(3));
    }

    void allowlistRefusesReservedKeysAndFamiliesInsideThem() {
        const auto before = allowlist();
        for (const char* entry :
             {"hoodie.write.lock.provider", "hoodie.write.lock.", "hoodie.write.concurrency.mode",
              "hoodie.write.concurrency.", "hoodie.metrics.on", "hoodie.metrics.",
              "hoodie.write.config.freeze", "hoodie.cleaner.policy.failed.writes",
              "hoodie.clean.failed.writes.policy", "hoodie.metrics.datadog."}) {
            const auto r =
                run(QString("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.ok.key', '%1')").arg(entry));
            QCOMPARE(statusOf(r), kFailed);
            QVERIFY2(errorOf(r).find(entry) != std::string::npos, errorOf(r).c_str());
        }
        // A refused statement changes nothing, not even its acceptable entries.
        QCOMPARE(allowlist(), before);
    }

    void removingEntries() {
        auto r = run("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.write.')");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(allowlist(), json({"hoodie.datasource.meta.sync.", "hoodie.datasource.write.operation"}));
        // An entry that is not there: refused, and nothing of the statement is applied.
        r = run("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation', "
                "'hoodie.datasource.meta.sync')");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(
            errorOf(r),
            std::string(
                "HUDI_CONFIG_ALLOWLIST has no entry 'hoodie.datasource.meta.sync'; nothing was removed"));
        QCOMPARE(allowlist().size(), std::size_t(2));
    }

    void showsTheAuditLogNewestFirst() {
        run("SHOW JOBS", &m_operator);
        auto r = run("SHOW AUDIT_LOG LIMIT 2");
        QCOMPARE(statusOf(r), kSuccess);
        const auto entries = r["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        QCOMPARE(entries.size(), std::size_t(2));
        QVERIFY(entries[0]["seq"].get<std::int64_t>() > entries[1]["seq"].get<std::int64_t>());
        QCOMPARE(entries[0]["statement"].get<std::string>(), std::string("SHOW JOBS"));
        QCOMPARE(entries[0]["role"].get<std::string>(), std::string("operator"));
        const auto all = run("SHOW AUDIT_LOG")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        QVERIFY(all.size() > 10);
        r = run("SHOW AUDIT_LOG LIMIT 0");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("LIMIT must be between 1 and 1000, got 0"));
        r = run("SHOW AUDIT_LOG LIMIT 1001");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("LIMIT must be between 1 and 1000, got 1001"));
    }

    void settingsSurviveKill9() {
        m_service.kill9();
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        const auto s = settings();
        QCOMPARE(s["hudiConfigAllowlist"].size(), std::size_t(2));
        QCOMPARE(s["maxConcurrentRunsLimit"].get<int>(), 3);
        QCOMPARE(s["concurrentRuns"].get<std::string>(), std::string("DISABLED"));
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
