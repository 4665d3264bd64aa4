// ApiClient's protocol against a scripted server: the statement + status flow, headers, error kinds,
// timeouts, and the retry rules (every write with its Idempotency-Key; reads are not re-sent).
#include "client/ApiClient.h"
#include "core/policy/IdempotencyKey.h"
#include "core/statements/StatementPrinter.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/client/FakeHttpServer.h"
#include "tests/runner/SuiteRegistry.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using namespace jobdeck::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

QByteArray status(const char* apiStatus, const json& response = json::object(), const char* error = nullptr,
                  const char* requestId = "req-1") {
    json j{{"apiStatus", apiStatus}, {"apiResponse", response}, {"requestId", requestId}};
    if (error)
        j["errorMessage"] = error;
    return httpResponse(200, QByteArray::fromStdString(j.dump()));
}

json sparkJobJson(const std::string& name) {
    return json{{"jobId", "j-1"},
                {"name", name},
                {"type", "JAR"},
                {"cluster", "demo_cluster"},
                {"parameters", {"--class", "A", "s3://b/app.jar"}},
                {"applicationPath", "s3://b/app.jar"},
                {"createdAt", "2026-11-30T05:01:46.123Z"},
                {"updatedAt", "2026-11-30T05:01:46.123Z"}};
}

std::string statementOf(const FakeRequest& r) {
    return json::parse(r.body.toStdString()).at("statement");
}

} // namespace

class TestApiClient final : public QObject {
    Q_OBJECT

    ApiClient* makeClient(const FakeHttpServer& server) {
        auto* client = new ApiClient(this);
        client->setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        client->setPreferWaitSeconds(2);
        client->setRequestTimeout(2s);
        client->setStatementTimeout(8s);
        client->setWriteRetryDelays({10ms, 10ms});
        return client;
    }

private slots:
    void statementWaitsThenPollsStatus() {
        int polls = 0;
        FakeHttpServer server([&](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.method == "POST")
                return status("API_OPERATION_STATUS_PENDING");
            if (r.path() == "/v1/status/req-1" && ++polls < 3)
                return status("API_OPERATION_STATUS_PENDING");
            return status("API_OPERATION_STATUS_SUCCESS",
                          {{"describeJobApiResponse", {{"sparkJob", sparkJobJson("count_transactions")}}}});
        });
        ApiClient* client = makeClient(server);
        const auto out = waitFor(client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QCOMPARE(out.value->name, std::string("count_transactions"));
        QCOMPARE(out.value->cluster, std::string("demo_cluster"));
        QCOMPARE(server.requests.size(), 4);
        const FakeRequest& post = server.requests.first();
        QCOMPARE(post.method, QByteArray("POST"));
        QCOMPARE(post.path(), QByteArray("/v1/resource/"));
        QCOMPARE(post.headers.value("prefer"), QByteArray("wait=2"));
        QCOMPARE(post.headers.value("x-onehouse-project-uid"), QByteArray("proj-1"));
        QCOMPARE(post.headers.value("x-onehouse-api-key"), QByteArray("key-1"));
        QCOMPARE(post.headers.value("x-onehouse-api-secret"), QByteArray("secret-1"));
        QVERIFY(!post.headers.contains("idempotency-key")); // only RUN JOB carries one
        QCOMPARE(statementOf(post), printStatement(DescribeJobStatement{"count_transactions"}));
        QCOMPARE(server.requests[1].method, QByteArray("GET"));
        QCOMPARE(server.requests[1].headers.value("x-onehouse-api-secret"), QByteArray("secret-1"));
    }

    void serviceWithoutPreferWaitIsPolled() {
        FakeHttpServer server([&](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.method == "POST")
                return httpResponse(200, R"({"requestId": "abc"})");
            return status("API_OPERATION_STATUS_SUCCESS",
                          {{"showJobsApiResponse", {{"sparkJobs", json::array()}}}}, nullptr, "abc");
        });
        const auto out = waitFor(makeClient(server)->showJobs());
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QVERIFY(out.value->empty());
        QCOMPARE(server.requests.last().path(), QByteArray("/v1/status/abc"));
    }

    void failedAndInvalidCarryTheExactMessage() {
        const char* failed = "Spark Job j-1 already has 1 active run(s) (max 1)";
        const char* invalid = "Unknown statement near 'DESCRIBEX'";
        const char* reason = "concurrent runs are not enabled for this project, so its MAX_CONCURRENT_RUNS "
                             "of 3 does not apply";
        FakeHttpServer server([&](const FakeRequest& r) -> std::optional<QByteArray> {
            if (statementOf(r).rfind("RUN JOB", 0) == 0) {
                json j{{"apiStatus", "API_OPERATION_STATUS_FAILED"},
                       {"apiResponse", json::object()},
                       {"errorMessage", failed},
                       {"errorReason", reason},
                       {"requestId", "req-1"}};
                return httpResponse(200, QByteArray::fromStdString(j.dump()));
            }
            return status("API_OPERATION_STATUS_INVALID", json::object(), invalid);
        });
        ApiClient* client = makeClient(server);
        const auto run = waitFor(client->runJob(QStringLiteral("count_transactions")));
        QVERIFY(run.error);
        QCOMPARE(run.error->kind, ApiError::Kind::Failed);
        QCOMPARE(run.error->message, QString::fromUtf8(failed));
        QCOMPARE(run.error->reason, QString::fromUtf8(reason)); // errorReason, for the console to show
        QCOMPARE(server.requests.size(), 1);                    // a refusal is an answer, not a lost response
        const auto del = waitFor(client->deleteJob(QStringLiteral("x")));
        QVERIFY(del.error);
        QCOMPARE(del.error->kind, ApiError::Kind::Invalid);
        QCOMPARE(del.error->message, QString::fromUtf8(invalid));
        QVERIFY(del.error->reason.isEmpty());
    }

    void unauthorizedIsAuth() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(401, R"({"error": "Unauthorized"})", {{"grpc-message", "Unauthorized"}});
        });
        const auto out = waitFor(makeClient(server)->describeProject());
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Auth);
        QCOMPARE(out.error->message, QStringLiteral("Unauthorized"));
    }

    void otherHttpRefusalsUseTheReasonLine() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(413, R"({"error": "Request body exceeds 1 MiB"})");
        });
        const auto out = waitFor(makeClient(server)->showJobs());
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Failed);
        QCOMPARE(out.error->message, QStringLiteral("Request body exceeds 1 MiB"));
    }

    void runJobRetriesALostResponseWithTheSameKey() {
        int posts = 0;
        FakeHttpServer server([&](const FakeRequest&) -> std::optional<QByteArray> {
            if (++posts == 1)
                return std::nullopt; // the service may have started the run; the answer is lost
            return status("API_OPERATION_STATUS_SUCCESS", {{"runJobApiResponse", {{"jobRunId", "run-7"}}}});
        });
        ApiClient* client = makeClient(server);
        const auto out =
            waitFor(client->runJob(QStringLiteral("count_transactions"), {{"--date", "2026-11-30"}}));
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QCOMPARE(*out.value, QStringLiteral("run-7"));
        QCOMPARE(server.requests.size(), 2);
        const QByteArray key = server.requests[0].headers.value("idempotency-key");
        QVERIFY(!key.isEmpty());
        QVERIFY(key.size() <= 64);
        QCOMPARE(server.requests[1].headers.value("idempotency-key"), key);
        QCOMPARE(statementOf(server.requests[1]),
                 printStatement(RunJobStatement{"count_transactions", {{"--date", "2026-11-30"}}}));
    }

    void runJobKeepsTheCallersKeyAndGivesUp() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> { return std::nullopt; });
        ApiClient* client = makeClient(server);
        const auto out = waitFor(client->runJob(QStringLiteral("j"), {}, QStringLiteral("daily-2026-11-30")));
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Network);
        // The first try and two retries (QNetworkAccessManager may re-send each once itself when the
        // connection drops before an answer).
        QVERIFY(server.requests.size() >= 3);
        for (const auto& r : server.requests)
            QCOMPARE(r.headers.value("idempotency-key"), QByteArray("daily-2026-11-30"));
    }

    void generatedKeysDifferPerRun() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> {
            return status("API_OPERATION_STATUS_SUCCESS", {{"runJobApiResponse", {{"jobRunId", "r"}}}});
        });
        ApiClient* client = makeClient(server);
        QVERIFY(waitFor(client->runJob(QStringLiteral("j"))).value);
        QVERIFY(waitFor(client->runJob(QStringLiteral("j"))).value);
        QCOMPARE(server.requests.size(), 2);
        QVERIFY(server.requests[0].headers.value("idempotency-key") !=
                server.requests[1].headers.value("idempotency-key"));
    }

    void otherWritesCarryAKeyAndAreRetriedWithIt() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> { return std::nullopt; });
        ApiClient* client = makeClient(server);
        const auto del = waitFor(client->deleteJob(QStringLiteral("count_transactions")));
        QVERIFY(del.error);
        QCOMPARE(del.error->kind, ApiError::Kind::Network);
        // The first try and two retries, every one with the same key: the service answers a repeated key
        // with the first request's answer, so the job is deleted once.
        QVERIFY2(server.requests.size() >= 3, qPrintable(QString::number(server.requests.size())));
        const QByteArray deleteKey = server.requests[0].headers.value("idempotency-key");
        QVERIFY(isValidIdempotencyKey(deleteKey.toStdString()));
        for (const auto& r : server.requests)
            QCOMPARE(r.headers.value("idempotency-key"), deleteKey);
        server.requests.clear();
        CreateJobStatement create{"x", JobType::Jar, {"s3://b/a.jar"}, "c", std::nullopt};
        const auto created = waitFor(client->createJob(create));
        QVERIFY(created.error);
        QVERIFY(server.requests.size() >= 3);
        const QByteArray createKey = server.requests[0].headers.value("idempotency-key");
        QVERIFY(isValidIdempotencyKey(createKey.toStdString()));
        QVERIFY(createKey != deleteKey); // one key per user action
    }

    void readsCarryNoKey() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> {
            return status("API_OPERATION_STATUS_SUCCESS",
                          {{"showClustersApiResponse", {{"clusters", json::array()}}}});
        });
        ApiClient* client = makeClient(server);
        QVERIFY(waitFor(client->showClusters()).value);
        QCOMPARE(server.requests.size(), 1);
        QVERIFY(!server.requests[0].headers.contains("idempotency-key"));
    }

    void anInvalidKeyIsRefusedBeforeSending() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> { return std::nullopt; });
        ApiClient* client = makeClient(server);
        const auto out = waitFor(client->runJob(QStringLiteral("j"), {}, QString(65, QChar('k'))));
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Invalid);
        QVERIFY2(out.error->message.contains("at most 64"), qPrintable(out.error->message));
        QCOMPARE(server.requests.size(), 0);
    }

    void silentServiceTimesOut() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> { return kHang; });
        ApiClient* client = makeClient(server);
        client->setPreferWaitSeconds(0);
        client->setRequestTimeout(300ms);
        QElapsedTimer timer;
        timer.start();
        const auto out = waitFor(client->showJobs(), 60000);
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Timeout);
        QVERIFY2(timer.elapsed() < 30000,
                 "hang guard (generous on a busy machine): the client's 300 ms timeout, not the test's 60 s "
                 "wait, ended the request");
    }

    void endlessPendingHitsTheStatementTimeout() {
        FakeHttpServer server([](const FakeRequest&) -> std::optional<QByteArray> {
            return status("API_OPERATION_STATUS_PENDING");
        });
        ApiClient* client = makeClient(server);
        client->setStatementTimeout(600ms);
        const auto out = waitFor(client->showClusters(), 5000);
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Timeout);
        QVERIFY2(out.error->message.contains("req-1"), qPrintable(out.error->message));
    }

    void unreadableAnswersAreProtocolErrors() {
        FakeHttpServer server([](const FakeRequest& r) -> std::optional<QByteArray> {
            if (statementOf(r) == printStatement(ShowJobsStatement{}))
                return httpResponse(200, "<html>not json</html>");
            return status("API_OPERATION_STATUS_SUCCESS",
                          {{"describeJobApiResponse", {{"sparkJob", {{"name", 1}}}}}});
        });
        ApiClient* client = makeClient(server);
        const auto jobs = waitFor(client->showJobs());
        QVERIFY(jobs.error);
        QCOMPARE(jobs.error->kind, ApiError::Kind::Protocol);
        const auto job = waitFor(client->describeJob(QStringLiteral("x")));
        QVERIFY(job.error);
        QCOMPARE(job.error->kind, ApiError::Kind::Protocol);
    }

    void noConnectionFailsClearly() {
        ApiClient client;
        const auto out = waitFor(client.showJobs());
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Network);
        QVERIFY(out.error->message.contains("No service connection"));
    }

    void refusedConnectionIsNetworkAndSignalled() {
        quint16 port = 0;
        {
            FakeHttpServer gone([](const FakeRequest&) -> std::optional<QByteArray> { return std::nullopt; });
            port = gone.port();
        }
        ApiClient client;
        client.setConnection({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), "p", "k", "s"});
        QSignalSpy unreachable(&client, &ApiClient::unreachable);
        const auto out = waitFor(client.describeProject());
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Network);
        QVERIFY(unreachable.count() >= 1);
    }

    void eventsLogAndHealthEndpoints() {
        FakeHttpServer server([](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.path() == "/v1/events")
                return httpResponse(200, R"({"events": [{"seq": 5, "type": "JOB_CREATED", "jobName": "a",
                    "jobRunId": null, "status": null, "at": "2026-11-30T05:01:46.123Z"}], "next": 5, "reload": false})");
            if (r.path() == "/v1/health")
                return httpResponse(200, R"({"status": "ok", "version": "0.1.0"})");
            return httpResponse(200, "line 1\n", {{"X-Log-Next-Offset", "107"}, {"X-Log-Complete", "true"}});
        });
        ApiClient* client = makeClient(server);
        const auto page = waitFor(client->events(3, 1));
        QVERIFY2(page.value, qPrintable(page.errorText()));
        QCOMPARE(page.value->next, 5);
        QCOMPARE(page.value->events.size(), std::size_t(1));
        QCOMPARE(page.value->events[0].jobName, std::string("a"));
        QCOMPARE(server.requests.last().target, QByteArray("/v1/events?after=3&wait=1"));
        const auto log = waitFor(client->runLog(QStringLiteral("my job"), QStringLiteral("r/1"), 100, 50));
        QVERIFY2(log.value, qPrintable(log.errorText()));
        QCOMPARE(log.value->data, QByteArray("line 1\n"));
        QCOMPARE(log.value->nextOffset, 107);
        QVERIFY(log.value->complete);
        QCOMPARE(server.requests.last().target,
                 QByteArray("/v1/jobs/my%20job/runs/r%2F1/log?offset=100&limit=50"));
        const auto health = waitFor(client->health());
        QVERIFY2(health.value, qPrintable(health.errorText()));
        QCOMPARE(*health.value, QStringLiteral("0.1.0"));
        QVERIFY(!server.requests.last().headers.contains("x-onehouse-api-secret")); // health needs none
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestApiClient)
#include "tst_apiclient.moc"
