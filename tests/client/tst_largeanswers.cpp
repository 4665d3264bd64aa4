// Large SHOW JOBS and SHOW JOBS SUMMARY answers are decoded on the client's decoder thread into exactly
// what from_json gives on the spot; answers keep their order and errors; a transfer cut short is a
// network error. The answers are served canned: creating 20,000 jobs through jobdeckd one statement at
// a time would take minutes (bench_jobslist_e2e loads 100,000 from the real service).
#include "client/ApiClient.h"
#include "core/wire/ApiStatus.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/client/FakeHttpServer.h"
#include "tests/client/ShowJobsAnswer.h"
#include "tests/runner/SuiteRegistry.h"

#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <string>

using namespace jobdeck;
using namespace jobdeck::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr int kJobs = 20000;

// Varied jobs: unicode, escapes, optional fields present or absent.
std::vector<SparkJob> makeJobs() {
    std::vector<SparkJob> jobs;
    const TimePoint base = timestampNow();
    for (int i = 0; i < kJobs; ++i) {
        SparkJob j;
        j.jobId = "00000000-0000-0000-0000-" + std::to_string(100000000000 + i);
        j.name = "job_" + std::to_string(i);
        j.type = i % 3 == 0 ? JobType::Python : JobType::Jar;
        j.cluster = "cluster_" + std::to_string(i % 50);
        j.applicationPath = "s3://bucket/jobs/\u00e9t\u00e9_" + std::to_string(i) + (i % 3 ? ".jar" : ".py");
        j.parameters = {"--class", "com.example.App", "--note", "tab\there \"quoted\" \\ \u2603"};
        if (i % 2)
            j.arguments = {"--date", "2026-11-30"};
        if (i % 5 == 0)
            j.hudiConfigs = {{"hoodie.datasource.meta.sync.glue.catalogId", "123456789012"}};
        j.maxConcurrentRuns = 1 + i % 4;
        j.createdAt = base - std::chrono::minutes(i);
        j.updatedAt = base - std::chrono::seconds(i);
        jobs.push_back(std::move(j));
    }
    return jobs;
}

std::vector<SparkJob> firstJobs(std::size_t n) {
    std::vector<SparkJob> jobs = makeJobs();
    jobs.resize(n);
    return jobs;
}

// Answers every connection with `head` and the first `firstPart` bytes of `body` at once, then after
// `pause` either the rest (cut = false) or nothing more, dropping the connection (cut = true): the
// client reads the first part while the rest is on its way.
class SlowServer final {
public:
    SlowServer(QByteArray body, qsizetype firstPart, std::chrono::milliseconds pause, bool cut) {
        QObject::connect(&m_server, &QTcpServer::newConnection, &m_server, [=, this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                QObject::connect(socket, &QTcpSocket::readyRead, socket, [=] {
                    if (!socket->readAll().contains("\r\n\r\n") || socket->property("answered").toBool())
                        return;
                    socket->setProperty("answered", true);
                    socket->write(httpResponse(200, body).chopped(body.size() - firstPart));
                    QTimer::singleShot(pause, socket, [=] {
                        if (cut) {
                            socket->abort();
                            return;
                        }
                        socket->write(body.mid(firstPart));
                        socket->disconnectFromHost();
                    });
                });
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }

private:
    QTcpServer m_server;
};

} // namespace

class TestLargeAnswers final : public QObject {
    Q_OBJECT

private slots:
    // How long the GUI thread stands still is a figure that depends on the machine, so bench_jobslist_e2e
    // measures it. Here: the decoded jobs are exactly what decoding on the spot gives.
    void showJobsDecodesEveryJob() {
        const QByteArray answer = showJobsAnswer(makeJobs());
        FakeHttpServer server([&answer](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(200, answer, {{"Content-Type", "application/json"}});
        });
        const std::vector<SparkJob> expected =
            json::parse(answer.begin(), answer.end())["apiResponse"]["showJobsApiResponse"]["sparkJobs"]
                .get<std::vector<SparkJob>>();
        QCOMPARE(expected.size(), std::size_t(kJobs));

        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        client.setRequestTimeout(30s);
        client.setStatementTimeout(60s);
        const auto out = waitFor(client.showJobs(), 60000);
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QVERIFY(*out.value == expected);
    }

    void showJobSummariesDecodesEverySummary() {
        std::vector<SparkJobSummary> summaries;
        for (const SparkJob& job : makeJobs())
            summaries.push_back(summaryOf(job));
        const QByteArray answer = showJobSummariesAnswer(summaries);
        FakeHttpServer server([&answer](const FakeRequest& r) -> std::optional<QByteArray> {
            if (!r.body.contains("SHOW JOBS SUMMARY"))
                return httpResponse(400, R"({"error": "not the summary"})");
            return httpResponse(200, answer, {{"Content-Type", "application/json"}});
        });
        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        client.setRequestTimeout(30s);
        const auto out = waitFor(client.showJobSummaries(), 60000);
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QCOMPARE(out.value->size(), std::size_t(kJobs));
        QVERIFY(*out.value == summaries);
    }

    void aSummaryThatCannotBeReadIsAProtocolError() {
        // Summaries are decoded while the answer is parsed: the first unreadable one names its problem,
        // and the rest of the answer (its status) is read as usual.
        std::vector<SparkJobSummary> summaries(3);
        summaries[0].name = "a";
        summaries[1].name = "b";
        summaries[2].name = "c";
        json answer = json::parse(showJobSummariesAnswer(summaries).toStdString());
        answer["apiResponse"]["showJobsSummaryApiResponse"]["jobs"][1][1] = "SQL";
        FakeHttpServer server([&answer](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(200, QByteArray::fromStdString(answer.dump()));
        });
        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        const auto out = waitFor(client.showJobSummaries());
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Protocol);
        QCOMPARE(out.error->message,
                 QStringLiteral("Unexpected answer from the service: [json.exception.type_error.302] "
                                "sparkJobSummary.type has an unknown value 'SQL' (expected JAR or PYTHON)"));

        answer["apiResponse"]["showJobsSummaryApiResponse"]["jobs"] = json::object({{"x", json::array({1})}});
        const auto notAList = waitFor(client.showJobSummaries());
        QVERIFY(notAList.error);
        QCOMPARE(notAList.error->kind, ApiError::Kind::Protocol);

        answer = json::parse(showJobSummariesAnswer(summaries).toStdString());
        answer["apiStatus"] = "API_OPERATION_STATUS_FAILED";
        answer["errorMessage"] = "Permission denied: viewer cannot SHOW JOBS";
        const auto failed = waitFor(client.showJobSummaries());
        QVERIFY(failed.error);
        QCOMPARE(failed.error->kind, ApiError::Kind::Failed);
        QCOMPARE(failed.error->message, QStringLiteral("Permission denied: viewer cannot SHOW JOBS"));
    }

    void answersKeepTheirErrors() {
        // Decoding off the thread keeps each failure's kind and exact message.
        FakeHttpServer server([](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.body.contains("SHOW CLUSTERS"))
                return httpResponse(200, "{not json");
            if (r.body.contains("DESCRIBE JOB"))
                return httpResponse(
                    200, QByteArray::fromStdString(json{{"apiStatus", "API_OPERATION_STATUS_INVALID"},
                                                        {"errorMessage", "Job 'x' does not exist"}}
                                                       .dump()));
            return httpResponse(
                200, QByteArray::fromStdString(
                         json(ApiStatus::success({{"showJobsApiResponse", {{"sparkJobs", json::array()}}}}))
                             .dump()));
        });
        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        const auto clusters = waitFor(client.showClusters());
        QVERIFY(clusters.error);
        QCOMPARE(clusters.error->kind, ApiError::Kind::Protocol);
        QCOMPARE(clusters.error->message, QStringLiteral("The service answered with invalid JSON"));
        const auto job = waitFor(client.describeJob(QStringLiteral("x")));
        QVERIFY(job.error);
        QCOMPARE(job.error->kind, ApiError::Kind::Invalid);
        QCOMPARE(job.error->message, QStringLiteral("Job 'x' does not exist"));

        // Several answers decoding at once each reach their own reply.
        std::vector<int> order;
        QObject context;
        for (int i = 0; i < 5; ++i)
            client.showJobs()->then(&context, [&order, i](const ApiReply<std::vector<SparkJob>>& r) {
                order.push_back(r.isError() ? -1 : i);
            });
        QVERIFY(QTest::qWaitFor([&] { return order.size() == 5; }, 20000));
        for (int i = 0; i < 5; ++i)
            QVERIFY(order[i] >= 0);
    }

    void aTransferCutShortIsANetworkErrorNotADecodeError() {
        // Half an answer is not decoded: the caller gets the transfer's error.
        const QByteArray answer = showJobsAnswer(firstJobs(200));
        SlowServer server(answer, answer.size() / 2, 100ms, true);
        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        const auto out = waitFor(client.showJobs(), 20000);
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Network);
        QVERIFY2(out.error->message.startsWith(QStringLiteral("Cannot reach %1: ").arg(server.url())),
                 qPrintable(out.error->message));
    }

    void aClientGoneMidTransferDoesNotWaitForTheRest() {
        // The transfer half done: the client's end neither waits for the rest nor calls back.
        const QByteArray answer = showJobsAnswer(firstJobs(200));
        SlowServer server(answer, answer.size() / 2, 60s, false);
        QElapsedTimer t;
        {
            ApiClient client;
            client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
            bool called = false;
            client.showJobs()->then(&client, [&called](const auto&) { called = true; });
            QTest::qWait(300); // the first half is in
            QVERIFY(!called);
            t.start();
        }
        QVERIFY2(t.elapsed() < 30000,
                 qPrintable(
                     QStringLiteral("hang guard (generous on a busy machine): destroying the client did not "
                                    "wait out the server's 60 s; it took %1 ms")
                         .arg(t.elapsed())));
    }

    void showJobsKeepsEveryOutcome() {
        // Every status and every refusal of SHOW JOBS reads as it does for the other statements, with
        // the same messages.
        const auto answerOf = [](const std::string& jobs) {
            return R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":)" + jobs +
                   R"(}},"apiStatus":"API_OPERATION_STATUS_SUCCESS"})";
        };
        const std::string oneJob =
            R"([{"jobId":"j","name":"n","type":"JAR","cluster":"c","parameters":["a"],)"
            R"("createdAt":"2026-11-30T05:01:46Z","updatedAt":"2026-11-30T05:01:46Z"}])";
        QByteArray body;
        const auto serveBody = [&body](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(200, body);
        };
        FakeHttpServer server(serveBody);
        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        const auto show = [&](const std::string& answer) {
            body = QByteArray::fromStdString(answer);
            return waitFor(client.showJobs(), 10000);
        };
        const auto fromJsonError = [](const std::string& jobs) {
            try {
                json::parse(jobs).get<std::vector<SparkJob>>();
            } catch (const json::exception& e) {
                return QStringLiteral("Unexpected answer from the service: %1")
                    .arg(QString::fromUtf8(e.what()));
            }
            return QString();
        };

        auto out = show(answerOf(oneJob));
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QCOMPARE(*out.value, json::parse(oneJob).get<std::vector<SparkJob>>());

        // PENDING, then the job list from the status poll.
        server.setHandler([&](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.method == "POST")
                return httpResponse(200, R"({"apiStatus":"API_OPERATION_STATUS_PENDING","requestId":"q-1"})");
            return httpResponse(200, QByteArray::fromStdString(answerOf(oneJob)));
        });
        out = waitFor(client.showJobs(), 10000);
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QCOMPARE(out.value->size(), std::size_t(1));
        QCOMPARE(server.requests.last().path(), QByteArray("/v1/status/q-1"));
        server.setHandler(serveBody);

        out = show(R"({"apiStatus":"API_OPERATION_STATUS_FAILED","errorMessage":"Project p is gone"})");
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Failed);
        QCOMPARE(out.error->message, QStringLiteral("Project p is gone"));
        out = show(R"({"apiResponse":{"showJobsApiResponse":{"sparkJobs":[1]}},)"
                   R"("apiStatus":"API_OPERATION_STATUS_INVALID","errorMessage":"Bad statement"})");
        QVERIFY(out.error);
        QCOMPARE(out.error->kind, ApiError::Kind::Invalid);
        QCOMPARE(out.error->message, QStringLiteral("Bad statement"));

        // Not JSON, cut short, or invalid UTF-8: the message of any invalid answer.
        for (const std::string& bad :
             {std::string("{not json"), answerOf(oneJob).substr(0, 120), answerOf("[\"\xff\"]")}) {
            out = show(bad);
            QVERIFY(out.error);
            QCOMPARE(out.error->kind, ApiError::Kind::Protocol);
            QCOMPARE(out.error->message, QStringLiteral("The service answered with invalid JSON"));
        }

        // Well-formed but not jobs: from_json's own message.
        for (const std::string& jobs : {std::string(R"([{"name":"x"}])"), std::string("[1]"),
                                        std::string(R"([{"jobId":"j","name":"n","type":"SCALA"}])")}) {
            out = show(answerOf(jobs));
            QVERIFY(out.error);
            QCOMPARE(out.error->kind, ApiError::Kind::Protocol);
            QCOMPARE(out.error->message, fromJsonError(jobs));
        }
        for (const std::string& response :
             {std::string(R"({"showJobsApiResponse":{}})"),
              std::string(R"({"showJobsApiResponse":{"sparkJobs":{}}})"), std::string(R"({"other":1})")}) {
            out = show(R"({"apiResponse":)" + response + R"(,"apiStatus":"API_OPERATION_STATUS_SUCCESS"})");
            QVERIFY(out.error);
            QCOMPARE(out.error->kind, ApiError::Kind::Protocol);
            QVERIFY2(out.error->message.startsWith(QStringLiteral("Unexpected answer from the service: ")),
                     qPrintable(out.error->message));
        }
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestLargeAnswers)
#include "tst_largeanswers.moc"
