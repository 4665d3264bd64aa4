// jobdeckd on PostgreSQL while the database stops and comes back: requests get 503 with grpc-message,
// the service keeps running, and it recovers by itself with nothing acknowledged lost.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QTest>
#include <QThread>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

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

    // The database stops (alternately `fast` and `immediate`) 20 times while reads, writes, long polls
    // and status polls are in flight: jobdeckd never dies, every request it acknowledged ends final
    // (FAILED with a reason when the outage took it), and it serves again by itself.
    void outagesWithTrafficInFlightNeverKillTheService() {
        TestService service({"--database", m_cluster.connectionUri()});
        const ApiCredentials admin = service.createKey(QStringLiteral("traffic"), QStringLiteral("admin"));
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY(statementSucceeds(service, admin, "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        for (int round = 0; round < 20; ++round) {
            const auto mode =
                round % 2 ? PostgresCluster::StopMode::Immediate : PostgresCluster::StopMode::Fast;
            Traffic traffic(service, admin, round);
            QTRY_VERIFY2_WITH_TIMEOUT(traffic.answered() >= 8, qPrintable(traffic.summary(round)), 30000);
            QVERIFY2(m_cluster.pause(mode), qPrintable(m_cluster.lastError()));
            QTRY_VERIFY2_WITH_TIMEOUT(traffic.refusals() > 0, qPrintable(traffic.summary(round)), 30000);
            traffic.stop();
            QVERIFY2(service.isRunning(), qPrintable(QStringLiteral("jobdeckd died in round %1").arg(round)));
            QCOMPARE(request(service.url("/v1/health"), "GET").status, 503);

            QVERIFY2(m_cluster.resume(), qPrintable(m_cluster.lastError()));
            QVERIFY2(servesAgain(service, admin), qPrintable(QStringLiteral("round %1").arg(round)));
            for (const QString& id : traffic.acknowledgedIds()) {
                const nlohmann::json status = finalStatus(service, admin, id);
                QVERIFY2(statusOf(status) == kSuccess ||
                             (statusOf(status) == kFailed && !errorOf(status).empty()),
                         status.dump().c_str());
            }
            QVERIFY(service.isRunning());
        }
        QCOMPARE(service.stop(), 0);
    }

private:
    // Clients sending reads, writes (each with an event), long polls on the events and status polls
    // from threads of their own until stop().
    class Traffic final {
    public:
        Traffic(const TestService& service, const ApiCredentials& credentials, int round)
            : m_service(service)
            , m_credentials(credentials) {
            m_threads.emplace_back([this] { loop([this] { read(); }); });
            m_threads.emplace_back([this, round] { loop([this, round] { write(round); }); });
            m_threads.emplace_back([this] { loop([this] { longPoll(); }); });
        }
        ~Traffic() { stop(); }
        void stop() {
            m_stopping = true;
            for (auto& thread : m_threads)
                if (thread.joinable())
                    thread.join();
        }
        int answered() const { return m_answered; }
        int refusals() const { return m_refusals; }
        // What came back so far, for a failure message: each status code (0: no answer) and its count.
        QString summary(int round) {
            const std::lock_guard lock(m_mutex);
            QStringList counts;
            for (const auto& [status, count] : m_statuses)
                counts << QStringLiteral("%1 × %2").arg(status).arg(count);
            return QStringLiteral("round %1 answers: %2").arg(round).arg(counts.join(QStringLiteral(", ")));
        }
        QStringList acknowledgedIds() {
            const std::lock_guard lock(m_mutex);
            return m_ids;
        }

    private:
        template <class Step> void loop(Step step) {
            while (!m_stopping)
                step();
        }
        void count(const HttpResult& result) {
            {
                const std::lock_guard lock(m_mutex);
                ++m_statuses[result.status];
            }
            if (result.status == 200)
                ++m_answered;
            else if (result.status == 503)
                ++m_refusals;
        }
        void read() {
            count(request(m_service.url("/v1/resource/"), "POST", R"({"statement": "SHOW CLUSTERS"})",
                          withWait(m_credentials.headers())));
        }
        void write(int round) {
            const QByteArray statement =
                QStringLiteral(R"({"statement": "CREATE JOB j_%1_%2 TYPE = 'PYTHON' )"
                               R"(PARAMETERS = ('/opt/app.py') CLUSTER = 'c'"})")
                    .arg(round)
                    .arg(++m_writes)
                    .toUtf8();
            const HttpResult result =
                request(m_service.url("/v1/resource/"), "POST", statement, m_credentials.headers());
            count(result);
            if (result.status != 200)
                return;
            const std::string id = result.json().value("requestId", std::string());
            {
                const std::lock_guard lock(m_mutex);
                m_ids << QString::fromStdString(id);
            }
            // A status poll right away, as orchestrators do.
            count(request(m_service.url("/v1/status/" + QString::fromStdString(id)), "GET", {},
                          m_credentials.headers()));
        }
        void longPoll() {
            count(request(m_service.url("/v1/events", QStringLiteral("after=0&wait=2")), "GET", {},
                          m_credentials.headers()));
        }
        static HttpHeaders withWait(HttpHeaders headers) {
            headers.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=5")));
            return headers;
        }

        const TestService& m_service;
        const ApiCredentials& m_credentials;
        std::atomic<bool> m_stopping{false};
        std::atomic<int> m_answered{0};
        std::atomic<int> m_refusals{0};
        std::atomic<int> m_writes{0};
        std::mutex m_mutex;
        QStringList m_ids;
        std::map<int, int> m_statuses;
        std::vector<std::thread> m_threads;
    };

    // True once a write succeeds again; a generous bound, no timing.
    static bool servesAgain(const TestService& service, const ApiCredentials& credentials) {
        const QDeadlineTimer deadline(60000);
        while (!deadline.hasExpired()) {
            if (statusOf(runStatement(service, credentials, "ALTER CLUSTER c SET MAX_OCU = 4")) == kSuccess)
                return true;
            QThread::msleep(200);
        }
        return false;
    }

    // The request's status once it is final (PENDING statuses are polled again within a bound).
    static nlohmann::json finalStatus(const TestService& service, const ApiCredentials& credentials,
                                      const QString& id) {
        const QDeadlineTimer deadline(60000);
        nlohmann::json status;
        do {
            const HttpResult result =
                request(service.url("/v1/status/" + id), "GET", {}, credentials.headers());
            status = result.json();
            if (result.status == 200 &&
                status.value("apiStatus", std::string()) != "API_OPERATION_STATUS_PENDING")
                return status;
            QThread::msleep(200);
        } while (!deadline.hasExpired());
        return status;
    }

    PostgresCluster m_cluster;
};

JOBDECK_TEST_GUILESS_MAIN(TestPgOutage)
#include "tst_pgoutage.moc"
