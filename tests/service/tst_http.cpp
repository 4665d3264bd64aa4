// The statement transport of CONTRACT §1 against the real jobdeckd.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QSet>
#include <QTcpSocket>
#include <QTest>
#include <QThread>

#include <csignal>
#include <sys/types.h>

using namespace jobdeck;

namespace {

constexpr auto kSuccess = "API_OPERATION_STATUS_SUCCESS";
constexpr auto kPending = "API_OPERATION_STATUS_PENDING";

QByteArray statementBody(const std::string& statement) {
    return QByteArray::fromStdString(nlohmann::json{{"statement", statement}}.dump());
}

// GET /v1/status/<id> until the status is final, for at most 10 s.
nlohmann::json pollStatus(const TestService& service, const ApiCredentials& credentials,
                          const std::string& id) {
    const QDeadlineTimer deadline(10000);
    nlohmann::json status;
    do {
        const HttpResult result =
            request(service.url(QStringLiteral("/v1/status/") + QString::fromStdString(id)), "GET", {},
                    credentials.headers());
        if (result.status != 200)
            return {{"httpStatus", result.status}};
        status = result.json();
        if (status.value("apiStatus", "") != kPending)
            return status;
        QThread::msleep(20);
    } while (!deadline.hasExpired());
    return status;
}

void verifyErrorShape(const HttpResult& result) {
    const QByteArray reason = result.header("grpc-message");
    QVERIFY2(!reason.isEmpty(), result.body.constData());
    QVERIFY(!reason.contains('\n'));
    const nlohmann::json body = result.json();
    QVERIFY(body.is_object());
    QCOMPARE(QByteArray::fromStdString(body.value("error", "")), reason);
}

} // namespace

class TestHttpTransport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_alpha = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("operator"));
        m_beta = m_service.createKey(QStringLiteral("beta"), QStringLiteral("operator"));
        QVERIFY2(m_alpha.isValid() && m_beta.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(m_alpha.projectUid != m_beta.projectUid);
    }

    void health() {
        const HttpResult result = request(m_service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(result.status, 200);
        const nlohmann::json body = result.json();
        QCOMPARE(QString::fromStdString(body.value("status", "")), QStringLiteral("ok"));
        QCOMPARE(QString::fromStdString(body.value("version", "")), QStringLiteral(JOBDECK_VERSION));
        QVERIFY(result.header("content-type").startsWith("application/json"));
    }

    void postThenPollStatus() {
        const HttpResult posted = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                          statementBody("SHOW JOBS"), m_alpha.headers());
        QCOMPARE(posted.status, 200);
        const nlohmann::json body = posted.json();
        QVERIFY(body.is_object());
        QCOMPARE(body.size(), std::size_t(1));
        const std::string id = body.value("requestId", "");
        QVERIFY(id.size() >= 32);

        const nlohmann::json status = pollStatus(m_service, m_alpha, id);
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")), QString::fromLatin1(kSuccess));
        QVERIFY(status["apiResponse"]["showJobsApiResponse"]["sparkJobs"].is_array());
        QVERIFY(!status.contains("errorMessage"));
    }

    void requestIdsAreFresh() {
        QSet<QString> ids;
        for (int i = 0; i < 5; ++i) {
            const HttpResult posted = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                              statementBody("SHOW CLUSTERS"), m_alpha.headers());
            QCOMPARE(posted.status, 200);
            ids.insert(QString::fromStdString(posted.json().value("requestId", "")));
        }
        QCOMPARE(ids.size(), 5);
    }

    void preferWaitAnswersWithTheStatus() {
        const nlohmann::json status = runStatement(m_service, m_alpha, QStringLiteral("SHOW JOBS"));
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")), QString::fromLatin1(kSuccess));
        const std::string id = status.value("requestId", "");
        QVERIFY(!id.empty());
        // The same status stays readable by its id, without the requestId inside.
        const HttpResult again =
            request(m_service.url(QStringLiteral("/v1/status/") + QString::fromStdString(id)), "GET", {},
                    m_alpha.headers());
        QCOMPARE(again.status, 200);
        nlohmann::json expected = status;
        expected.erase("requestId");
        QVERIFY2(again.json() == expected, again.body.constData());
    }

    void preferWaitIsCapped() {
        // An absurd wait is cut to the cap and a fast statement still answers at once.
        HttpHeaders headers = m_alpha.headers();
        headers.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=99999999")));
        QElapsedTimer timer;
        timer.start();
        const HttpResult result = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                          statementBody("SHOW JOBS"), headers);
        QCOMPARE(result.status, 200);
        QCOMPARE(QString::fromStdString(result.json().value("apiStatus", "")), QString::fromLatin1(kSuccess));
        QVERIFY2(timer.elapsed() < 30000,
                 "hang guard (generous): a final status is answered without waiting 60 s");
        QCOMPARE(result.header("preference-applied"), QByteArray("wait=60"));
    }

    void preferWaitZeroMayAnswerPending() {
        HttpHeaders headers = m_alpha.headers();
        headers.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=0")));
        const HttpResult result = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                          statementBody("SHOW JOBS"), headers);
        QCOMPARE(result.status, 200);
        const nlohmann::json status = result.json();
        const QString apiStatus = QString::fromStdString(status.value("apiStatus", ""));
        QVERIFY2(apiStatus == QLatin1String(kPending) || apiStatus == QLatin1String(kSuccess),
                 result.body.constData());
        QVERIFY(!status.contains("errorMessage"));
        // Either way the id leads to the final status.
        const nlohmann::json final = pollStatus(m_service, m_alpha, status.value("requestId", ""));
        QCOMPARE(QString::fromStdString(final.value("apiStatus", "")), QString::fromLatin1(kSuccess));
    }

    void expectContinueIsAnswered() {
        QByteArray head = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                          "Prefer: wait=10\r\nContent-Length: 26\r\n";
        for (const auto& [name, value] : m_alpha.headers())
            head += name + ": " + value + "\r\n";
        const QByteArray raw = rawExchange(
            m_service.port(), head + "\r\n" + statementBody("SHOW JOBS").replace(":", ": "), 5000, 2);
        QVERIFY2(raw.startsWith("HTTP/1.1 100 Continue\r\n"), raw.constData());
        QVERIFY2(raw.contains("HTTP/1.1 200 OK") && raw.contains(kSuccess), raw.constData());
    }

    void unknownRequestIdIs404() {
        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/status/00000000-0000-4000-8000-000000000000")), "GET",
                    {}, m_alpha.headers());
        QCOMPARE(result.status, 404);
        verifyErrorShape(result);
        const HttpResult empty =
            request(m_service.url(QStringLiteral("/v1/status/")), "GET", {}, m_alpha.headers());
        QCOMPARE(empty.status, 404);
    }

    void requestOfAnotherProjectIsInvisible() {
        const nlohmann::json status = runStatement(m_service, m_alpha, QStringLiteral("SHOW JOBS"));
        const QString id = QString::fromStdString(status.value("requestId", ""));
        QVERIFY(!id.isEmpty());
        const HttpResult own =
            request(m_service.url(QStringLiteral("/v1/status/") + id), "GET", {}, m_alpha.headers());
        QCOMPARE(own.status, 200);
        const HttpResult other =
            request(m_service.url(QStringLiteral("/v1/status/") + id), "GET", {}, m_beta.headers());
        QCOMPARE(other.status, 404);
        // Exactly what a made-up id gets: nothing tells the two apart.
        const HttpResult madeUp =
            request(m_service.url(QStringLiteral("/v1/status/made-up")), "GET", {}, m_beta.headers());
        QCOMPARE(other.body, madeUp.body);
    }

    void invalidAndFailedCarryErrorMessage() {
        const nlohmann::json invalid = runStatement(m_service, m_alpha, QStringLiteral("SHOW JOBZ"));
        QCOMPARE(QString::fromStdString(invalid.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_INVALID"));
        QVERIFY(!invalid.value("errorMessage", "").empty());

        const nlohmann::json failed =
            runStatement(m_service, m_alpha, QStringLiteral("DESCRIBE JOB no_such_job"));
        QCOMPARE(QString::fromStdString(failed.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_FAILED"));
        QVERIFY(
            QString::fromStdString(failed.value("errorMessage", "")).contains(QStringLiteral("no_such_job")));

        // The same through GET /v1/status.
        const HttpResult again = request(m_service.url(QStringLiteral("/v1/status/") +
                                                       QString::fromStdString(failed.value("requestId", ""))),
                                         "GET", {}, m_alpha.headers());
        QCOMPARE(QString::fromStdString(again.json().value("errorMessage", "")),
                 QString::fromStdString(failed.value("errorMessage", "")));
    }

    void keepAliveServesSeveralRequestsOnOneConnection() {
        const QByteArray health = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        const QByteArray raw = rawExchange(m_service.port(), health + health + health, 5000, 3);
        QCOMPARE(raw.count("HTTP/1.1 200 OK"), 3);

        QTcpSocket socket;
        socket.connectToHost(QStringLiteral("127.0.0.1"), m_service.port());
        QVERIFY(socket.waitForConnected(5000));
        for (int i = 0; i < 3; ++i) {
            socket.write(health);
            QByteArray answer;
            while (!answer.contains("\"ok\"") && socket.waitForReadyRead(5000))
                answer += socket.readAll();
            QVERIFY2(answer.startsWith("HTTP/1.1 200"), answer.constData());
            QVERIFY(socket.state() == QAbstractSocket::ConnectedState);
        }
    }

    void connectionCloseIsHonoured() {
        const QByteArray raw =
            rawExchange(m_service.port(),
                        "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5000, 2);
        QCOMPARE(rawStatus(raw), 200);
        QVERIFY(raw.toLower().contains("connection: close"));
    }

    void answerHeadsAreExact() {
        // The head is written by hand (one buffer, one write): the same bytes Beast wrote, field by
        // field and in order.
        QByteArray head = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nPrefer: wait=10\r\n";
        for (const auto& [name, value] : m_alpha.headers())
            head += name + ": " + value + "\r\n";
        const QByteArray body = statementBody("SHOW JOBS");
        head += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        const QByteArray ok = rawExchange(m_service.port(), head + body, 5000);
        const qsizetype okEnd = ok.indexOf("\r\n\r\n");
        QVERIFY2(okEnd > 0, ok.constData());
        const QByteArray okBody = ok.mid(okEnd + 4);
        QVERIFY2(okBody.contains(kSuccess), ok.constData());
        QCOMPARE(ok.left(okEnd), "HTTP/1.1 200 OK\r\nServer: jobdeckd/" JOBDECK_VERSION
                                 "\r\nContent-Type: application/json\r\nPreference-Applied: wait=10"
                                 "\r\nContent-Length: " +
                                     QByteArray::number(okBody.size()));

        const QByteArray missing =
            rawExchange(m_service.port(),
                        "GET /v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5000);
        const QByteArray missingBody = R"({"error":"Not found: /v1/nothing"})";
        QCOMPARE(missing, "HTTP/1.1 404 Not Found\r\nServer: jobdeckd/" JOBDECK_VERSION
                          "\r\nContent-Type: application/json\r\ngrpc-message: Not found: /v1/nothing"
                          "\r\nConnection: close\r\nContent-Length: " +
                              QByteArray::number(missingBody.size()) + "\r\n\r\n" + missingBody);
    }

    void repeatedHeaderCountsByItsLastValue() {
        // Header names in any case; of a header sent twice, the last one counts.
        QByteArray head = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nPREFER: wait=10\r\n"
                          "X-Onehouse-Api-Secret: wrong\r\n";
        for (const auto& [name, value] : m_alpha.headers())
            head += name.toUpper() + ": " + value + "\r\n";
        const QByteArray body = statementBody("SHOW JOBS");
        const QByteArray raw = rawExchange(
            m_service.port(), head + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body,
            5000);
        QCOMPARE(rawStatus(raw), 200);
        QVERIFY2(raw.contains(kSuccess), raw.constData());

        QByteArray wrongLast = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        for (const auto& [name, value] : m_alpha.headers())
            wrongLast += name + ": " + value + "\r\n";
        wrongLast += "x-onehouse-api-secret: wrong\r\n";
        QCOMPARE(
            rawStatus(rawExchange(
                m_service.port(),
                wrongLast + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body, 5000)),
            401);
    }

    void everyErrorCarriesGrpcMessage() {
        const HttpResult unauthenticated =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", statementBody("SHOW JOBS"));
        QCOMPARE(unauthenticated.status, 401);
        verifyErrorShape(unauthenticated);

        const HttpResult badJson =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", "{", m_alpha.headers());
        QCOMPARE(badJson.status, 400);
        verifyErrorShape(badJson);

        const HttpResult unknownPath = request(m_service.url(QStringLiteral("/v1/nothing")), "GET");
        QCOMPARE(unknownPath.status, 404);
        verifyErrorShape(unknownPath);

        const HttpResult wrongMethod = request(m_service.url(QStringLiteral("/v1/health")), "DELETE");
        QCOMPARE(wrongMethod.status, 405);
        verifyErrorShape(wrongMethod);
    }

    void clientHeadersAreAccepted() {
        HttpHeaders headers{{"x-onehouse-account-uid", "acct-1"},
                            {"x-onehouse-link-uid", "link-1"},
                            {"x-onehouse-region", "us-west-2"},
                            {"x-onehouse-uuid", "uuid-1"},
                            {"Idempotency-Key", "key-1"}};
        const nlohmann::json status = runStatement(m_service, m_alpha, QStringLiteral("SHOW JOBS"), headers);
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")), QString::fromLatin1(kSuccess));
    }

    void gracefulShutdownExitsZero() {
        QCOMPARE(m_service.stop(), 0);
        QVERIFY(m_service.errorOutput().contains(QStringLiteral("shutting down")));
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QCOMPARE(request(m_service.url(QStringLiteral("/v1/health")), "GET").status, 200);
    }

    void shutdownAnswersLongPollsAndIsBounded() {
        TestService service({QStringLiteral("--shutdown-grace"), QStringLiteral("2")});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials viewer = service.createKey(QStringLiteral("gamma"), QStringLiteral("viewer"));
        QVERIFY(viewer.isValid());
        QByteArray credentials;
        for (const auto& [name, value] : viewer.headers())
            credentials += name + ": " + value + "\r\n";
        // A long poll waiting for events, and a client stuck in the middle of a body.
        QTcpSocket longPoll;
        longPoll.connectToHost(QStringLiteral("127.0.0.1"), service.port());
        QVERIFY(longPoll.waitForConnected(5000));
        longPoll.write("GET /v1/events?after=0&wait=30 HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credentials +
                       "\r\n");
        QTcpSocket stuck;
        stuck.connectToHost(QStringLiteral("127.0.0.1"), service.port());
        QVERIFY(stuck.waitForConnected(5000));
        stuck.write("POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\n" + credentials +
                    "Content-Length: 100\r\n\r\n{\"statement\"");
        QVERIFY(longPoll.waitForBytesWritten(5000) && stuck.waitForBytesWritten(5000));
        QTest::qWait(300);
        QVERIFY(longPoll.bytesAvailable() == 0); // still waiting

        QElapsedTimer timer;
        timer.start();
        QVERIFY(::kill(static_cast<pid_t>(service.processId()), SIGTERM) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!service.isRunning(), 28000);
        QVERIFY2(
            timer.elapsed() < 28000,
            qPrintable(QStringLiteral("hang guard: shutdown did not wait out the 30 s long poll; took %1 ms")
                           .arg(timer.elapsed())));
        QCOMPARE(service.stop(), 0);
        longPoll.waitForReadyRead(1000);
        const QByteArray answer = longPoll.readAll();
        QCOMPARE(rawStatus(answer), 200);
        QVERIFY2(answer.contains("\"events\""), answer.constData());
    }

    void repeatedShutdownsWithOpenConnections() {
        // Connections that end while SIGTERM closes the others once deadlocked the shutdown; a few
        // rounds make that race likely.
        TestService service;
        for (int round = 0; round < 20; ++round) {
            QVERIFY2(service.start(), qPrintable(service.lastError()));
            QTcpSocket kept;
            kept.connectToHost(QStringLiteral("127.0.0.1"), service.port());
            QVERIFY(kept.waitForConnected(5000));
            kept.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
            QVERIFY(kept.waitForReadyRead(5000));
            QTcpSocket closing;
            closing.connectToHost(QStringLiteral("127.0.0.1"), service.port());
            QVERIFY(closing.waitForConnected(5000));
            closing.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            QVERIFY(closing.waitForBytesWritten(5000));
            QCOMPARE(service.stop(5000), 0);
        }
    }

    void requestLogHasNoSecrets() {
        const QString log = m_service.errorOutput();
        QVERIFY(log.contains(QStringLiteral("path=/v1/resource/")));
        QVERIFY(!log.contains(m_alpha.apiSecret));
        QVERIFY(!log.contains(m_alpha.apiKey));
    }

private:
    TestService m_service;
    ApiCredentials m_alpha;
    ApiCredentials m_beta;
};

JOBDECK_TEST_GUILESS_MAIN(TestHttpTransport)
#include "tst_http.moc"
