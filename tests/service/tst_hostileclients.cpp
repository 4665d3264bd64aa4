// What one hostile or broken client sends must never reach another client, the audit log's other
// entries, the status of another request or the log's line structure (the real jobdeckd, loopback).
#include "core/text/Utf8.h"
#include "service/runs/InternalFailure.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/SqliteStores.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <string>

using namespace jobdeck;
using namespace jobdeck::teststatus;

namespace {

// POST /v1/resource/ with `Prefer: wait=10`, the credentials and `extraHeaders` (raw lines), as bytes.
QByteArray rawStatementRequest(const ApiCredentials& who, const QByteArray& body,
                               const QByteArray& extraHeaders = {}) {
    QByteArray raw = "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     "Prefer: wait=10\r\nConnection: close\r\n";
    for (const auto& [name, value] : who.headers())
        raw += name + ": " + value + "\r\n";
    raw += extraHeaders;
    raw += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    return raw;
}

QByteArray statementBody(const std::string& statement) {
    return QByteArray::fromStdString(nlohmann::json{{"statement", statement}}.dump());
}

QByteArray rawHeader(const QByteArray& raw, const QByteArray& name) {
    const QByteArray head = raw.left(raw.indexOf("\r\n\r\n"));
    for (const QByteArray& line : head.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

nlohmann::json rawJsonBody(const QByteArray& raw) {
    const qsizetype split = raw.indexOf("\r\n\r\n");
    return split < 0 ? nlohmann::json()
                     : nlohmann::json::parse(raw.mid(split + 4).toStdString(), nullptr, false);
}

bool isUtf8(const QByteArray& bytes) {
    return isValidUtf8(std::string_view(bytes.constData(), std::size_t(bytes.size())));
}

// The audit entries of `who`'s project, newest first (SHOW AUDIT_LOG; needs an admin key).
nlohmann::json auditOf(const TestService& service, const ApiCredentials& who) {
    const auto status = runStatement(service, who, QStringLiteral("SHOW AUDIT_LOG LIMIT 100"));
    return status.value("apiResponse", nlohmann::json::object())
        .value("showAuditLogApiResponse", nlohmann::json::object())
        .value("auditEntries", nlohmann::json::array());
}

bool auditHasRequest(const nlohmann::json& entries, const std::string& requestId) {
    for (const auto& entry : entries)
        if (entry.value("requestId", std::string()) == requestId)
            return true;
    return false;
}

} // namespace

class TestHostileClients : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_alpha = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("admin"));
        m_beta = m_service.createKey(QStringLiteral("beta"), QStringLiteral("admin"));
        QVERIFY2(m_alpha.isValid() && m_beta.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statementSucceeds(
            m_service, m_alpha, QStringLiteral("CREATE CLUSTER c1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")));
    }

    // Issue 19 item 2: invalid UTF-8 in audited headers is recorded with U+FFFD, and neither the
    // queued group it joins (other projects' read entries) nor the next durable write fails.
    void invalidUtf8InAuditedHeadersHarmsNoOne() {
        // beta's read entry is queued first, then alpha's reads with the bad headers join its group.
        const QByteArray betaRead =
            rawExchange(m_service.port(), rawStatementRequest(m_beta, statementBody("SHOW CLUSTERS"),
                                                              "x-onehouse-region: eu-west-1\r\n"));
        QCOMPARE(rawStatus(betaRead), 200);
        const std::string betaRequest = rawJsonBody(betaRead).value("requestId", std::string());
        QVERIFY(!betaRequest.empty());
        std::vector<std::string> alphaRequests;
        for (const QByteArray& header :
             {QByteArray("x-onehouse-region: \xff\r\n"), QByteArray("x-onehouse-account-uid: \xfe\r\n")}) {
            const QByteArray answer = rawExchange(
                m_service.port(), rawStatementRequest(m_alpha, statementBody("SHOW CLUSTERS"), header));
            QCOMPARE(rawStatus(answer), 200);
            const auto status = rawJsonBody(answer);
            QCOMPARE(statusOf(status), kSuccess);
            alphaRequests.push_back(status.value("requestId", std::string()));
        }
        // The next durable write of another project (it commits the queued group first).
        const auto write = runStatement(
            m_service, m_beta, QStringLiteral("CREATE CLUSTER b1 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
        QVERIFY2(statusOf(write) == kSuccess, write.dump().c_str());

        const auto betaAudit = auditOf(m_service, m_beta);
        QVERIFY2(auditHasRequest(betaAudit, betaRequest), betaAudit.dump().c_str());
        const auto alphaAudit = auditOf(m_service, m_alpha);
        QVERIFY2(auditHasRequest(alphaAudit, alphaRequests[0]), alphaAudit.dump().c_str());
        QVERIFY2(auditHasRequest(alphaAudit, alphaRequests[1]), alphaAudit.dump().c_str());
        bool replaced = false;
        for (const auto& entry : alphaAudit)
            replaced =
                replaced || entry.value("headers", nlohmann::json::object()).value("x-onehouse-region", "") ==
                                "\xEF\xBF\xBD";
        QVERIFY2(replaced, alphaAudit.dump().c_str());
        // And alpha's own next durable write too.
        QVERIFY(statementSucceeds(
            m_service, m_alpha, QStringLiteral("CREATE CLUSTER a2 TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")));
    }

    // An unexpected exception's text is logged, never put in errorMessage.
    void internalErrorsNameNoInternals() {
        RequestContext context;
        context.requestId = "req-1";
        const nlohmann::json::type_error error =
            nlohmann::json::type_error::create(316, "invalid UTF-8 byte at index 0: 0xFF", nullptr);
        const ApiStatus status = failedInternally(context, "SHOW JOBS", error);
        QCOMPARE(status.apiStatus, ApiOperationStatus::Failed);
        QVERIFY(status.errorMessage.has_value());
        QVERIFY2(status.errorMessage->find("json") == std::string::npos, status.errorMessage->c_str());
        QVERIFY2(status.errorMessage->find("req-1") != std::string::npos, status.errorMessage->c_str());
    }

    // Issue 19 item 11: which of two statements a body means is not guessed.
    void repeatedKeysAreRefused_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("key");
        QTest::newRow("statement twice")
            << QByteArray(R"({"statement":"DESCRIBE CLUSTER c1","statement":"DELETE CLUSTER c1"})")
            << QByteArray("statement");
        QTest::newRow("other key twice")
            << QByteArray(R"({"statement":"SHOW CLUSTERS","x":1,"x":2})") << QByteArray("x");
    }
    void repeatedKeysAreRefused() {
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, key);
        const QByteArray answer = rawExchange(m_service.port(), rawStatementRequest(m_alpha, body));
        QCOMPARE(rawStatus(answer), 400);
        const QByteArray reason = rawHeader(answer, "grpc-message");
        QVERIFY2(reason.contains("\"" + key + "\" more than once"), reason.constData());
        QCOMPARE(rawJsonBody(answer).value("error", std::string()), reason.toStdString());
        const auto cluster = runStatement(m_service, m_alpha, QStringLiteral("DESCRIBE CLUSTER c1"));
        QCOMPARE(statusOf(cluster), kSuccess);
    }

    // A key repeated inside a nested object is the JSON parser's business, not a second statement.
    void repeatedNestedKeysAreAccepted() {
        const QByteArray answer =
            rawExchange(m_service.port(),
                        rawStatementRequest(m_alpha, R"({"statement":"SHOW CLUSTERS","m":{"a":1,"a":2}})"));
        QCOMPARE(rawStatus(answer), 200);
        QCOMPARE(statusOf(rawJsonBody(answer)), kSuccess);
    }

    // Issue 19 item 13: grpc-message is UTF-8 whatever bytes the path had, and the body says the same.
    void grpcMessageIsAlwaysUtf8_data() {
        QTest::addColumn<QByteArray>("target");
        QTest::newRow("percent-encoded") << QByteArray("/v1/nothing%FF%FE");
        QTest::newRow("raw bytes") << QByteArray("/v1/nothing\xff\xfe");
        QTest::newRow("status id") << QByteArray("/v1/health/%C3%28");
    }
    void grpcMessageIsAlwaysUtf8() {
        QFETCH(QByteArray, target);
        const QByteArray answer = rawExchange(
            m_service.port(), "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        QVERIFY2(rawStatus(answer) >= 400, answer.constData());
        const QByteArray reason = rawHeader(answer, "grpc-message");
        QVERIFY(!reason.isEmpty());
        QVERIFY2(isUtf8(reason), reason.toHex().constData());
        QCOMPARE(rawJsonBody(answer).value("error", std::string()), reason.toStdString());
    }

    // Issue 19 item 9: an unknown key and a known key with a wrong secret look alike on the wire.
    void unknownKeyAndWrongSecretAnswerAlike() {
        QVERIFY(statementSucceeds(m_service, m_alpha, QStringLiteral("SHOW CLUSTERS"))); // the key is cached
        ApiCredentials wrongSecret = m_alpha;
        wrongSecret.apiSecret = QString(m_alpha.apiSecret.size(), QLatin1Char('0'));
        ApiCredentials unknownKey = m_alpha;
        unknownKey.apiKey = QString(m_alpha.apiKey.size(), QLatin1Char('0'));
        const QByteArray body = statementBody("SHOW CLUSTERS");
        const QByteArray a = rawExchange(m_service.port(), rawStatementRequest(wrongSecret, body));
        const QByteArray b = rawExchange(m_service.port(), rawStatementRequest(unknownKey, body));
        QCOMPARE(rawStatus(a), 401);
        QCOMPARE(rawStatus(b), 401);
        QCOMPARE(rawHeader(a, "grpc-message"), rawHeader(b, "grpc-message"));
        QCOMPARE(a.mid(a.indexOf("\r\n\r\n")), b.mid(b.indexOf("\r\n\r\n")));
    }

    // ... and cost the same work: one lookup of the key and one hash each, cached key or not.
    void unknownKeyAndWrongSecretDoTheSameWork() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto stores = SqliteStores::open(dir.filePath(QStringLiteral("jobdeck.db")).toStdString());
        const CreatedKey key = stores->keys().createKey("p", Role::Viewer);
        QVERIFY(stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret)); // now cached
        const std::string wrong(key.apiSecret.size(), '0');
        auto cost = [&](const std::string& apiKey) {
            const auto lookups = stores->keys().keyLookups();
            const auto hashes = stores->keys().secretComparisons();
            const bool ok = stores->keys().authenticate(key.projectUid, apiKey, wrong).has_value();
            return std::tuple(ok, stores->keys().keyLookups() - lookups,
                              stores->keys().secretComparisons() - hashes);
        };
        const auto knownKey = cost(key.apiKey);
        const auto unknownKey = cost(std::string(key.apiKey.size(), '0'));
        QCOMPARE(std::get<0>(knownKey), false);
        QCOMPARE(std::get<0>(unknownKey), false);
        QCOMPARE(std::get<1>(knownKey), std::get<1>(unknownKey));
        QCOMPARE(std::get<2>(knownKey), std::get<2>(unknownKey));
        QCOMPARE(std::get<1>(unknownKey), std::uint64_t(1));
    }

    // Issue 19 item 10: what a client names (a job with line breaks, a path) never starts a log line.
    void logLinesEscapeControlCharacters() {
        const QString name = QStringLiteral("`evil\n[2026-01-01 00:00:00.000] [jobdeckd] [info] FORGED`");
        QVERIFY(statementSucceeds(
            m_service, m_alpha,
            "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = ( '/nonexistent/app.py' ) CLUSTER = 'c1'"));
        const auto run = runStatement(m_service, m_alpha, "RUN JOB " + name);
        QCOMPARE(statusOf(run), kSuccess);
        QCOMPARE(rawStatus(rawExchange(m_service.port(), "GET /v1/x%0A[info]%20FORGED HTTP/1.1\r\nHost: "
                                                         "127.0.0.1\r\nConnection: close\r\n\r\n")),
                 404);
        // The run ends at once (its application is missing): wait for its "ended" line.
        QElapsedTimer timer;
        timer.start();
        while (!m_service.errorOutput().contains(QStringLiteral(" ended ")) && timer.elapsed() < 20000)
            QThread::msleep(100);
        const QString log = m_service.errorOutput();
        QVERIFY2(
            log.contains(QStringLiteral("of job evil\\n[2026-01-01 00:00:00.000] [jobdeckd] [info] FORGED")),
            qPrintable(log.right(3000)));
        QVERIFY2(log.contains(QStringLiteral("path=/v1/x\\n[info] FORGED")), qPrintable(log.right(3000)));
        for (const QString& line : log.split(QLatin1Char('\n')))
            QVERIFY2(!line.contains(QStringLiteral("FORGED")) ||
                         !line.startsWith(QStringLiteral("[2026-01-01")),
                     qPrintable(line));
        for (const QString& line : log.split(QLatin1Char('\n')))
            QVERIFY2(!line.startsWith(QStringLiteral("[info] FORGED")), qPrintable(line));
    }

    void cleanupTestCase() { QCOMPARE(m_service.stop(), 0); }

private:
    TestService m_service;
    ApiCredentials m_alpha;
    ApiCredentials m_beta;
};

JOBDECK_TEST_GUILESS_MAIN(TestHostileClients)
#include "tst_hostileclients.moc"
