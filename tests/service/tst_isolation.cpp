// Two projects on one jobdeckd: names, settings, requests, audit and events of one are invisible to the
// other.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

class TestIsolation final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_a;
    ApiCredentials m_b;

    json run(const ApiCredentials& who, const QString& statement) {
        return runStatement(m_service, who, statement);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_a = m_service.createKey("project-a", "admin");
        m_b = m_service.createKey("project-b", "admin");
        QVERIFY(m_a.isValid() && m_b.isValid());
        QVERIFY(m_a.projectUid != m_b.projectUid);
        QCOMPARE(statusOf(run(m_a, "CREATE CLUSTER shared_name TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 0")),
                 kSuccess);
        QCOMPARE(statusOf(run(m_a, "CREATE JOB only_a TYPE = 'JAR' PARAMETERS = ('--class', 'A', 'a.jar') "
                                   "CLUSTER = 'shared_name'")),
                 kSuccess);
    }

    void anotherProjectsJobIsNotFoundExactlyLikeAMissingOne() {
        const auto theirs = run(m_b, "DESCRIBE JOB only_a");
        const auto missing = run(m_b, "DESCRIBE JOB never_existed");
        QCOMPARE(statusOf(theirs), kFailed);
        QCOMPARE(errorOf(theirs), std::string("Job only_a does not exist"));
        QCOMPARE(errorOf(missing), std::string("Job never_existed does not exist"));
        for (const char* statement : {"ALTER JOB only_a SET MAX_CONCURRENT_RUNS = 1", "DELETE JOB only_a"}) {
            const auto r = run(m_b, statement);
            QCOMPARE(statusOf(r), kFailed);
            QCOMPARE(errorOf(r), std::string("Job only_a does not exist"));
        }
        const auto jobs = run(m_b, "SHOW JOBS")["apiResponse"]["showJobsApiResponse"]["sparkJobs"];
        QVERIFY(jobs.is_array());
        QCOMPARE(jobs.size(), std::size_t(0));
        // Still there for its own project.
        QCOMPARE(statusOf(run(m_a, "DESCRIBE JOB only_a")), kSuccess);
    }

    void anotherProjectsClusterIsNotFoundAndItsNameIsFree() {
        auto r = run(m_b, "DESCRIBE CLUSTER shared_name");
        QCOMPARE(errorOf(r), std::string("Cluster shared_name does not exist"));
        r = run(
            m_b,
            "CREATE JOB uses_a TYPE = 'JAR' PARAMETERS = ('--class', 'B', 'b.jar') CLUSTER = 'shared_name'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Cluster shared_name does not exist"));
        QCOMPARE(statusOf(run(m_b, "DELETE CLUSTER shared_name")), kFailed);
        // Names are per project: B can have its own cluster and job with A's names.
        QCOMPARE(statusOf(run(m_b, "CREATE CLUSTER shared_name TYPE = 'Spark' MAX_OCU = 9 MIN_OCU = 0")),
                 kSuccess);
        QCOMPARE(statusOf(run(
                     m_b, "CREATE JOB only_a TYPE = 'PYTHON' PARAMETERS = ('b.py') CLUSTER = 'shared_name'")),
                 kSuccess);
        const auto bJob =
            run(m_b, "DESCRIBE JOB only_a")["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        const auto aJob =
            run(m_a, "DESCRIBE JOB only_a")["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        QCOMPARE(bJob["type"].get<std::string>(), std::string("PYTHON"));
        QCOMPARE(aJob["type"].get<std::string>(), std::string("JAR"));
        QVERIFY(bJob["jobId"] != aJob["jobId"]);
        const auto aCluster =
            run(m_a, "DESCRIBE CLUSTER shared_name")["apiResponse"]["describeClusterApiResponse"];
        QCOMPARE(aCluster["cluster"]["maxOcu"].get<int>(), 2);
        // Deleting B's changes nothing for A.
        QCOMPARE(statusOf(run(m_b, "DELETE JOB only_a")), kSuccess);
        QCOMPARE(statusOf(run(m_b, "DELETE CLUSTER shared_name")), kSuccess);
        QCOMPARE(statusOf(run(m_a, "DESCRIBE JOB only_a")), kSuccess);
        QCOMPARE(statusOf(run(m_a, "DESCRIBE CLUSTER shared_name")), kSuccess);
    }

    void settingsArePerProject() {
        QCOMPARE(statusOf(run(m_a, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED")), kSuccess);
        QCOMPARE(
            statusOf(run(m_a, "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')")),
            kSuccess);
        const auto b = run(m_b, "DESCRIBE PROJECT")["apiResponse"]["describeProjectApiResponse"]["project"];
        QCOMPARE(b["projectUid"].get<std::string>(), m_b.projectUid.toStdString());
        QCOMPARE(b["name"].get<std::string>(), std::string("project-b"));
        QCOMPARE(b["settings"]["hudiConfigs"].get<std::string>(), std::string("DISABLED"));
        QCOMPARE(b["settings"]["hudiConfigAllowlist"].size(), std::size_t(0));
        // So B cannot use what A was granted.
        const auto r = run(m_b, "CREATE CLUSTER bc TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(statusOf(r), kSuccess);
        const auto refused =
            run(m_b, "CREATE JOB hj TYPE = 'JAR' PARAMETERS = ('--hudi-conf', "
                     "'hoodie.datasource.meta.sync.glue.catalogId=1', 'a.jar') CLUSTER = 'bc'");
        QCOMPARE(statusOf(refused), kFailed);
        QCOMPARE(errorOf(refused),
                 std::string("--hudi-conf is not enabled for this organization. Remove the "
                             "--hudi-conf parameters, or contact Onehouse support to enable Hudi "
                             "config overrides on Spark jobs."));
    }

    void requestStatusesAndAuditAreOwnProjectOnly() {
        const auto mine = run(m_a, "SHOW JOBS");
        const std::string requestId = mine.value("requestId", std::string());
        QVERIFY(!requestId.empty());
        const auto own = request(m_service.url("/v1/status/" + QString::fromStdString(requestId)), "GET", {},
                                 m_a.headers());
        QCOMPARE(own.status, 200);
        const auto other = request(m_service.url("/v1/status/" + QString::fromStdString(requestId)), "GET",
                                   {}, m_b.headers());
        QCOMPARE(other.status, 404);

        const auto audit = run(m_b, "SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"];
        QVERIFY(audit["auditEntries"].is_array());
        QVERIFY(!audit["auditEntries"].empty());
        for (const auto& entry : audit["auditEntries"]) {
            QCOMPARE(entry["projectUid"].get<std::string>(), m_b.projectUid.toStdString());
            QVERIFY(entry["requestId"].get<std::string>() != requestId);
        }
    }

    void eventsArePerProject() {
        // B created and deleted its own only_a; A only created its one. Neither sees the other's events.
        const auto countOf = [&](const ApiCredentials& who, const char* type) {
            const auto r = request(m_service.url("/v1/events", "after=0&wait=0"), "GET", {}, who.headers());
            int n = -1000;
            if (r.status == 200) {
                n = 0;
                const json body = r.json();
                for (const auto& event : body["events"])
                    n += event["type"] == type && event["jobName"] == "only_a";
            }
            return n;
        };
        QCOMPARE(countOf(m_a, "JOB_CREATED"), 1);
        QCOMPARE(countOf(m_a, "JOB_DELETED"), 0);
        QCOMPARE(countOf(m_b, "JOB_CREATED"), 1);
        QCOMPARE(countOf(m_b, "JOB_DELETED"), 1);
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestIsolation)
#include "tst_isolation.moc"
