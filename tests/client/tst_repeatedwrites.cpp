// A console write reaches the service twice when its connection drops after the request was read: Qt's
// network stack re-sends a POST once when a kept-alive connection closes before any answer, and ApiClient
// retries a lost answer. Every write carries an Idempotency-Key, and the real jobdeckd answers the repeat
// with the first request's answer, so the user sees the write succeed once (never "already exists").
// A loopback proxy between ApiClient and jobdeckd drops the connection at the moment that matters.
#include "client/ApiClient.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

#include <memory>

using namespace jobdeck;
using namespace jobdeck::test;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

namespace {

// Relays loopback connections to `target` both ways, except the first request whose bytes contain
// `trigger`: that one is forwarded, the target's whole answer is read (so the statement took effect),
// and the client's connection is then closed without a byte of it.
class DroppingProxy final : public QObject {
public:
    DroppingProxy(quint16 target, QByteArray trigger)
        : m_target(target)
        , m_trigger(std::move(trigger)) {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* client = m_server.nextPendingConnection())
                relay(client);
        });
    }

    quint16 port() const { return m_server.serverPort(); }
    int connections() const { return m_connections; }
    int triggerRequests() const { return m_triggerRequests; }
    bool dropped() const { return m_dropped; }

private:
    struct Link {
        QByteArray request;  // what the client sent on this connection (since its last answer)
        QByteArray withheld; // the target's answer being swallowed
        bool dropping = false;
    };

    // An HTTP answer is complete when its head and Content-Length bytes of body are in.
    static bool completeAnswer(const QByteArray& bytes) {
        const qsizetype headEnd = bytes.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return false;
        const QByteArray head = bytes.left(headEnd).toLower();
        const qsizetype at = head.indexOf("content-length:");
        if (at < 0)
            return true;
        const qsizetype lineEnd = head.indexOf("\r\n", at);
        const qint64 length = head.mid(at + 15, lineEnd < 0 ? -1 : lineEnd - at - 15).trimmed().toLongLong();
        return bytes.size() - (headEnd + 4) >= length;
    }

    void relay(QTcpSocket* client) {
        ++m_connections;
        auto* upstream = new QTcpSocket(client);
        auto link = std::make_shared<Link>();
        upstream->connectToHost(QHostAddress::LocalHost, m_target);
        connect(client, &QTcpSocket::readyRead, this, [this, client, upstream, link] {
            const QByteArray bytes = client->readAll();
            link->request += bytes;
            if (link->request.contains(m_trigger)) {
                ++m_triggerRequests;
                if (!m_dropped) {
                    m_dropped = true;
                    link->dropping = true;
                }
                link->request.clear();
            }
            upstream->write(bytes);
        });
        connect(upstream, &QTcpSocket::readyRead, this, [client, upstream, link] {
            const QByteArray bytes = upstream->readAll();
            if (!link->dropping) {
                client->write(bytes);
                return;
            }
            link->withheld += bytes;
            if (completeAnswer(link->withheld))
                client->abort(); // the answer was written by the service and is lost on the way
        });
        connect(client, &QTcpSocket::disconnected, client, &QObject::deleteLater);
        connect(upstream, &QTcpSocket::disconnected, client, [client] { client->disconnectFromHost(); });
    }

    QTcpServer m_server;
    quint16 m_target;
    QByteArray m_trigger;
    int m_connections = 0;
    int m_triggerRequests = 0;
    bool m_dropped = false;
};

} // namespace

class TestRepeatedWrites final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;

    ApiClient* clientThrough(const DroppingProxy& proxy) {
        auto* client = new ApiClient(this);
        client->setConnection({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(proxy.port())),
                               m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
        return client;
    }

    int jobsNamed(const std::string& name) {
        const auto jobs = runStatement(m_service, m_operator, "SHOW JOBS");
        int count = 0;
        for (const auto& job : jobs["apiResponse"]["showJobsApiResponse"]["sparkJobs"])
            count += job.value("name", std::string()) == name ? 1 : 0;
        return count;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey("repeats", "operator");
        QVERIFY(m_operator.isValid());
        QVERIFY(statementSucceeds(m_service, m_operator,
                                  "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0"));
    }

    void createJobWhoseAnswerIsLostSucceedsOnce() {
        DroppingProxy proxy(m_service.port(), QByteArrayLiteral("CREATE JOB once"));
        ApiClient* client = clientThrough(proxy);
        // A read first, so the write goes over a kept-alive connection (what Qt re-sends on).
        QVERIFY(waitFor(client->showClusters()).value);
        const auto created = waitFor(
            client->createJob(CreateJobStatement{"once", JobType::Python, {"/app.py"}, "c", std::nullopt}));
        QVERIFY(proxy.dropped());
        QVERIFY2(proxy.triggerRequests() >= 2, qPrintable(QString::number(proxy.triggerRequests())));
        QVERIFY2(created.value, qPrintable(created.errorText()));
        QCOMPARE(created.value->value("createJobApiResponse", json::object()).value("name", std::string()),
                 std::string("once"));
        QCOMPARE(jobsNamed("once"), 1);
    }

    void deleteJobWhoseAnswerIsLostSucceedsOnce() {
        QVERIFY(statementSucceeds(m_service, m_operator,
                                  "CREATE JOB gone TYPE = 'PYTHON' PARAMETERS = ('/app.py') CLUSTER = 'c'"));
        DroppingProxy proxy(m_service.port(), QByteArrayLiteral("DELETE JOB gone"));
        ApiClient* client = clientThrough(proxy);
        QVERIFY(waitFor(client->showClusters()).value);
        const auto deleted = waitFor(client->deleteJob(QStringLiteral("gone")));
        QVERIFY(proxy.dropped());
        QVERIFY(proxy.triggerRequests() >= 2);
        QVERIFY2(deleted.value, qPrintable(deleted.errorText())); // not "Job gone does not exist"
        QCOMPARE(jobsNamed("gone"), 0);
    }

    // The same key with another statement is refused; a new key is a new write.
    void aKeyNamesOneStatement() {
        HttpHeaders headers = m_operator.headers();
        headers.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("one-key")));
        headers.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=10")));
        headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        const auto send = [&](const std::string& statement) {
            return request(m_service.url("/v1/resource/"), "POST",
                           QByteArray::fromStdString(json{{"statement", statement}}.dump()), headers);
        };
        const auto first = send("CREATE CLUSTER k1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(first.status, 200);
        QCOMPARE(statusOf(first.json()), kSuccess);
        const auto again = send("CREATE CLUSTER k1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(again.status, 200);
        QCOMPARE(again.json(), first.json()); // the first answer, requestId included
        const auto other = send("CREATE CLUSTER k2 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(other.status, 400);
        QCOMPARE(
            other.header("grpc-message"),
            QByteArray("Idempotency-Key one-key was already used in the last 10 minutes with a different "
                       "statement or another API key; send a new key for a new statement."));
        // Another project's identical key is its own.
        const ApiCredentials stranger = m_service.createKey("repeats-other", "operator");
        HttpHeaders strangerHeaders = stranger.headers();
        strangerHeaders.append(qMakePair(QByteArray("Idempotency-Key"), QByteArray("one-key")));
        strangerHeaders.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=10")));
        strangerHeaders.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        const auto theirs =
            request(m_service.url("/v1/resource/"), "POST",
                    QByteArray::fromStdString(json{{"statement", "CREATE CLUSTER k2 TYPE = 'Spark' "
                                                                 "MAX_OCU = 1 MIN_OCU = 0"}}
                                                  .dump()),
                    strangerHeaders);
        QCOMPARE(statusOf(theirs.json()), kSuccess);
        // After a restart within the window, the repeat is still answered with the first answer.
        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        const auto afterRestart = send("CREATE CLUSTER k1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(afterRestart.status, 200);
        QCOMPARE(afterRestart.json()["requestId"], first.json()["requestId"]);
        QCOMPARE(statusOf(afterRestart.json()), kSuccess);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_MAIN(TestRepeatedWrites)
#include "tst_repeatedwrites.moc"
