// Retention in the real jobdeckd: final request statuses and audit entries expire, their rows are
// deleted by the sweep, and a poll after expiry gets a clear 404. The retention is given in seconds
// by the hidden test flags; waits are bounded polls of several seconds, no timing is asserted.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QTest>
#include <QThread>

#include <functional>

using namespace jobdeck;
using namespace jobdeck::teststatus;

namespace {

HttpResult poll(const TestService& service, const ApiCredentials& who, const QString& id) {
    return request(service.url("/v1/status/" + id), "GET", {}, who.headers());
}

// Rows of `table` in the service's database, read by a connection of the test's own; -1 on failure.
std::int64_t rowCount(const TestService& service, const std::string& table) {
    ServiceDatabase db(service);
    const QString count = db.value(QStringLiteral("SELECT count(*) FROM ") + QString::fromStdString(table));
    if (count.isNull())
        qWarning() << "cannot count the rows of" << table.c_str() << ":" << db.lastError();
    return count.isNull() ? -1 : count.toLongLong();
}

// Polls `done` every 200 ms for up to 30 s.
bool eventually(const std::function<bool()>& done) {
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired()) {
        if (done())
            return true;
        QThread::msleep(200);
    }
    return done();
}

} // namespace

class TestRetention : public QObject {
    Q_OBJECT

private slots:
    void finalStatusesAndAuditEntriesExpire() {
        TestService service({"--status-retention-seconds", "3", "--audit-retention-seconds", "3",
                             "--retention-sweep-seconds", "1"});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials admin = service.createKey("alpha", "admin");
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));

        // A read polled by id (its status reaches the database) and one answered at once.
        const HttpResult posted = request(service.url("/v1/resource/"), "POST",
                                          R"({"statement": "SHOW CLUSTERS"})", admin.headers());
        QCOMPARE(posted.status, 200);
        const QString polledId = QString::fromStdString(posted.json().value("requestId", ""));
        QVERIFY(eventually([&] { return statusOf(poll(service, admin, polledId).json()) == kSuccess; }));
        const QString waitedId =
            QString::fromStdString(runStatement(service, admin, "SHOW CLUSTERS").value("requestId", ""));
        QCOMPARE(poll(service, admin, waitedId).status, 200);
        // Written with a group commit, a moment after the answers.
        QVERIFY(
            eventually([&] { return rowCount(service, "audit") > 0 && rowCount(service, "requests") > 0; }));

        // After the retention both are gone, from memory and from the database.
        for (const QString& id : {polledId, waitedId}) {
            QVERIFY2(eventually([&] { return poll(service, admin, id).status == 404; }), qPrintable(id));
            const HttpResult expired = poll(service, admin, id);
            QCOMPARE(expired.json().value("error", ""),
                     std::string("Unknown or expired request id (final statuses are kept for 3 seconds)"));
            QCOMPARE(QString::fromUtf8(expired.header("grpc-message")),
                     QStringLiteral("Unknown or expired request id (final statuses are kept for 3 seconds)"));
        }
        QVERIFY2(eventually([&] { return rowCount(service, "requests") == 0; }),
                 qPrintable(QString::number(rowCount(service, "requests"))));
        QVERIFY2(eventually([&] { return rowCount(service, "audit") == 0; }),
                 qPrintable(QString::number(rowCount(service, "audit"))));

        // New requests still work and are kept until they expire in turn.
        const nlohmann::json fresh = runStatement(service, admin, "SHOW CLUSTERS");
        QCOMPARE(statusOf(fresh), kSuccess);
        QCOMPARE(poll(service, admin, QString::fromStdString(fresh.value("requestId", ""))).status, 200);
        QVERIFY(service.errorOutput().contains("deleted"));
    }

    void retentionFlagsAreChecked() {
        for (const QStringList& bad :
             {QStringList{"--status-retention-hours", "0"}, QStringList{"--audit-retention-days", "0"},
              QStringList{"--audit-retention-days", "x"}}) {
            const auto exit = TestService::runJobdeckd(QStringList{"serve", "--listen", "127.0.0.1:0"} + bad);
            QVERIFY2(exit.status > 0, qPrintable(bad.join(' ')));
            QVERIFY2(QString::fromUtf8(exit.err).contains(bad.first()), exit.err.constData());
        }
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRetention)
#include "tst_retention.moc"
