// The long-lived followers: EventsSubscription (one poll at a time, back-off, reload), LogTail
// (offsets until complete) and ConnectionMonitor (lost, reconnecting, back by itself; refused keys).
#include "client/ApiClient.h"
#include "client/ConnectionMonitor.h"
#include "client/EventsSubscription.h"
#include "client/LogTail.h"
#include "tests/client/FakeHttpServer.h"
#include "tests/runner/SuiteRegistry.h"

#include <QSignalSpy>
#include <QTest>
#include <QUrlQuery>

using namespace jobdeck;
using namespace jobdeck::test;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(jobdeck::ApiError)

namespace {

QByteArray eventJson(int seq, const char* type, const char* job) {
    return QStringLiteral(R"({"seq": %1, "type": "%2", "jobName": "%3", "jobRunId": null, "status": null,
        "at": "2026-11-30T05:01:46.123Z"})")
        .arg(seq)
        .arg(QString::fromLatin1(type), QString::fromLatin1(job))
        .toUtf8();
}

QString queryValue(const FakeRequest& r, const QString& key) {
    const auto q = r.target.indexOf('?');
    return QUrlQuery(QString::fromUtf8(r.target.mid(q + 1))).queryItemValue(key);
}

ApiClient* makeClient(QObject* parent, const FakeHttpServer& server) {
    auto* client = new ApiClient(parent);
    client->setConnection({QUrl(server.url()), "p", "k", "s"});
    client->setRequestTimeout(2s);
    return client;
}

} // namespace

class TestLiveUpdates final : public QObject {
    Q_OBJECT
private slots:
    void eventsBackOffReloadAndContinue() {
        int calls = 0;
        FakeHttpServer server([&](const FakeRequest& r) -> std::optional<QByteArray> {
            ++calls;
            if (calls <= 3)
                return httpResponse(503, R"({"error": "busy"})", {{"grpc-message", "busy"}});
            if (calls == 4)
                return httpResponse(200, "{\"events\": [" + eventJson(41, "JOB_CREATED", "a") + "," +
                                             eventJson(42, "JOB_DELETED", "b") +
                                             "], \"next\": 42, \"reload\": true}");
            if (queryValue(r, "after") == "42")
                return httpResponse(200, "{\"events\": [" + eventJson(43, "JOB_ALTERED", "a") +
                                             "], \"next\": 43}");
            return kHang; // a long poll with nothing new
        });
        ApiClient* client = makeClient(this, server);
        EventsSubscription events(client);
        events.setWaitSeconds(1);
        events.setBackoff(20ms, 50ms);
        QSignalSpy errors(&events, &EventsSubscription::errorOccurred);
        QSignalSpy reload(&events, &EventsSubscription::reloadNeeded);
        QSignalSpy received(&events, &EventsSubscription::eventsReceived);
        events.start(7);
        QTRY_COMPARE_WITH_TIMEOUT(received.count(), 2, 5000);
        QCOMPARE(errors.count(), 3);
        // Back-off doubles and is capped.
        QCOMPARE(errors[0].at(1).value<std::chrono::milliseconds>(), 20ms);
        QCOMPARE(errors[1].at(1).value<std::chrono::milliseconds>(), 40ms);
        QCOMPARE(errors[2].at(1).value<std::chrono::milliseconds>(), 50ms);
        QCOMPARE(errors[0].at(0).value<ApiError>().message, QStringLiteral("busy"));
        QCOMPARE(reload.count(), 1);
        const auto first = received[0].at(0).value<QList<ProjectEvent>>();
        QCOMPARE(first.size(), 2);
        QCOMPARE(first[1].type, std::string("JOB_DELETED"));
        QCOMPARE(received[1].at(0).value<QList<ProjectEvent>>().front().seq, 43);
        QCOMPARE(queryValue(server.requests.first(), "after"), QStringLiteral("7"));
        QCOMPARE(queryValue(server.requests.first(), "wait"), QStringLiteral("1"));
        QTRY_COMPARE(events.position(), 43);
        QCOMPARE(events.currentBackoff(), 0ms);
        QCOMPARE(server.maxInFlight, 1); // the next poll only after the previous one answered
        events.stop();
        QVERIFY(!events.isRunning());
    }

    void logTailFollowsOffsetsUntilComplete() {
        FakeHttpServer server([&](const FakeRequest& r) -> std::optional<QByteArray> {
            const QString offset = queryValue(r, "offset");
            if (offset == "0")
                return httpResponse(200, "hello \xc3",
                                    {{"X-Log-Next-Offset", "7"}, {"X-Log-Complete", "false"}});
            if (offset == "7" && server.requests.size() < 4)
                return httpResponse(200, "", {{"X-Log-Next-Offset", "7"}, {"X-Log-Complete", "false"}});
            return httpResponse(200, "\xa9 world\n",
                                {{"X-Log-Next-Offset", "15"}, {"X-Log-Complete", "true"}});
        });
        ApiClient* client = makeClient(this, server);
        LogTail tail(client, QStringLiteral("job"), QStringLiteral("run-1"));
        tail.setInterval(20ms);
        QString text;
        connect(&tail, &LogTail::textAppended, this, [&](const QString& t) { text += t; });
        QSignalSpy completed(&tail, &LogTail::completed);
        tail.start();
        QTRY_COMPARE_WITH_TIMEOUT(completed.count(), 1, 5000);
        QCOMPARE(text, QStringLiteral("hello \u00e9 world\n")); // a UTF-8 character split across reads
        QCOMPARE(tail.offset(), 15);
        QVERIFY(tail.isComplete());
        const int requests = static_cast<int>(server.requests.size());
        QTest::qWait(100);
        QCOMPARE(server.requests.size(), requests); // stops once complete
    }

    void monitorLosesAndRecoversTheService() {
        FakeHttpServer server([](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.path() == "/v1/health")
                return httpResponse(200, R"({"status": "ok", "version": "9.9"})");
            return httpResponse(200, R"({"apiStatus": "API_OPERATION_STATUS_SUCCESS", "requestId": "r",
                "apiResponse": {"describeProjectApiResponse": {"project": {"projectUid": "p"}}}})");
        });
        const quint16 port = server.port();
        ApiClient* client = makeClient(this, server);
        ConnectionMonitor monitor(client);
        monitor.setHealthInterval(50ms);
        monitor.setBackoff(50ms, 200ms);
        QSignalSpy connected(&monitor, &ConnectionMonitor::connected);
        monitor.start();
        QCOMPARE(monitor.state(), ConnectionMonitor::State::Connecting);
        QTRY_COMPARE(monitor.state(), ConnectionMonitor::State::Connected);
        QCOMPARE(monitor.serviceVersion(), QStringLiteral("9.9"));
        QCOMPARE(connected.count(), 1);

        server.close();
        QTRY_COMPARE_WITH_TIMEOUT(monitor.state(), ConnectionMonitor::State::Reconnecting, 5000);
        QVERIFY2(monitor.reason().contains("Cannot reach"), qPrintable(monitor.reason()));
        QVERIFY(monitor.retryIn() <= 200ms);

        QVERIFY(server.listen(port));
        QTRY_COMPARE_WITH_TIMEOUT(monitor.state(), ConnectionMonitor::State::Connected, 5000);
        QCOMPARE(connected.count(), 2); // the owner reloads after every return
        monitor.stop();
        QCOMPARE(monitor.state(), ConnectionMonitor::State::Idle);
    }

    void monitorStopsOnRefusedCredentials() {
        FakeHttpServer server([](const FakeRequest& r) -> std::optional<QByteArray> {
            if (r.path() == "/v1/health")
                return httpResponse(200, R"({"status": "ok", "version": "1"})");
            return httpResponse(401, R"({"error": "Unauthorized"})");
        });
        ApiClient* client = makeClient(this, server);
        ConnectionMonitor monitor(client);
        monitor.setBackoff(20ms, 40ms);
        monitor.start();
        QTRY_COMPARE(monitor.state(), ConnectionMonitor::State::Disconnected);
        QVERIFY(monitor.reason().contains("refused the credentials"));
        const auto requests = server.requests.size();
        QTest::qWait(150);
        QCOMPARE(server.requests.size(), requests); // no retrying with keys that cannot work
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestLiveUpdates)
#include "tst_liveupdates.moc"
