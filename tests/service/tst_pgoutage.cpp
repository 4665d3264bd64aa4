// jobdeckd on PostgreSQL while the database stops and comes back: requests get 503 with grpc-message,
// the service keeps running, and it recovers by itself with nothing acknowledged lost.
#include "tests/support/PostgresCluster.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QTest>
#include <QThread>

using namespace jobdeck;
using namespace jobdeck::teststatus;

class TestPgOutage final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.lastError())); }
    void cleanupTestCase() { m_cluster.stop(); }

    void databaseOutageAnswers503AndRecovers() {
        TestService service({"--database", m_cluster.connectionUri()});
        const ApiCredentials admin = service.createKey(QStringLiteral("outage"), QStringLiteral("admin"));
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(statementSucceeds(service, admin,
                                  "CREATE CLUSTER before TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));

        QVERIFY2(m_cluster.pause(), qPrintable(m_cluster.lastError()));
        const HttpResult refused = request(service.url("/v1/resource/"), "POST",
                                           R"({"statement": "SHOW CLUSTERS"})", admin.headers());
        QCOMPARE(refused.status, 503);
        QVERIFY2(refused.header("grpc-message").startsWith("Database unavailable"), refused.body.constData());
        const HttpResult health = request(service.url("/v1/health"), "GET");
        QCOMPARE(health.status, 503);
        QVERIFY(service.isRunning());

        QVERIFY2(m_cluster.resume(), qPrintable(m_cluster.lastError()));
        // The pool replaces its dropped connections on the next request; a generous bound, no timing.
        const QDeadlineTimer deadline(30000);
        nlohmann::json answer;
        do {
            answer =
                runStatement(service, admin, "CREATE CLUSTER after TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1");
            if (statusOf(answer) == kSuccess)
                break;
            QThread::msleep(200);
        } while (!deadline.hasExpired());
        QCOMPARE(statusOf(answer), kSuccess);
        const auto clusters = runStatement(service, admin, "SHOW CLUSTERS");
        QCOMPARE(statusOf(clusters), kSuccess);
        const auto& listed = clusters["apiResponse"]["showClustersApiResponse"]["clusters"];
        QCOMPARE(listed.size(), std::size_t{2});
        QCOMPARE(listed[0]["name"].get<std::string>(), std::string("after"));
        QCOMPARE(listed[1]["name"].get<std::string>(), std::string("before"));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        QCOMPARE(service.stop(), 0);
    }

private:
    PostgresCluster m_cluster;
};

QTEST_GUILESS_MAIN(TestPgOutage)
#include "tst_pgoutage.moc"
