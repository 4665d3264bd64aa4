// Three jobdeckd processes on one PostgreSQL database act as one service (CONTRACT §5, docs/scale-out.md):
// a job's run limit and an Idempotency-Key hold for clients spread over every replica; a request id
// answered by one replica is polled on another; a run is canceled through a replica other than the one
// running its driver; a long poll on one replica wakes on a change made through another; and when a
// replica is killed with -9, the runs admitted through it that were still queued are started exactly once
// by the survivors, and a survivor follows its run in cluster deploy mode to the true outcome once its
// lease has run out.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/policy/ConcurrentRuns.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestBackend.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTemporaryDir>
#include <QTimer>
#include <QUuid>

#include <signal.h>

#include <array>
#include <map>
#include <set>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr int kReplicas = 3;
constexpr int kLeaseSeconds = 5;
const QString kStandin = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-standin");
const QString kMaster = QStringLiteral("spark://127.0.0.1:6066");

// A driver for the take-over test: appends "<run id> <epoch seconds>" to the file after --marker when
// it starts, so the test counts the starts of each run whichever host started it, then sleeps.
const char* const kMarkerDriver =
    "import os, sys, time\n"
    "args = sys.argv[1:]\n"
    "def value(name):\n"
    "    return args[args.index(name) + 1]\n"
    "with open(value('--marker'), 'a') as markers:\n"
    "    markers.write('%s %.3f\\n' % (os.environ.get('ONEHOUSE_JOB_RUN_ID', '?'), "
    "time.time()))\n"
    "time.sleep(float(value('--sleep')))\n";

using Replicas = std::array<std::unique_ptr<TestService>, kReplicas>;

// Starts `replicas` on one database; false, with the first failure logged.
bool startReplicas(Replicas& replicas, const QStringList& arguments) {
    for (auto& replica : replicas) {
        replica = std::make_unique<TestService>(arguments);
        if (!replica->start()) {
            qWarning("replica did not start: %s", qPrintable(replica->lastError()));
            return false;
        }
    }
    return true;
}

bool createJob(const TestService& service, const ApiCredentials& who, const QString& name,
               const QStringList& parameters, const QString& cluster, int maxConcurrentRuns = 1) {
    return statusOf(must(service, who,
                         "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) +
                             " CLUSTER = '" + cluster +
                             "' MAX_CONCURRENT_RUNS = " + QString::number(maxConcurrentRuns))) == kSuccess;
}

QString jobIdOf(const TestService& service, const ApiCredentials& who, const QString& job) {
    const auto status = runStatement(service, who, "DESCRIBE JOB " + job);
    return QString::fromStdString(
        status["apiResponse"]["describeJobApiResponse"]["sparkJob"].value("jobId", std::string()));
}

std::string statusField(const nlohmann::json& run) {
    return run.is_object() ? run.value("status", std::string()) : std::string("<no run>");
}

std::string cancel(const TestService& service, const ApiCredentials& who, const QString& job,
                   const QString& id) {
    return statusOf(runStatement(service, who, "CANCEL JOB_RUN `" + id + "` JOB_NAME = '" + job + "'"));
}

// POST /v1/resource/ without `Prefer: wait`: the request id, empty (logged) when none came back.
QString acknowledgedRequestId(const TestService& service, const ApiCredentials& who,
                              const QString& statement) {
    const auto answer =
        request(service.url("/v1/resource/"), "POST",
                QByteArray::fromStdString(nlohmann::json{{"statement", statement.toStdString()}}.dump()),
                who.headers());
    const auto body = answer.json();
    if (answer.status != 200 || !body.is_object() || !body.contains("requestId")) {
        qWarning("POST %s: %d %s", qPrintable(statement), answer.status, answer.body.constData());
        return {};
    }
    return QString::fromStdString(body["requestId"].get<std::string>());
}

// Runs each statement through replica i % kReplicas, every one on its own connection and all at once
// (one thread per replica); the status objects in statement order.
std::vector<nlohmann::json> spreadConcurrently(const Replicas& replicas, const ApiCredentials& who,
                                               const std::vector<QString>& statements,
                                               const std::vector<QByteArray>& keys) {
    std::array<std::vector<QString>, kReplicas> perReplica;
    std::array<std::vector<QByteArray>, kReplicas> keysPerReplica;
    for (std::size_t i = 0; i < statements.size(); ++i) {
        perReplica[i % kReplicas].push_back(statements[i]);
        keysPerReplica[i % kReplicas].push_back(keys[i]);
    }
    std::array<std::vector<nlohmann::json>, kReplicas> answers;
    std::vector<std::unique_ptr<QThread>> threads;
    for (int r = 0; r < kReplicas; ++r) {
        threads.emplace_back(QThread::create([&, r] {
            answers[r] = concurrentStatements(*replicas[r], who, perReplica[r], keysPerReplica[r], 60000);
        }));
        threads.back()->start();
    }
    for (auto& thread : threads)
        thread->wait();
    std::vector<nlohmann::json> results;
    for (std::size_t i = 0; i < statements.size(); ++i)
        results.push_back(answers[i % kReplicas][i / kReplicas]);
    return results;
}

} // namespace

class TestReplicas final : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch; // the marker driver, its markers, the stand-in master's state
    // On every driver's command line, so that cleanup finds the drivers a failed test left behind.
    const QString m_token = "replicas-suite-" + QUuid::createUuid().toString(QUuid::WithoutBraces);
    Replicas m_replicas;
    Project m_project;

    const TestService& replica(int i) const { return *m_replicas[static_cast<std::size_t>(i)]; }
    const ApiCredentials& op() const { return m_project.op; }
    QStringList sleeper(int seconds) const {
        return {kPythonApp, "--sleep", QString::number(seconds), "--suite", m_token};
    }

    // Drivers of this suite still running (a failed test's), found by the token on their command line.
    void killLeftoverDrivers() const { killProcessesWithToken(m_token); }

    nlohmann::json statusOn(const TestService& service, const QString& requestId, int* httpStatus) const {
        const auto answer = request(service.url("/v1/status/" + requestId), "GET", {}, op().headers());
        *httpStatus = answer.status;
        return answer.json();
    }

    // Polls the request on `service` until it is final; every answer on the way must be 200.
    nlohmann::json finalStatusOn(const TestService& service, const QString& requestId) const {
        QElapsedTimer timer;
        timer.start();
        nlohmann::json status;
        while (timer.elapsed() < 30000) {
            int httpStatus = 0;
            status = statusOn(service, requestId, &httpStatus);
            if (httpStatus != 200) {
                qWarning("GET /v1/status/%s: %d", qPrintable(requestId), httpStatus);
                return nullptr;
            }
            if (statusOf(status) != "API_OPERATION_STATUS_PENDING")
                return status;
            QThread::msleep(100);
        }
        return status;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_scratch.isValid());
        qputenv("JOBDECK_STANDIN_SPARK_HOME", m_scratch.filePath("spark-home").toLocal8Bit());
        // A database on the test process's private cluster (TestBackend), whose watchdog stops the
        // server even when this process is killed.
        QString error;
        const QString database = TestBackend::createPostgresDatabase(error);
        QVERIFY2(!database.isEmpty(), qPrintable(error));
        QVERIFY(startReplicas(m_replicas, {"--database", database, "--cancel-grace-seconds", "1"}));
        QVERIFY(m_project.create(*m_replicas[0]));
        QVERIFY(statementSucceeds(replica(1), op(),
                                  "CREATE CLUSTER wide TYPE = 'Spark' MAX_OCU = 100 MIN_OCU = 1"));
    }

    void cleanupTestCase() {
        for (auto& service : m_replicas)
            service.reset();
        killLeftoverDrivers();
    }

    void runLimitAndIdempotencyKeyHoldAcrossReplicas() {
        QVERIFY(createJob(replica(0), op(), "limited", sleeper(600), "wide", 3));
        QVERIFY(createJob(replica(1), op(), "onekey", sleeper(600), "wide", 3));
        std::vector<QString> statements;
        std::vector<QByteArray> keys;
        for (int i = 0; i < 60; ++i) {
            statements.push_back(i < 50 ? "RUN JOB limited" : "RUN JOB onekey");
            keys.push_back(i < 50 ? "limited-" + QByteArray::number(i) : QByteArray("the-one-key"));
        }
        const auto results = spreadConcurrently(m_replicas, op(), statements, keys);

        RunLimit limit;
        limit.value = limit.jobValue = 3;
        const std::string refusal =
            runLimitReachedMessage(jobIdOf(replica(2), op(), "limited").toStdString(), 3, limit);
        QCOMPARE(refusal, "Spark Job " + jobIdOf(replica(0), op(), "limited").toStdString() +
                              " already has 3 active run(s) (max 3)"); // CONTRACT §4
        std::set<QString> limitedIds;
        std::set<QString> keyedIds;
        int refused = 0;
        for (std::size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            if (statusOf(r) == kSuccess)
                (i < 50 ? limitedIds : keyedIds).insert(runIdOf(r));
            else if (i < 50 && statusOf(r) == kApiFailed && errorOf(r) == refusal)
                ++refused;
            else
                qWarning("request %zu: unexpected %s", i, r.dump().c_str());
        }
        QCOMPARE(limitedIds.size(), std::size_t(3));
        QCOMPARE(refused, 47);
        QCOMPARE(keyedIds.size(), std::size_t(1));
        QVERIFY(!keyedIds.begin()->isEmpty());
        const auto shown = runStatement(replica(2), op(), "SHOW JOB_RUNS JOB_NAME = 'limited' ACTIVE");
        QCOMPARE(shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(3));
        const auto keyed = runStatement(replica(0), op(), "SHOW JOB_RUNS JOB_NAME = 'onekey'");
        QCOMPARE(keyed["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(1));

        for (const auto& [job, ids] : {std::pair{"limited", limitedIds}, std::pair{"onekey", keyedIds}})
            for (const QString& id : ids)
                QCOMPARE(cancel(replica(1), op(), job, id), std::string(kSuccess));
        for (const auto& [job, ids] : {std::pair{"limited", limitedIds}, std::pair{"onekey", keyedIds}})
            for (const QString& id : ids)
                QCOMPARE(statusField(waitForRun(replica(1), op(), job, id, hasEnded(), 60000)),
                         std::string(kCanceled));
    }

    // A poll on one replica of a request that another replica still runs is held until that replica has
    // stored the final status (looked up every 100 ms), not answered PENDING at once.
    void aHeldPollWaitsForAnotherReplicasRequest() {
        QVERIFY(
            statementSucceeds(replica(0), op(),
                              "CREATE JOB heldpoll TYPE = 'PYTHON' PARAMETERS = ( '/apps/h.py' ) CLUSTER = "
                              "'wide'"));
        ServiceDatabase db(replica(0));
        QVERIFY2(db.holdWriteLock("jobs"), qPrintable(db.lastError()));
        const QString id = acknowledgedRequestId(replica(0), op(), "ALTER JOB heldpoll SET CLUSTER = 'wide'");
        QVERIFY(!id.isEmpty());
        // The ALTER waits for the lock; it is let go while replica 2 holds the poll (the GET below runs
        // an event loop, which fires the timer).
        QTimer::singleShot(1500, [&db] { db.release(); });
        const auto held = request(replica(1).url("/v1/status/" + id), "GET", {},
                                  op().headers() + HttpHeaders{{"Prefer", "wait=30"}}, 60000);
        QCOMPARE(held.status, 200);
        QCOMPARE(statusOf(held.json()), std::string(kSuccess));
        QCOMPARE(held.header("Preference-Applied"), QByteArray("wait=30"));
    }

    void aRequestIdIsAnsweredByEveryReplica() {
        // A write, a read, a refused statement and an invalid one: acknowledged by replica 1 at once,
        // then polled on replica 2 until final; replicas 1 and 3 then give the same final status.
        for (const QString statement : {"CREATE CLUSTER polled TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1",
                                        "SHOW CLUSTERS", "DESCRIBE JOB no_such_job", "SHOW NOTHING AT ALL"}) {
            const QString id = acknowledgedRequestId(replica(0), op(), statement);
            QVERIFY(!id.isEmpty());
            const auto polled = finalStatusOn(replica(1), id);
            QVERIFY2(polled.is_object() && polled.contains("apiStatus"), qPrintable(statement));
            QVERIFY2(statusOf(polled) != "API_OPERATION_STATUS_PENDING", qPrintable(statement));
            for (const int other : {0, 2}) {
                int httpStatus = 0;
                const auto again = statusOn(replica(other), id, &httpStatus);
                QCOMPARE(httpStatus, 200);
                JSON_COMPARE(again, polled);
            }
        }
    }

    void cancelThroughAnotherReplicaStopsTheDriver() {
        QVERIFY(createJob(replica(0), op(), "canceled", sleeper(600), "wide"));
        const QString id = runIdOf(runJob(replica(0), op(), "canceled"));
        QVERIFY(!id.isEmpty());
        QCOMPARE(statusField(waitForRun(replica(0), op(), "canceled", id, hasStatus(kRunning))),
                 std::string(kRunning));
        qint64 pid = 0;
        QTRY_VERIFY_WITH_TIMEOUT((pid = driverPidFromLog(fullLog(replica(0), op(), "canceled", id))) > 0,
                                 20000);
        QCOMPARE(::kill(-static_cast<pid_t>(pid), 0), 0);

        // Canceled through a replica other than the one that launched it (whichever claimed it).
        int launcher = 0;
        while (launcher < kReplicas && !launchedOn(replica(launcher), id))
            ++launcher;
        QVERIFY2(launcher < kReplicas, "no replica's data directory holds the run's driver");
        const TestService& through = replica((launcher + 1) % kReplicas);
        QCOMPARE(cancel(through, op(), "canceled", id), std::string(kSuccess));
        const auto run = waitForRun(through, op(), "canceled", id, hasEnded(), 60000);
        QCOMPARE(statusField(run), std::string(kCanceled));
        QCOMPARE(run.value("message", std::string()),
                 "Canceled by key " + op().apiKey.toStdString() + " (operator)");
        // The owner stops the process group on its next tick; a generous bound, no timing asserted.
        QTRY_VERIFY_WITH_TIMEOUT(::kill(-static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH, 20000);
        QCOMPARE(statusField(describeRun(replica(0), op(), "canceled", id)), std::string(kCanceled));
    }

    void aLongPollWakesOnAChangeMadeThroughAnotherReplica() {
        const auto first = request(replica(1).url("/v1/events", "after=0&wait=0"), "GET", {}, op().headers());
        QCOMPARE(first.status, 200);
        const qint64 after = first.json()["next"].get<qint64>();
        QNetworkAccessManager manager;
        manager.setProxy(QNetworkProxy::NoProxy);
        QNetworkRequest pollRequest(replica(1).url("/v1/events", QString("after=%1&wait=60").arg(after)));
        for (const auto& [name, value] : op().headers())
            pollRequest.setRawHeader(name, value);
        QNetworkReply* poll = manager.get(pollRequest);
        QElapsedTimer sinceSent;
        sinceSent.start();
        QTest::qWait(500); // the poll is in flight before the change
        QVERIFY(!poll->isFinished());

        QVERIFY(createJob(replica(0), op(), "announced", sleeper(1), "wide"));
        QTRY_VERIFY_WITH_TIMEOUT(poll->isFinished(), 90000);
        const qint64 answeredAfterMs = sinceSent.elapsed();
        const auto page = nlohmann::json::parse(poll->readAll().toStdString(), nullptr, false);
        poll->deleteLater();
        qInfo("the long poll on replica 2 was answered %lld ms after it was sent", answeredAfterMs);
        QVERIFY2(answeredAfterMs < 55000, "hang guard: answered only when its 60 s wait ran out");
        QVERIFY2(page.is_object() && !page["events"].empty(), page.dump().c_str());
        const auto& event = page["events"][0];
        QCOMPARE(event.value("type", std::string()), std::string("JOB_CREATED"));
        QCOMPARE(event.value("jobName", std::string()), std::string("announced"));
        QVERIFY(event["seq"].get<qint64>() > after);
    }

    // DESCRIBE JOB answers are cached by the database's change stamp, and a key by the same stamp:
    // a job altered and a key added through one replica are seen at once by another that had
    // answered (and cached) before.
    void cachedAnswersFollowWritesOfAnotherReplica() {
        QVERIFY(createJob(replica(0), op(), "cached", sleeper(1), "wide"));
        const auto arguments = [&](int i) {
            const auto answer = runStatement(replica(i), op(), "DESCRIBE JOB cached");
            return answer["apiResponse"]["describeJobApiResponse"]["sparkJob"].value("arguments",
                                                                                     nlohmann::json::array());
        };
        const auto expected = [&](const char* seconds) {
            return nlohmann::json::array({"--sleep", seconds, "--suite", m_token.toStdString()}).dump();
        };
        for (int twice = 0; twice < 2; ++twice)
            QCOMPARE(arguments(2).dump(), expected("1"));
        QVERIFY(statementSucceeds(replica(0), op(),
                                  "ALTER JOB cached SET PARAMETERS = " +
                                      tuple({kPythonApp, "--sleep", "2", "--suite", m_token})));
        QCOMPARE(arguments(2).dump(), expected("2"));

        const ApiCredentials viewer = m_replicas[0]->createKey("runs", "viewer");
        QVERIFY(!viewer.apiKey.isEmpty());
        QCOMPARE(statusOf(runStatement(replica(1), viewer, "SHOW JOBS")), std::string(kSuccess));
    }

    void runsOfAKilledReplicaStartOnceAndAreFollowed();

private:
    QString markerDriver() const { return m_scratch.filePath("marker_driver.py"); }
    QString markerFile() const { return m_scratch.filePath("markers"); }
    void createTakeoverJobs(const TestService& a, const ApiCredentials& who);
    void admitWaitingRuns(const TestService& a, const ApiCredentials& who, QStringList& ids);
    std::map<QString, std::vector<double>> driverStarts() const;
};

// The take-over test's project on `a`: cluster `one` (1 slot) with `blocker` (long) and `waiting` (limit 3)
// on it, cluster `wide` with `followed` (15 s); `waiting` and `followed` run the marker driver.
void TestReplicas::createTakeoverJobs(const TestService& a, const ApiCredentials& who) {
    QFile script(markerDriver());
    QVERIFY(script.open(QIODevice::WriteOnly) && script.write(kMarkerDriver) > 0);
    script.close();
    const auto marking = [&](int seconds) {
        return QStringList{markerDriver(),           "--marker", markerFile(), "--sleep",
                           QString::number(seconds), "--suite",  m_token};
    };
    QVERIFY(statementSucceeds(a, who, "CREATE CLUSTER one TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
    QVERIFY(statementSucceeds(a, who, "CREATE CLUSTER wide TYPE = 'Spark' MAX_OCU = 10 MIN_OCU = 1"));
    QVERIFY(createJob(a, who, "blocker", sleeper(600), "one"));
    QVERIFY(createJob(a, who, "waiting", marking(1), "one", 3));
    QVERIFY(createJob(a, who, "followed", marking(15), "wide"));
}

// Three runs of `waiting` through `a`, each QUEUED with the reason why (cluster `one` is full).
void TestReplicas::admitWaitingRuns(const TestService& a, const ApiCredentials& who, QStringList& ids) {
    for (const QByteArray key : {"w1", "w2", "w3"}) {
        ids << runIdOf(runJob(a, who, "waiting", {}, key));
        QVERIFY(!ids.last().isEmpty());
    }
    for (const QString& id : ids) {
        const auto run = waitForRun(a, who, "waiting", id, [](const nlohmann::json& r) {
            return r.value("queueReason", nlohmann::json()).is_string() &&
                   r["queueReason"].get<std::string>().rfind("Waiting for a driver slot", 0) == 0;
        });
        QCOMPARE(statusField(run), std::string(kQueued));
        QCOMPARE(QString::fromStdString(run.value("queueReason", nlohmann::json()).dump()),
                 QString("\"Waiting for a driver slot on cluster one (1 of 1 in use)\""));
    }
}

// What the marker driver wrote: each run id's start times (epoch seconds).
std::map<QString, std::vector<double>> TestReplicas::driverStarts() const {
    std::map<QString, std::vector<double>> starts;
    QFile marked(markerFile());
    if (marked.open(QIODevice::ReadOnly))
        for (const QString& line : QString::fromUtf8(marked.readAll()).split('\n', Qt::SkipEmptyParts))
            starts[line.section(' ', 0, 0)].push_back(line.section(' ', 1, 1).toDouble());
    return starts;
}

// A, B, C in cluster deploy mode (the stand-in spark-submit plays the master) with a short lease, on a
// database of their own. B's run fills cluster `one`; A admits three runs that wait for its slot and
// submits one to cluster `wide`; then A is killed with -9.
void TestReplicas::runsOfAKilledReplicaStartOnceAndAreFollowed() {
    QString error;
    const QString database = TestBackend::createPostgresDatabase(error);
    QVERIFY2(!database.isEmpty(), qPrintable(error));
    Replicas nodes;
    QVERIFY(
        startReplicas(nodes, {"--database", database, "--runner", "spark-submit", "--spark-submit", kStandin,
                              "--deploy-mode", "cluster", "--master", kMaster, "--cluster-status-seconds",
                              "1", "--lease-seconds", QString::number(kLeaseSeconds)}));
    TestService& a = *nodes[0];
    const TestService& b = *nodes[1];
    const TestService& c = *nodes[2];
    Project project;
    QVERIFY(project.create(a));
    const ApiCredentials& who = project.op;
    createTakeoverJobs(a, who);
    if (QTest::currentTestFailed())
        return;
    const QString blocker = runIdOf(runJob(b, who, "blocker"));
    QCOMPARE(statusField(waitForRun(b, who, "blocker", blocker, hasStatus(kRunning), 60000)),
             std::string(kRunning));
    QStringList waiting;
    admitWaitingRuns(a, who, waiting);
    if (QTest::currentTestFailed())
        return;
    const QString followed = runIdOf(runJob(a, who, "followed"));
    QVERIFY(!followed.isEmpty());
    const auto submitted = waitForRun(
        a, who, "followed", followed,
        [](const nlohmann::json& r) { return r.contains("submissionId") && r["submissionId"].is_string(); },
        60000);
    QVERIFY2(submitted.contains("submissionId") && submitted["submissionId"].is_string(),
             submitted.dump().c_str());

    a.kill9();
    const qint64 killedAtMs = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(!a.isRunning());
    // Every acknowledged admission is still there, seen through the survivors.
    for (const QString& id : waiting)
        QCOMPARE(statusField(describeRun(b, who, "waiting", id)), std::string(kQueued));
    QCOMPARE(statusField(describeRun(c, who, "followed", followed)), std::string(kRunning));

    QCOMPARE(cancel(c, who, "blocker", blocker), std::string(kSuccess));
    QCOMPARE(statusField(waitForRun(c, who, "blocker", blocker, hasEnded(), 60000)), std::string(kCanceled));
    for (const QString& id : waiting)
        QCOMPARE(statusField(waitForRun(c, who, "waiting", id, hasEnded(), 120000)), std::string(kCompleted));
    const auto end = waitForRun(b, who, "followed", followed, hasEnded(), 120000);
    QCOMPARE(statusField(end), std::string(kCompleted));
    QCOMPARE(end.value("submissionId", std::string()), submitted["submissionId"].get<std::string>());

    // Each run's driver started exactly once; the first of the queued ones soon after the kill (queued
    // runs belong to no replica, so they wait only for the slot; a generous bound, no timing asserted).
    const auto starts = driverStarts();
    QCOMPARE(starts.size(), std::size_t(4));
    double firstStart = 1e300;
    for (const QString& id : waiting + QStringList{followed}) {
        const std::size_t count = starts.count(id) ? starts.at(id).size() : 0;
        QVERIFY2(count == 1, qPrintable(id + " started " + QString::number(count) + " times"));
        if (id != followed)
            firstStart = std::min(firstStart, starts.at(id).front());
    }
    const double firstStartAfterKillS = firstStart - static_cast<double>(killedAtMs) / 1000;
    qInfo("the first of A's queued runs started %.1f s after the kill (lease %d s)", firstStartAfterKillS,
          kLeaseSeconds);
    QVERIFY2(firstStartAfterKillS < kLeaseSeconds + 55, qPrintable(QString::number(firstStartAfterKillS)));
}

JOBDECK_TEST_GUILESS_MAIN(TestReplicas)
#include "tst_replicas.moc"
