// GET /v1/events: a long poll is answered soon after a run changes state (well within a second; the
// service aims at 100 ms), with every state of the run in order; empty when the wait runs out.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>

using namespace jobdeck;
using namespace jobdeck::runtest;

class TestEvents final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;

    nlohmann::json events(qint64 after, int wait, int* status = nullptr) {
        const auto r = request(m_service.url("/v1/events", QString("after=%1&wait=%2").arg(after).arg(wait)),
                               "GET", {}, m_project.op.headers(), 20000);
        if (status)
            *status = r.status;
        return r.json();
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QVERIFY(createClusterAndPythonJob(m_service, m_project.op, "ec", "ev", {"--sleep", "1"}));
    }

    void emptyWhenTheWaitRunsOut() {
        const qint64 next = events(0, 0)["next"].get<qint64>();
        QElapsedTimer timer;
        timer.start();
        const auto page = events(next, 1);
        QVERIFY(timer.elapsed() >= 900);
        QVERIFY(page["events"].empty());
        QCOMPARE(page["next"].get<qint64>(), next);
    }

    void longPollWakesOnRunStateChanges() {
        qint64 after = events(0, 0)["next"].get<qint64>();
        // The poll is in flight before the run is started.
        QNetworkAccessManager manager;
        manager.setProxy(QNetworkProxy::NoProxy);
        QNetworkRequest pollRequest(m_service.url("/v1/events", QString("after=%1&wait=20").arg(after)));
        for (const auto& [name, value] : m_project.op.headers())
            pollRequest.setRawHeader(name, value);
        QNetworkReply* poll = manager.get(pollRequest);
        QElapsedTimer sent;
        qint64 answeredAfter = -1; // ms from sending RUN JOB to the poll's answer
        QObject::connect(poll, &QNetworkReply::finished,
                         [&] { answeredAfter = sent.isValid() ? sent.elapsed() : -2; });
        QTest::qWait(300);
        QVERIFY(!poll->isFinished());

        sent.start();
        const auto status = runJob(m_service, m_project.op, "ev");
        const QString id = runIdOf(status);
        QVERIFY(!id.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(answeredAfter != -1, 5000);
        // The event woke the poll: it answered long before its 20 s wait ran out (typically within a few ms;
        // the bound leaves room for a loaded machine, the figure is bench_replicas').
        qInfo("long poll answered %lld ms after RUN JOB was sent", answeredAfter);
        QVERIFY2(answeredAfter >= 0 && answeredAfter < 10000, qPrintable(QString::number(answeredAfter)));
        const auto page = nlohmann::json::parse(poll->readAll().toStdString());
        poll->deleteLater();
        QVERIFY(!page["events"].empty());
        const auto first = page["events"][0];
        QCOMPARE(first["type"].get<std::string>(), std::string("RUN_STATUS_CHANGED"));
        QCOMPARE(first["jobName"].get<std::string>(), std::string("ev"));
        QCOMPARE(QString::fromStdString(first["jobRunId"].get<std::string>()), id);
        QCOMPARE(first["status"].get<std::string>(), std::string(kQueued));
        QVERIFY(first["seq"].get<qint64>() > after);
        QVERIFY(first.contains("at"));

        // Follow the feed: QUEUED, RUNNING, COMPLETED, each seen by a long poll.
        std::vector<std::string> statuses;
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < 20000 && (statuses.empty() || statuses.back() != kCompleted)) {
            const auto next = events(after, 10);
            for (const auto& e : next["events"])
                if (e.value("jobRunId", nlohmann::json()) == id.toStdString())
                    statuses.push_back(e["status"].get<std::string>());
            after = next["next"].get<qint64>();
        }
        QCOMPARE(statuses, (std::vector<std::string>{kQueued, kRunning, kCompleted}));
    }

    void refusals() {
        int status = 0;
        events(-1, 0, &status);
        QCOMPARE(status, 400);
        events(0, 61, &status);
        QCOMPARE(status, 400);
        QCOMPARE(request(m_service.url("/v1/events", "after=0"), "GET").status, 401);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestEvents)
#include "tst_events.moc"
