// Idempotency-Key on writes other than RUN JOB, as callers with different API keys and roles send it
// (docs/wire-format.md, "Writes sent twice"): a replay is only for the same key, the same API key and the
// same statement; a refused or failed write leaves its key free; anything else with a used key is the
// one conflict refusal of core. Through the real jobdeckd, on both backends.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

namespace {

HttpHeaders withKey(const QByteArray& key) {
    return {{"Idempotency-Key", key}};
}

// core writeKeyConflictMessage, as docs/wire-format.md gives it.
std::string conflict(const std::string& key) {
    return "Idempotency-Key " + key +
           " was already used in the last 10 minutes with a different statement or another API key; send a "
           "new key for a new statement.";
}

} // namespace

class TestWriteKeys final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiCredentials m_viewer;

    json send(const ApiCredentials& who, const QString& statement, const QByteArray& key) {
        return runStatement(m_service, who, statement, withKey(key));
    }
    static QString createJob(const QString& name) {
        return "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = ( '/apps/" + name +
               ".py' ) CLUSTER = 'c'";
    }
    bool jobExists(const QString& name) {
        return statusOf(runStatement(m_service, m_viewer, "DESCRIBE JOB " + name)) == kSuccess;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("keys", "admin");
        m_operator = m_service.createKey("keys", "operator");
        m_viewer = m_service.createKey("keys", "viewer");
        QVERIFY(m_admin.isValid() && m_operator.isValid() && m_viewer.isValid());
        QVERIFY(
            statementSucceeds(m_service, m_admin, "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 0"));
    }

    // A viewer's refused DELETE with key K must not answer the admin's DELETE with K.
    void aRefusedWriteLeavesItsKeyFree() {
        QVERIFY(statementSucceeds(m_service, m_admin, createJob("doomed")));
        const auto refused = send(m_viewer, "DELETE JOB doomed", "k-delete");
        QCOMPARE(statusOf(refused), kFailed);
        QCOMPARE(errorOf(refused), std::string("Permission denied: viewer cannot DELETE JOB"));
        const auto deleted = send(m_admin, "DELETE JOB doomed", "k-delete");
        QCOMPARE(statusOf(deleted), kSuccess);
        QVERIFY(deleted.at("requestId") != refused.at("requestId"));
        QVERIFY(!jobExists("doomed"));
    }

    // The admin's answer is the admin's: another API key never gets it, whatever its role.
    void anotherCallerCannotReplayAKey() {
        const QString statement = createJob("shared");
        const auto first = send(m_admin, statement, "k-create");
        QCOMPARE(statusOf(first), kSuccess);
        // A viewer repeating it is refused for its role, not handed the admin's SUCCESS.
        const auto byViewer = send(m_viewer, statement, "k-create");
        QCOMPARE(statusOf(byViewer), kFailed);
        QCOMPARE(errorOf(byViewer), std::string("Permission denied: viewer cannot CREATE JOB"));
        // An operator may send the statement, but the key is the admin's: the conflict refusal.
        const auto byOperator = send(m_operator, statement, "k-create");
        QCOMPARE(byOperator.value("httpStatus", 0), 400);
        QCOMPARE(json::parse(byOperator.value("body", std::string("{}"))).value("error", std::string()),
                 conflict("k-create"));
        // The same key, caller and statement: the first answer, request id included.
        QCOMPARE(send(m_admin, statement, "k-create"), first);
        // The same caller with another statement: the same refusal.
        const auto other = send(m_admin, createJob("shared2"), "k-create");
        QCOMPARE(other.value("httpStatus", 0), 400);
        QVERIFY(!jobExists("shared2"));
    }

    // A write that failed changed nothing: sent again with its key once what stood in the way is gone, it
    // runs.
    void aFailedWriteIsNotRemembered() {
        const auto missing = send(m_operator, "DELETE JOB later", "k-later");
        QCOMPARE(statusOf(missing), kFailed);
        QVERIFY(statementSucceeds(m_service, m_operator, createJob("later")));
        const auto deleted = send(m_operator, "DELETE JOB later", "k-later");
        QCOMPARE(statusOf(deleted), kSuccess);
        QVERIFY(!jobExists("later"));
    }

    // Recorded in the database with the caller: after a restart the same rules hold.
    void keysKeepTheirCallerAcrossARestart() {
        const QString statement = "CREATE CLUSTER kept TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0";
        const auto first = send(m_operator, statement, "k-kept");
        QCOMPARE(statusOf(first), kSuccess);
        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        const auto byAdmin = send(m_admin, statement, "k-kept");
        QCOMPARE(byAdmin.value("httpStatus", 0), 400);
        QCOMPARE(json::parse(byAdmin.value("body", std::string("{}"))).value("error", std::string()),
                 conflict("k-kept"));
        QCOMPARE(send(m_operator, statement, "k-kept"), first);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestWriteKeys)
#include "tst_writekeys.moc"
