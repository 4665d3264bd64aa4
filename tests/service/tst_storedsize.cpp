// What one request may store (issue 27 item 10): the audit keeps at most the first 8 KiB of a
// statement (with a note of how much was cut), error messages never echo a long name, and names
// over 256 characters are refused with a clear message before anything is stored. Both backends.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

namespace {

constexpr std::size_t kAuditedStatementLimit = 8 * 1024;
// What an entry may hold besides the kept text: the note of how much was cut.
constexpr std::size_t kNoteAllowance = 200;

QString repeated(char c, int count) {
    return QString(count, QLatin1Char(c));
}

} // namespace

class TestStoredSize final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiCredentials m_viewer;

    // Bytes the audit and the stored statuses hold for the project, as the database counts them.
    qint64 storedBytes() {
        ServiceDatabase db(m_service);
        const auto audit =
            db.rows("SELECT COALESCE(SUM(LENGTH(statement) + COALESCE(LENGTH(error_message), 0)), 0) "
                    "FROM audit");
        const auto statuses = db.rows("SELECT COALESCE(SUM(LENGTH(status)), 0) FROM requests");
        if (!audit || !statuses) {
            qWarning() << "cannot read the database:" << db.lastError();
            return -1;
        }
        return audit->front().front().toLongLong() + statuses->front().front().toLongLong();
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("sizes"), QStringLiteral("admin"));
        m_operator = m_service.createKey(QStringLiteral("sizes"), QStringLiteral("operator"));
        m_viewer = m_service.createKey(QStringLiteral("sizes"), QStringLiteral("viewer"));
        QVERIFY(m_admin.isValid() && m_operator.isValid() && m_viewer.isValid());
        QVERIFY(statementSucceeds(
            m_service, m_admin, QStringLiteral("CREATE CLUSTER c1 TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")));
    }

    // 900 KB statements from a viewer and an operator: each answer is whole, and what is stored for
    // them stays within a few KiB each, read through SHOW AUDIT_LOG and counted in the database.
    void bigStatementsStoreLittle() {
        const qint64 before = storedBytes();
        QVERIFY(before >= 0);
        const QString filler = repeated('x', 900 * 1000);
        const json unparsable = runStatement(m_service, m_viewer, "SHOW JOBS " + filler);
        const json describe = runStatement(m_service, m_viewer, "DESCRIBE JOB " + filler);
        const json create =
            runStatement(m_service, m_operator,
                         "CREATE JOB big TYPE = 'JAR' PARAMETERS = ('" + filler + "') CLUSTER = 'missing'");

        const json log = runStatement(m_service, m_admin, QStringLiteral("SHOW AUDIT_LOG LIMIT 4"));
        QCOMPARE(statusOf(log), kSuccess);
        const json entries = log["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        QCOMPARE(entries.size(), std::size_t(4)); // the three, and initTestCase's CREATE CLUSTER
        int cut = 0;
        for (const json& entry : entries) {
            const std::string statement = entry.value("statement", std::string());
            QVERIFY2(statement.size() <= kAuditedStatementLimit + kNoteAllowance,
                     qPrintable(
                         QStringLiteral("an audit entry keeps %1 bytes of statement").arg(statement.size())));
            const json error = entry.value("errorMessage", json());
            QVERIFY(!error.is_string() ||
                    error.get<std::string>().size() <= kAuditedStatementLimit + kNoteAllowance);
            // The note says how much of the statement was not kept.
            if (statement.find("bytes cut") != std::string::npos)
                ++cut;
        }
        QCOMPARE(cut, 3);
        const qint64 added = storedBytes() - before;
        // Three 900 KB statements: generously bounded at 64 KiB (three capped texts, statuses, notes).
        QVERIFY2(added < 64 * 1024,
                 qPrintable(QStringLiteral("the three requests stored %1 bytes").arg(added)));

        QCOMPARE(statusOf(unparsable), kInvalid);
        QCOMPARE(statusOf(describe), kInvalid); // the name is too long
        QCOMPARE(statusOf(create), kFailed);    // no such cluster
        for (const json* answer : {&unparsable, &describe, &create})
            QVERIFY2(errorOf(*answer).size() < 1000, errorOf(*answer).substr(0, 300).c_str());
    }

    // An error message that echoes a 900 KB input (a cluster configuration key here) is answered
    // whole, and stored cut as the audit's text is: in the status kept for GET /v1/status and in the
    // audit entry.
    void anErrorThatEchoesInputIsStoredCut() {
        const std::string key(900 * 1000, 'k');
        const json answer = runStatement(m_service, m_operator,
                                         "CREATE CLUSTER c9 TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH '" +
                                             QString::fromStdString(key) + "' = '1'");
        QCOMPARE(statusOf(answer), kFailed);
        QVERIFY2(errorOf(answer).find(key) != std::string::npos, errorOf(answer).substr(0, 200).c_str());
        const QString requestId = QString::fromStdString(answer.value("requestId", std::string()));
        QVERIFY(!requestId.isEmpty());
        ServiceDatabase db(m_service);
        QTRY_VERIFY_WITH_TIMEOUT(db.rows("SELECT LENGTH(status) FROM requests WHERE request_id = ? AND "
                                         "status NOT LIKE '%PENDING%'",
                                         {requestId})
                                         .value_or(QList<QStringList>{})
                                         .size() == 1,
                                 10000);
        const auto stored = db.rows("SELECT LENGTH(status) FROM requests WHERE request_id = ?", {requestId});
        QVERIFY2(stored && stored->size() == 1, qPrintable(db.lastError()));
        const qint64 statusBytes = stored->front().front().toLongLong();
        QVERIFY2(statusBytes <= qint64(kAuditedStatementLimit + 2 * kNoteAllowance),
                 qPrintable(QStringLiteral("the stored status holds %1 bytes").arg(statusBytes)));
        const auto audit =
            db.rows("SELECT LENGTH(error_message) FROM audit WHERE request_id = ?", {requestId});
        QVERIFY2(audit && audit->size() == 1, qPrintable(db.lastError()));
        QVERIFY(audit->front().front().toLongLong() <= qint64(kAuditedStatementLimit + kNoteAllowance));
    }

    // Names over 256 characters are refused as the statement is read, with a message that says the
    // limit and does not repeat the name; 256 are accepted. Characters, not bytes: 256 'é' are 512 bytes.
    void namesOverTheLimitAreRefused_data() {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<bool>("tooLong");
        const QString n256 = repeated('n', 256);
        const QString n257 = repeated('n', 257);
        const QString e256 = QString(256, QChar(0x00E9));
        const QString e257 = QString(257, QChar(0x00E9));
        QTest::newRow("job 256") << "DESCRIBE JOB " + n256 << false;
        QTest::newRow("job 257") << "DESCRIBE JOB " + n257 << true;
        QTest::newRow("job 256 é") << "DESCRIBE JOB `" + e256 + "`" << false;
        QTest::newRow("job 257 é") << "DESCRIBE JOB `" + e257 + "`" << true;
        QTest::newRow("job quoted 257") << "DESCRIBE JOB `" + n257 + "`" << true;
        QTest::newRow("cluster 257") << "DESCRIBE CLUSTER " + n257 << true;
        QTest::newRow("create cluster 257")
            << "CREATE CLUSTER " + n257 + " TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1" << true;
        QTest::newRow("cluster type 257")
            << "CREATE CLUSTER c5 TYPE = '" + n257 + "' MAX_OCU = 2 MIN_OCU = 1" << true;
        QTest::newRow("job's cluster 257")
            << "CREATE JOB j1 TYPE = 'JAR' PARAMETERS = ('--class', 'A', 'a.jar') CLUSTER = '" + n257 + "'"
            << true;
        QTest::newRow("run id 257") << "DESCRIBE JOB_RUN '" + n257 + "' JOB_NAME = 'j1'" << true;
        QTest::newRow("run's job 257") << "DESCRIBE JOB_RUN 'r1' JOB_NAME = '" + n257 + "'" << true;
        QTest::newRow("runs of job 257") << "SHOW JOB_RUNS JOB_NAME = '" + n257 + "'" << true;
        QTest::newRow("cancel 257") << "CANCEL JOB_RUN '" + n257 + "' JOB_NAME = 'j1'" << true;
        QTest::newRow("run job 257") << "RUN JOB " + n257 << true;
        QTest::newRow("delete job 257") << "DELETE JOB " + n257 << true;
        QTest::newRow("allow-list entry 257")
            << "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('" + n257 + "')" << true;
        QTest::newRow("allow-list entry 256")
            << "ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('" + n256 + "')" << false;
    }

    void namesOverTheLimitAreRefused() {
        QFETCH(QString, statement);
        QFETCH(bool, tooLong);
        const json status = runStatement(m_service, m_admin, statement);
        const std::string error = errorOf(status);
        if (!tooLong) {
            QVERIFY2(error.find("at most 256 characters") == std::string::npos, status.dump().c_str());
            return;
        }
        QCOMPARE(statusOf(status), kInvalid);
        QVERIFY2(error.find("at most 256 characters") != std::string::npos, status.dump().c_str());
        QVERIFY2(error.find(std::string(100, 'n')) == std::string::npos, error.c_str());
        QVERIFY2(error.size() < 200, error.c_str());
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestStoredSize)
#include "tst_storedsize.moc"
