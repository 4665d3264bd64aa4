// A large SHOW JOBS answer is decoded off the GUI thread: the event loop keeps turning meanwhile,
// and the jobs are exactly what decoding on the spot gives. The answer is served canned: creating
// 20,000 jobs through jobdeckd one statement at a time would take minutes.
#include "client/ApiClient.h"
#include "core/ApiStatus.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/client/FakeHttpServer.h"
#include "tests/client/ShowJobsAnswer.h"

#include <QElapsedTimer>
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

} // namespace

class TestLargeAnswers final : public QObject {
    Q_OBJECT

private slots:
    void showJobsDecodesOffTheGuiThread() {
        const QByteArray answer = showJobsAnswer(makeJobs());
        FakeHttpServer server([&answer](const FakeRequest&) -> std::optional<QByteArray> {
            return httpResponse(200, answer, {{"Content-Type", "application/json"}});
        });

        // The decode the client did on the GUI thread before, timed here as the stall to beat.
        QElapsedTimer syncTimer;
        syncTimer.start();
        const std::vector<SparkJob> expected =
            json::parse(answer.begin(), answer.end())["apiResponse"]["showJobsApiResponse"]["sparkJobs"]
                .get<std::vector<SparkJob>>();
        const qint64 syncMs = syncTimer.elapsed();
        QCOMPARE(expected.size(), std::size_t(kJobs));

        ApiClient client;
        client.setConnection({QUrl(server.url()), "proj-1", "key-1", "secret-1"});
        client.setRequestTimeout(30s);
        client.setStatementTimeout(60s);

        int ticks = 0;
        qint64 longestGapMs = 0;
        QElapsedTimer sinceTick;
        QTimer ticker;
        ticker.setInterval(5);
        connect(&ticker, &QTimer::timeout, this, [&] {
            if (ticks++ > 0)
                longestGapMs = std::max(longestGapMs, sinceTick.elapsed());
            sinceTick.restart();
        });
        ticker.start();
        const auto out = waitFor(client.showJobs(), 60000);
        ticker.stop();

        qInfo("GUI thread's longest stall %lld ms in %d ticks; decoding on it takes %lld ms", longestGapMs,
              ticks, syncMs);
        QVERIFY2(out.value, qPrintable(out.errorText()));
        QVERIFY(*out.value == expected);
        QVERIFY2(ticks >= 10, qPrintable(QStringLiteral("only %1 ticks").arg(ticks)));
        QVERIFY2(longestGapMs * 2 < syncMs,
                 qPrintable(QStringLiteral("the GUI thread stood still %1 ms; decoding on it takes %2 ms")
                                .arg(longestGapMs)
                                .arg(syncMs)));
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
};

QTEST_GUILESS_MAIN(TestLargeAnswers)
#include "tst_largeanswers.moc"
