// Hostile and broken input against the real jobdeckd: every case gets a clear answer, the service
// stays healthy, and nothing is written.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QTest>

#include <memory>
#include <vector>

using namespace jobdeck;

namespace {

constexpr qsizetype kMiB = 1024 * 1024;

// {"statement": "SHOW JOBS"} padded with JSON whitespace to exactly `size` bytes.
QByteArray showJobsBodyOfSize(qsizetype size) {
    QByteArray body = R"({"statement": "SHOW JOBS")";
    body += QByteArray(size - body.size() - 1, ' ');
    body += '}';
    return body;
}

QByteArray postHead(const ApiCredentials& credentials, const QByteArray& extra) {
    QByteArray head = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";
    for (const auto& [name, value] : credentials.headers())
        head += name + ": " + value + "\r\n";
    return head + extra;
}

QByteArray chunked(const QByteArray& body, qsizetype chunkSize) {
    QByteArray out;
    for (qsizetype at = 0; at < body.size(); at += chunkSize) {
        const QByteArray chunk = body.mid(at, chunkSize);
        out += QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n";
    }
    return out + "0\r\n\r\n";
}

QByteArray rawBody(const QByteArray& raw) {
    return raw.mid(raw.indexOf("\r\n\r\n") + 4);
}

QByteArray rawHeader(const QByteArray& raw, const QByteArray& name) {
    const qsizetype at = raw.toLower().indexOf("\r\n" + name.toLower() + ":");
    if (at < 0)
        return {};
    const qsizetype start = at + 2 + name.size() + 1;
    return raw.mid(start, raw.indexOf('\r', start) - start).trimmed();
}

// A GET of `target` as sent (no percent-encoding redone) with the three credential headers, any of
// which `replace` may swap for other bytes.
QByteArray rawGet(quint16 port, const QByteArray& target, HttpHeaders credentials) {
    QByteArray head = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    for (const auto& [name, value] : credentials)
        head += name + ": " + value + "\r\n";
    return rawExchange(port, head + "\r\n");
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_credentials = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("admin"));
        QVERIFY2(m_credentials.isValid(), qPrintable(m_service.lastError()));
        const nlohmann::json cluster =
            runStatement(m_service, m_credentials,
                         QStringLiteral("CREATE CLUSTER c1 TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QCOMPARE(QString::fromStdString(cluster.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        m_jobsBefore = jobsAndClusters();
        QVERIFY(!m_jobsBefore.empty());
    }

    // After every case: still healthy, and nothing was written.
    void cleanup() {
        QCOMPARE(request(m_service.url(QStringLiteral("/v1/health")), "GET").status, 200);
        QVERIFY2(jobsAndClusters() == m_jobsBefore, "the project's jobs or clusters changed");
    }

    void malformedBodies_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray(R"({"statement": "SHOW JOBS")");
        QTest::newRow("not json") << QByteArray("statement=SHOW JOBS");
        QTest::newRow("array") << QByteArray(R"(["SHOW JOBS"])");
        QTest::newRow("string") << QByteArray(R"("SHOW JOBS")");
        QTest::newRow("no statement") << QByteArray(R"({"statment": "SHOW JOBS"})");
        QTest::newRow("number") << QByteArray(R"({"statement": 5})");
        QTest::newRow("null") << QByteArray(R"({"statement": null})");
        QTest::newRow("object") << QByteArray(R"({"statement": {"text": "SHOW JOBS"}})");
        QTest::newRow("invalid utf-8") << QByteArray("{\"statement\": \"SHOW JOBS \xff\xfe\"}");
        QTest::newRow("deep nesting") << QByteArray(100000, '[');
    }

    void malformedBodies() {
        QFETCH(QByteArray, body);
        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", body, m_credentials.headers());
        QCOMPARE(result.status, 400);
        const QByteArray reason = result.header("grpc-message");
        QVERIFY(!reason.isEmpty());
        QCOMPARE(QByteArray::fromStdString(result.json().value("error", "")), reason);
    }

    void bodyProblemsAreNamed_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("reason"); // empty: the statement runs
        const QByteArray malformed = "Malformed JSON in the request body";
        const QByteArray notAnObject = R"(The request body must be a JSON object with a "statement" field)";
        const QByteArray notAString = R"(The "statement" field must be a string)";
        QTest::newRow("truncated") << QByteArray(R"({"statement": "SHOW JOBS")") << malformed;
        QTest::newRow("trailing text") << QByteArray(R"({"statement": "SHOW JOBS"} x)") << malformed;
        QTest::newRow("array of object") << QByteArray(R"([{"statement": "SHOW JOBS"}])") << notAnObject;
        QTest::newRow("nested statement")
            << QByteArray(R"({"a": {"statement": "SHOW JOBS"}})") << notAnObject;
        QTest::newRow("number") << QByteArray(R"({"statement": 5})") << notAString;
        QTest::newRow("array") << QByteArray(R"({"statement": ["SHOW JOBS"]})") << notAString;
        // A key twice at the top level: which value was meant is not guessed (issue 19 item 11).
        const QByteArray repeated =
            R"(The request body has the key "statement" more than once; send each key once)";
        QTest::newRow("string after number")
            << QByteArray(R"({"statement": 5, "statement": "SHOW JOBS"})") << repeated;
        QTest::newRow("number after string")
            << QByteArray(R"({"statement": "SHOW JOBS", "statement": false})") << repeated;
        QTest::newRow("other fields")
            << QByteArray(
                   R"({"x": [1, {"statement": 2}], "statement": "SHOW JOBS", "y": {"statement": null}})")
            << QByteArray();
    }

    void bodyProblemsAreNamed() {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, reason);
        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", body, m_credentials.headers());
        if (reason.isEmpty()) {
            QCOMPARE(result.status, 200);
            QVERIFY2(result.json().contains("requestId"), result.body.constData());
            return;
        }
        QCOMPARE(result.status, 400);
        QCOMPARE(result.header("grpc-message"), reason);
    }

    void bodyOfExactlyOneMebibyteIsAccepted() {
        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", showJobsBodyOfSize(kMiB),
                    m_credentials.headers() + HttpHeaders{{"Prefer", "wait=10"}});
        QCOMPARE(result.status, 200);
        QCOMPARE(QString::fromStdString(result.json().value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
    }

    void bodyOverOneMebibyteIs413() {
        const HttpResult result = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                          showJobsBodyOfSize(kMiB + 1), m_credentials.headers());
        QCOMPARE(result.status, 413);
        QVERIFY(!result.header("grpc-message").isEmpty());
    }

    void contentLengthOverTheLimitIsRefusedBeforeTheBody() {
        // Only the header is sent: the answer must not wait for a body it will never read.
        QElapsedTimer timer;
        timer.start();
        const QByteArray raw = rawExchange(
            m_service.port(), postHead(m_credentials, "Content-Length: 1073741824\r\n\r\n"), 5000);
        QCOMPARE(rawStatus(raw), 413);
        QVERIFY2(timer.elapsed() < 4900,
                 "hang guard: answered before the exchange's 5 s limit, without the body");
    }

    void chunkedBodies() {
        const QByteArray head =
            postHead(m_credentials, "Transfer-Encoding: chunked\r\nPrefer: wait=10\r\n\r\n");
        const QByteArray ok =
            rawExchange(m_service.port(), head + chunked(showJobsBodyOfSize(kMiB), 100000), 20000);
        QCOMPARE(rawStatus(ok), 200);
        QVERIFY(rawBody(ok).contains("API_OPERATION_STATUS_SUCCESS"));
        const QByteArray tooBig =
            rawExchange(m_service.port(), head + chunked(showJobsBodyOfSize(kMiB + 1), 100000), 20000);
        QCOMPARE(rawStatus(tooBig), 413);
        // One chunk that announces more than the limit is refused as well.
        const QByteArray hugeChunk =
            rawExchange(m_service.port(), head + "40000000\r\n" + QByteArray(1000, ' '), 5000);
        QCOMPARE(rawStatus(hugeChunk), 413);
    }

    void headerLines() {
        const QByteArray health = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        // A 16 KiB line is fine ("X-Pad: " + value).
        const QByteArray fits =
            rawExchange(m_service.port(), health + "X-Pad: " + QByteArray(16 * 1024 - 7, 'a') + "\r\n\r\n");
        QCOMPARE(rawStatus(fits), 200);
        const QByteArray over =
            rawExchange(m_service.port(), health + "X-Pad: " + QByteArray(16 * 1024 - 6, 'a') + "\r\n\r\n");
        QCOMPARE(rawStatus(over), 431);
        const QByteArray longTarget =
            rawExchange(m_service.port(),
                        "GET /v1/health?" + QByteArray(20 * 1024, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n");
        QCOMPARE(rawStatus(longTarget), 431);
        QByteArray many = health;
        for (int i = 0; i < 10; ++i)
            many += "X-Pad-" + QByteArray::number(i) + ": " + QByteArray(15 * 1024, 'b') + "\r\n";
        QCOMPARE(rawStatus(rawExchange(m_service.port(), many + "\r\n")), 431);
        // A credential header that is too long is refused whole, not cut to a valid prefix.
        QByteArray head = postHead(m_credentials, "Content-Length: 26\r\n");
        head.replace("x-onehouse-api-secret: ", "x-onehouse-api-secret: " + QByteArray(17 * 1024, 'c'));
        QCOMPARE(rawStatus(rawExchange(m_service.port(), head + "\r\n" + R"({"statement": "SHOW JOBS"})")),
                 431);
    }

    void headerInjection_data() {
        QTest::addColumn<QByteArray>("header");
        QTest::newRow("bare CR") << QByteArray("X-Evil: a\rInjected: b\r\n");
        QTest::newRow("NUL") << QByteArray("X-Evil: a\0b\r\n", 13);
        QTest::newRow("space before colon") << QByteArray("X-Evil : a\r\n");
        QTest::newRow("no colon") << QByteArray("X-Evil\r\n");
        QTest::newRow("two content lengths") << QByteArray("Content-Length: 2\r\nContent-Length: 3\r\n");
    }

    void headerInjection() {
        QFETCH(QByteArray, header);
        const QByteArray raw =
            rawExchange(m_service.port(), "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + "\r\n");
        QCOMPARE(rawStatus(raw), 400);
        QVERIFY(raw.contains("grpc-message: "));
    }

    void brokenRequestLine() {
        QCOMPARE(rawStatus(rawExchange(m_service.port(), "HELLO\r\n\r\n")), 400);
        QCOMPARE(rawStatus(rawExchange(m_service.port(), "GET /v1/status/%zz HTTP/1.1\r\nHost: x\r\n\r\n")),
                 400);
        QCOMPARE(rawStatus(rawExchange(m_service.port(), "GET /v1/health HTTP/9.9\r\nHost: x\r\n\r\n")), 400);
    }

    void idempotencyKeys_data() {
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("status");
        QTest::newRow("64 characters") << QByteArray(64, 'k') << 200;
        QTest::newRow("65 characters") << QByteArray(65, 'k') << 400;
        QTest::newRow("empty") << QByteArray() << 400;
        QTest::newRow("space") << QByteArray("a b") << 400;
        QTest::newRow("non-ascii") << QByteArray("cl\xc3\xa9") << 400;
        QTest::newRow("tab") << QByteArray("a\tb") << 400;
    }

    void idempotencyKeys() {
        QFETCH(QByteArray, key);
        QFETCH(int, status);
        const QByteArray raw =
            rawExchange(m_service.port(), postHead(m_credentials, "Idempotency-Key: " + key +
                                                                      "\r\nContent-Length: 26\r\n\r\n"
                                                                      R"({"statement": "SHOW JOBS"})"));
        QCOMPARE(rawStatus(raw), status);
        if (status != 200)
            QVERIFY(raw.contains("Idempotency-Key"));
    }

    void strangeStatements_data() {
        QTest::addColumn<QString>("statement");
        QTest::newRow("quotes") << QStringLiteral("DESCRIBE JOB 'a''b\"c'");
        QTest::newRow("backquotes") << QStringLiteral("DESCRIBE JOB `a``b`");
        QTest::newRow("unclosed backquote") << QStringLiteral("DESCRIBE JOB `abc");
        QTest::newRow("unclosed string") << QStringLiteral("CREATE JOB j TYPE = 'JAR");
        QTest::newRow("unicode") << QStringLiteral("DESCRIBE JOB `jöb-名前-🚀`");
        QTest::newRow("nul") << QStringLiteral("SHOW JOBS") + QChar(0) + QStringLiteral("; DELETE JOB x");
        QTest::newRow("only nul") << QString(QChar(0));
        QTest::newRow("empty") << QString();
        QTest::newRow("semicolons") << QStringLiteral("SHOW JOBS; SHOW JOBS");
        QTest::newRow("control characters") << QStringLiteral("SHOW\x01JOBS\x7f");
        QTest::newRow("deep parentheses") << QStringLiteral("CREATE JOB j TYPE = 'JAR' PARAMETERS = ") +
                                                 QString(5000, QLatin1Char('(')) +
                                                 QStringLiteral(" CLUSTER = 'c1'");
        QTest::newRow("many parameters") << QStringLiteral("CREATE JOB x TYPE = 'JAR' PARAMETERS = (") +
                                                QStringLiteral("'--conf', ").repeated(20000) +
                                                QStringLiteral(") CLUSTER = 'nope'");
        QTest::newRow("huge number") << QStringLiteral("SHOW JOB_RUNS LIMIT 99999999999999999999999999");
        QTest::newRow("negative number")
            << QStringLiteral("CREATE CLUSTER c9 TYPE = 'Spark' MAX_OCU = -1 MIN_OCU = -5");
        QTest::newRow("sql injection") << QStringLiteral("DESCRIBE JOB `x'; DROP TABLE jobs; --`");
    }

    void strangeStatements() {
        QFETCH(QString, statement);
        const nlohmann::json status = runStatement(m_service, m_credentials, statement);
        const QString apiStatus = QString::fromStdString(status.value("apiStatus", ""));
        QVERIFY2(apiStatus == QLatin1String("API_OPERATION_STATUS_INVALID") ||
                     apiStatus == QLatin1String("API_OPERATION_STATUS_FAILED"),
                 status.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        QVERIFY(!status.value("errorMessage", "").empty());
    }

    void idleAndSlowClientsDoNotStarveOthers() {
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < 60; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            socket->connectToHost(QStringLiteral("127.0.0.1"), m_service.port());
            QVERIFY(socket->waitForConnected(5000));
            if (i % 2 == 0) // half of them stall in the middle of a header
                socket->write("POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le");
            else if (i % 3 == 0) // some in the middle of a body
                socket->write(postHead(m_credentials, "Content-Length: 100\r\n\r\n{\"statement\""));
            socket->waitForBytesWritten(1000);
            sockets.push_back(std::move(socket));
        }
        QElapsedTimer timer;
        timer.start();
        const nlohmann::json status = runStatement(m_service, m_credentials, QStringLiteral("SHOW JOBS"));
        QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        // Far below the 30 s header timeout that a starved request would have to wait for.
        QVERIFY2(
            timer.elapsed() < 20000,
            qPrintable(QString("hang guard, below the 30 s header timeout: %1 ms").arg(timer.elapsed())));
    }

    void slowClientsAreCutOffByTheTimeouts() {
        TestService strict({QStringLiteral("--header-timeout"), QStringLiteral("1"),
                            QStringLiteral("--read-timeout"), QStringLiteral("1"),
                            QStringLiteral("--idle-timeout"), QStringLiteral("1")});
        QVERIFY2(strict.start(), qPrintable(strict.lastError()));
        QTcpSocket slowHeader;
        slowHeader.connectToHost(QStringLiteral("127.0.0.1"), strict.port());
        QVERIFY(slowHeader.waitForConnected(5000));
        slowHeader.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        QTcpSocket slowBody;
        slowBody.connectToHost(QStringLiteral("127.0.0.1"), strict.port());
        QVERIFY(slowBody.waitForConnected(5000));
        slowBody.write("POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{");
        QTcpSocket idle;
        idle.connectToHost(QStringLiteral("127.0.0.1"), strict.port());
        QVERIFY(idle.waitForConnected(5000));
        QElapsedTimer timer;
        timer.start();
        for (QTcpSocket* socket : {&slowHeader, &slowBody, &idle}) {
            while (socket->state() != QAbstractSocket::UnconnectedState && timer.elapsed() < 5000)
                socket->waitForDisconnected(100);
            QCOMPARE(socket->state(), QAbstractSocket::UnconnectedState);
        }
        QVERIFY(timer.elapsed() >= 500);
        QCOMPARE(strict.stop(), 0);
    }

    // Idle connections make room for new ones (tst_connectionlimits); 503 is for when every open
    // connection has a request in progress, here a body still being sent.
    void connectionCapAnswers503() {
        TestService capped({QStringLiteral("--max-connections"), QStringLiteral("3"),
                            QStringLiteral("--reserved-connections"), QStringLiteral("0")});
        QVERIFY2(capped.start(), qPrintable(capped.lastError()));
        std::vector<std::unique_ptr<QTcpSocket>> held;
        for (int i = 0; i < 3; ++i) {
            held.push_back(std::make_unique<QTcpSocket>());
            held.back()->connectToHost(QStringLiteral("127.0.0.1"), capped.port());
            QVERIFY(held.back()->waitForConnected(5000));
            held.back()->write("POST /v1/resource/ HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{");
            QVERIFY(held.back()->waitForBytesWritten(5000));
        }
        QTest::qWait(200);
        const QByteArray raw = rawExchange(capped.port(), "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", 5000);
        QCOMPARE(rawStatus(raw), 503);
        held.clear();
        QTest::qWait(200);
        QCOMPARE(rawStatus(rawExchange(capped.port(), "GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n", 5000)),
                 200);
    }

    // Text the request supplies that cannot name anything stored (bytes that are not UTF-8, a NUL) is
    // answered as a wrong value in the same place is (401 for credentials, 404 for an id in the path),
    // on both backends, without an error in the log (issue 27 item 15: PostgreSQL answered 500).
    void textThatIsNotUtf8IsAnsweredAsAWrongValue_data() {
        QTest::addColumn<QByteArray>("target");
        QTest::addColumn<QByteArray>("header"); // the credential header to replace, if any
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QByteArray>("likeTarget"); // a wrong value in the same place
        QTest::addColumn<QByteArray>("likeValue");
        const QByteArray status = "/v1/status/";
        QTest::newRow("project uid not UTF-8")
            << status + "x" << QByteArray("x-onehouse-project-uid") << QByteArray("\xff\xfe") << status + "x"
            << QByteArray("nope");
        QTest::newRow("project uid overlong") << status + "x" << QByteArray("x-onehouse-project-uid")
                                              << QByteArray("a\xc0\xaf"
                                                            "b")
                                              << status + "x" << QByteArray("nope");
        QTest::newRow("api key not UTF-8") << status + "x" << QByteArray("x-onehouse-api-key")
                                           << QByteArray("\xc3\x28") << status + "x" << QByteArray("nope");
        QTest::newRow("api secret not UTF-8")
            << status + "x" << QByteArray("x-onehouse-api-secret") << QByteArray("\xed\xa0\x80")
            << status + "x" << QByteArray("nope");
        QTest::newRow("status id not UTF-8")
            << status + "%FF%FE" << QByteArray() << QByteArray() << status + "nope" << QByteArray();
        QTest::newRow("status id with NUL")
            << status + "ab%00cd" << QByteArray() << QByteArray() << status + "abcd" << QByteArray();
        QTest::newRow("log job name not UTF-8")
            << QByteArray("/v1/jobs/%FF/runs/r1/log") << QByteArray() << QByteArray()
            << QByteArray("/v1/jobs/j/runs/r1/log") << QByteArray();
        QTest::newRow("log run id with NUL")
            << QByteArray("/v1/jobs/j/runs/r1%00/log") << QByteArray() << QByteArray()
            << QByteArray("/v1/jobs/j/runs/r1/log") << QByteArray();
    }

    void textThatIsNotUtf8IsAnsweredAsAWrongValue() {
        QFETCH(QByteArray, target);
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, value);
        QFETCH(QByteArray, likeTarget);
        QFETCH(QByteArray, likeValue);
        auto withValue = [&](const QByteArray& replacement) {
            HttpHeaders headers = m_credentials.headers();
            for (auto& [name, old] : headers)
                if (name.toLower() == header)
                    old = replacement;
            return headers;
        };
        const qsizetype logged = m_service.errorOutput().size();
        const QByteArray answer = rawGet(m_service.port(), target, withValue(value));
        const QByteArray neighbour = rawGet(m_service.port(), likeTarget, withValue(likeValue));
        QVERIFY2(rawStatus(neighbour) == 401 || rawStatus(neighbour) == 404, neighbour.constData());
        QVERIFY2(rawStatus(answer) == rawStatus(neighbour), answer.constData());
        if (target == likeTarget || target.startsWith("/v1/status/"))
            QCOMPARE(rawHeader(answer, "grpc-message"), rawHeader(neighbour, "grpc-message"));
        QVERIFY2(nlohmann::json::parse(rawBody(answer).toStdString(), nullptr, false).contains("error"),
                 answer.constData());
        const QString log = m_service.errorOutput().mid(logged);
        QVERIFY2(!log.contains(QStringLiteral("[error]")), qPrintable(log));
    }

    // A real request id with a NUL after it names nothing: PostgreSQL's text would end at the NUL.
    void aStatusIdWithATrailingNulIsNotFound() {
        const HttpResult posted = request(m_service.url(QStringLiteral("/v1/resource/")), "POST",
                                          R"({"statement": "SHOW CLUSTERS"})", m_credentials.headers());
        QCOMPARE(posted.status, 200);
        const QByteArray id = QByteArray::fromStdString(posted.json().value("requestId", std::string()));
        QVERIFY(!id.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(
            rawStatus(rawGet(m_service.port(), "/v1/status/" + id, m_credentials.headers())), 200, 10000);
        const QByteArray cut = rawGet(m_service.port(), "/v1/status/" + id + "%00", m_credentials.headers());
        QVERIFY2(rawStatus(cut) == 404, cut.constData());
        const QByteArray longer =
            rawGet(m_service.port(), "/v1/status/" + id + "%00x", m_credentials.headers());
        QVERIFY2(rawStatus(longer) == 404, longer.constData());
    }

private:
    // What the project holds, as the service reports it.
    nlohmann::json jobsAndClusters() {
        const nlohmann::json jobs = runStatement(m_service, m_credentials, QStringLiteral("SHOW JOBS"));
        const nlohmann::json clusters =
            runStatement(m_service, m_credentials, QStringLiteral("SHOW CLUSTERS"));
        return nlohmann::json::array(
            {jobs.value("apiResponse", nlohmann::json()), clusters.value("apiResponse", nlohmann::json())});
    }

    TestService m_service;
    ApiCredentials m_credentials;
    nlohmann::json m_jobsBefore;
};

JOBDECK_TEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
