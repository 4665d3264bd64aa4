// Every statement leaves an audit entry (who, what, outcome, request id, client headers), secrets masked.
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using json = nlohmann::json;

namespace {

const std::string kSuccess = "API_OPERATION_STATUS_SUCCESS";
const std::string kFailed = "API_OPERATION_STATUS_FAILED";
const std::string kInvalid = "API_OPERATION_STATUS_INVALID";

std::string statusOf(const json& s) {
    return s.value("apiStatus", s.dump());
}

} // namespace

class TestAudit final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials* who = nullptr, const HttpHeaders& headers = {}) {
        return runStatement(m_service, who ? *who : m_admin, statement, headers);
    }

    // The audit entry of one request, found through SHOW AUDIT_LOG.
    json entryFor(const json& status) {
        const std::string requestId = status.value("requestId", std::string());
        const auto entries =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        for (const auto& entry : entries)
            if (entry.value("requestId", std::string()) == requestId)
                return entry;
        return json();
    }

    // The whole audit log as text, and the service's log: neither may hold a secret.
    void verifyNowhere(const std::string& secret) {
        const auto log = run("SHOW AUDIT_LOG LIMIT 1000");
        QVERIFY2(log.dump().find(secret) == std::string::npos, (secret + " in " + log.dump()).c_str());
        QVERIFY2(!m_service.errorOutput().contains(QString::fromStdString(secret)),
                 "secret in the service log");
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("audited", "admin");
        m_viewer = m_service.createKey("audited", "viewer");
        QVERIFY(m_admin.isValid() && m_viewer.isValid());
        QCOMPARE(statusOf(run("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
    }

    void recordsWhoWhatAndTheOutcome() {
        const HttpHeaders headers = {{"x-onehouse-account-uid", "acct-1"},
                                     {"x-onehouse-link-uid", "link-2"},
                                     {"x-onehouse-region", "us-west-2"},
                                     {"x-onehouse-uuid", "uuid-3"}};
        const auto status = run("show   clusters", &m_viewer, headers);
        QCOMPARE(statusOf(status), kSuccess);
        const auto entry = entryFor(status);
        QVERIFY2(entry.is_object(), status.dump().c_str());
        QCOMPARE(entry["projectUid"].get<std::string>(), m_viewer.projectUid.toStdString());
        QCOMPARE(entry["keyId"].get<std::string>(), m_viewer.apiKey.toStdString());
        QCOMPARE(entry["role"].get<std::string>(), std::string("viewer"));
        QCOMPARE(entry["statement"].get<std::string>(), std::string("SHOW CLUSTERS")); // canonical text
        QCOMPARE(entry["outcome"].get<std::string>(), kSuccess);
        QVERIFY(entry["errorMessage"].is_null());
        QCOMPARE(entry["headers"], json({{"x-onehouse-account-uid", "acct-1"},
                                         {"x-onehouse-link-uid", "link-2"},
                                         {"x-onehouse-region", "us-west-2"},
                                         {"x-onehouse-uuid", "uuid-3"}}));
        QVERIFY(!entry["at"].get<std::string>().empty());
        // The key's secret is never recorded.
        QVERIFY(entry.dump().find(m_viewer.apiSecret.toStdString()) == std::string::npos);
    }

    void recordsRefusalsAndInvalidStatements() {
        const auto denied = run("DELETE CLUSTER c", &m_viewer);
        QCOMPARE(statusOf(denied), kFailed);
        auto entry = entryFor(denied);
        QCOMPARE(entry["outcome"].get<std::string>(), kFailed);
        QCOMPARE(entry["errorMessage"].get<std::string>(),
                 std::string("Permission denied: viewer cannot DELETE CLUSTER"));

        const auto missing = run("DESCRIBE JOB nope");
        entry = entryFor(missing);
        QCOMPARE(entry["outcome"].get<std::string>(), kFailed);
        QCOMPARE(entry["errorMessage"].get<std::string>(), std::string("Job nope does not exist"));

        const auto invalid = run("CREATE JOBS x");
        QCOMPARE(statusOf(invalid), kInvalid);
        entry = entryFor(invalid);
        QCOMPARE(entry["outcome"].get<std::string>(), kInvalid);
        QCOMPARE(entry["errorMessage"].get<std::string>(), invalid["errorMessage"].get<std::string>());
        QCOMPARE(entry["statement"].get<std::string>(), std::string("CREATE JOBS x"));
    }

    void masksSecretParametersOfJobs() {
        const auto created = run("CREATE JOB sj TYPE = 'JAR' PARAMETERS = ('--class', 'X', '--conf', "
                                 "'spark.hadoop.fs.s3a.secret.key=S3CR3T-conf', 'app.jar', '--db-password', "
                                 "'S3CR3T-arg', '--api-token=S3CR3T-inline') CLUSTER = 'c'");
        QCOMPARE(statusOf(created), kSuccess);
        const auto statement = entryFor(created)["statement"].get<std::string>();
        QVERIFY2(statement.find("spark.hadoop.fs.s3a.secret.key=****") != std::string::npos,
                 statement.c_str());
        QVERIFY2(statement.find("'--db-password', '****'") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("--api-token=****") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--class', 'X'") != std::string::npos, statement.c_str());

        const auto altered =
            run("ALTER JOB sj SET PARAMETERS = ('--class', 'X', 'app.jar', '--db-password', 'S3CR3T-new')");
        QCOMPARE(statusOf(altered), kSuccess);
        QVERIFY(entryFor(altered)["statement"].get<std::string>().find("'****'") != std::string::npos);
        for (const char* secret : {"S3CR3T-conf", "S3CR3T-arg", "S3CR3T-inline", "S3CR3T-new"})
            verifyNowhere(secret);
    }

    void masksSecretClusterConfigsAndRunOverrides() {
        const auto cluster = run("CREATE CLUSTER sc TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0 WITH "
                                 "'spark.hadoop.fs.s3a.secret.key' = 'S3CR3T-cluster'");
        QCOMPARE(statusOf(cluster), kSuccess);
        QVERIFY(entryFor(cluster)["statement"].get<std::string>().find("'****'") != std::string::npos);
        const auto altered = run("ALTER CLUSTER sc WITH 'hoodie.x.credential' = 'S3CR3T-cluster2'");
        QCOMPARE(statusOf(altered), kSuccess);
        // Whatever the run statement's outcome, its overrides are masked in the audit log.
        const auto runJob =
            run("RUN JOB sj ARGUMENTS = ('--db-password' = 'S3CR3T-run', '--date' = '2026-01-01')");
        QVERIFY(runJob.contains("apiStatus"));
        const auto statement = entryFor(runJob)["statement"].get<std::string>();
        QVERIFY2(statement.find("'--db-password' = '****'") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--date' = '2026-01-01'") != std::string::npos, statement.c_str());
        for (const char* secret : {"S3CR3T-cluster", "S3CR3T-cluster2", "S3CR3T-run"})
            verifyNowhere(secret);
    }

    void masksSecretsInStatementsThatDoNotParse() {
        const auto broken =
            run("CREATE JOB broken TYPE = 'JAR' PARAMETERS = ('--conf', "
                "'spark.x.password=S3CR3T-broken1', '--api-token', 'S3CR3T-broken2' CLUSTER 'c'");
        QCOMPARE(statusOf(broken), kInvalid);
        // The parser's message names the token it stopped after: a secret there is masked as well.
        const std::string message = broken.value("errorMessage", std::string());
        QVERIFY2(message.find("S3CR3T") == std::string::npos, message.c_str());
        QVERIFY2(message.find("'****'") != std::string::npos, message.c_str());
        const auto statement = entryFor(broken)["statement"].get<std::string>();
        QVERIFY2(statement.find("spark.x.password=****") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--api-token', '****'") != std::string::npos, statement.c_str());
        const auto bare = run("ALTER CLUSTER x WITH db.password=S3CR3T-bare");
        QCOMPARE(statusOf(bare), kInvalid);
        QVERIFY(entryFor(bare)["statement"].get<std::string>().find("db.password=****") != std::string::npos);
        const auto unterminated = run("CREATE JOB u TYPE = 'JAR' PARAMETERS = ('--password', 'S3CR3T-open");
        QCOMPARE(statusOf(unterminated), kInvalid);
        for (const char* secret : {"S3CR3T-broken1", "S3CR3T-broken2", "S3CR3T-bare", "S3CR3T-open"})
            verifyNowhere(secret);
    }

    void auditSurvivesKill9() {
        const auto before =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        m_service.kill9(); // each entry was committed before its statement was answered
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        const auto after =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        // The one SHOW AUDIT_LOG in between was recorded after its own answer.
        QCOMPARE(after.size(), before.size() + 1);
        QCOMPARE(after[1], before[0]);
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

QTEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
