// Fenced run ownership among jobdeckd replicas on one PostgreSQL database (docs/scale-out.md, "Several
// replicas"): leases are on the database's clock, so a replica whose clock is 30 s ahead declares no
// live replica gone; a replica id is claimed at start, so a copied data directory refuses to start; a
// replica paused (SIGSTOP) past its lease neither starts again nor takes back the runs the others took
// over, and once it resumes it stops the drivers of the runs that ended while it was away, recording
// why in the run's log; a gone replica's client-mode run ends FAILED after --orphaned-run-timeout,
// naming the replica and its host.
// Leases are 5 s and pauses 15 s, so that a loaded 2-core machine cannot make a live replica look
// gone; no duration is asserted.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/policy/ReplicaMessages.h"
#include "tests/support/TestBackend.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>

#include <signal.h>

#include <array>
#include <map>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr int kReplicas = 3;
constexpr int kLeaseSeconds = 5;
constexpr int kPauseMs = 15000; // three leases
const QString kStandin = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-standin");
const QString kMaster = QStringLiteral("spark://127.0.0.1:6066");
const QByteArray kFaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

// Appends "<run id> <epoch seconds>" to the file after --marker when it starts, then sleeps.
const char* const kMarkerDriver = "import os, sys, time\n"
                                  "args = sys.argv[1:]\n"
                                  "def value(name):\n"
                                  "    return args[args.index(name) + 1]\n"
                                  "with open(value('--marker'), 'a') as markers:\n"
                                  "    markers.write('%s %.3f\\n' % (os.environ.get('ONEHOUSE_JOB_RUN_ID', "
                                  "'?'), time.time()))\n"
                                  "time.sleep(float(value('--sleep')))\n";

using Replicas = std::array<std::unique_ptr<TestService>, kReplicas>;

std::string cancel(const TestService& service, const ApiCredentials& who, const QString& job,
                   const QString& id) {
    return statusOf(runStatement(service, who, "CANCEL JOB_RUN `" + id + "` JOB_NAME = '" + job + "'"));
}

std::string statusField(const nlohmann::json& run) {
    return run.is_object() ? run.value("status", std::string()) : std::string("<no run>");
}

bool processGroupAlive(qint64 pid) {
    return pid > 0 && ::kill(-static_cast<pid_t>(pid), 0) == 0;
}

// Every RUN_STATUS_CHANGED event of the project so far: run id -> the statuses in order.
std::map<QString, QStringList> runStatusEvents(const TestService& service, const ApiCredentials& who) {
    std::map<QString, QStringList> statuses;
    qint64 after = 0;
    for (int page = 0; page < 1000; ++page) { // bounded: a page holds many events
        const auto answer = request(service.url("/v1/events", QString("after=%1&wait=0").arg(after)), "GET",
                                    {}, who.headers());
        const auto body = answer.json();
        if (answer.status != 200 || !body.is_object() || body["events"].empty())
            break;
        for (const auto& event : body["events"])
            if (event.value("type", std::string()) == "RUN_STATUS_CHANGED" && event["status"].is_string())
                statuses[QString::fromStdString(event.value("jobRunId", std::string()))]
                    << QString::fromStdString(event["status"].get<std::string>());
        after = body["next"].get<qint64>();
    }
    return statuses;
}

// The index of the replica that launched run `id`, or the number of replicas when none did.
std::size_t launchedBy(const Replicas& replicas, const QString& id) {
    for (std::size_t i = 0; i < replicas.size(); ++i)
        if (launchedOn(*replicas[i], id))
            return i;
    return replicas.size();
}

int endsIn(const QStringList& statuses) {
    int ends = 0;
    for (const QString& status : statuses)
        ends += status == kCompleted || status == kFailed || status == kCanceled;
    return ends;
}

} // namespace

class TestFencing final : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch;
    const QString m_token = "fencing-suite-" + QUuid::createUuid().toString(QUuid::WithoutBraces);

    QString markerDriver() const { return m_scratch.filePath("marker_driver.py"); }
    QString markerFile() const { return m_scratch.filePath("markers"); }
    QStringList sleeper(int seconds) const {
        return {kPythonApp, "--sleep", QString::number(seconds), "--suite", m_token};
    }
    QStringList marking(int seconds) const {
        return {markerDriver(),           "--marker", markerFile(), "--sleep",
                QString::number(seconds), "--suite",  m_token};
    }

    // Three replicas on a new database of their own with `arguments`; the one at `faked` (if any) with
    // its clock 30 s ahead (libfaketime; the monotonic clock is left alone).
    bool startReplicas(Replicas& replicas, const QStringList& arguments, int faked = -1) {
        QString error;
        const QString database = TestBackend::createPostgresDatabase(error);
        if (database.isEmpty()) {
            qWarning("no database: %s", qPrintable(error));
            return false;
        }
        for (int i = 0; i < kReplicas; ++i) {
            auto& replica = replicas[static_cast<std::size_t>(i)];
            replica = std::make_unique<TestService>(QStringList{"--database", database} + arguments);
            if (i == faked) {
                qputenv("LD_PRELOAD", kFaketime);
                qputenv("FAKETIME", "+30s");
                qputenv("FAKETIME_DONT_FAKE_MONOTONIC", "1");
            }
            const bool started = replica->start();
            qunsetenv("LD_PRELOAD");
            qunsetenv("FAKETIME");
            qunsetenv("FAKETIME_DONT_FAKE_MONOTONIC");
            if (!started) {
                qWarning("replica %d did not start: %s", i, qPrintable(replica->lastError()));
                return false;
            }
        }
        return true;
    }

    void killLeftoverDrivers() const { killProcessesWithToken(m_token); }

    std::map<QString, int> driverStarts() const {
        std::map<QString, int> starts;
        QFile marked(markerFile());
        if (marked.open(QIODevice::ReadOnly))
            for (const QString& line : QString::fromUtf8(marked.readAll()).split('\n', Qt::SkipEmptyParts))
                ++starts[line.section(' ', 0, 0)];
        return starts;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_scratch.isValid());
        qputenv("JOBDECK_STANDIN_SPARK_HOME", m_scratch.filePath("spark-home").toLocal8Bit());
        QFile script(markerDriver());
        QVERIFY(script.open(QIODevice::WriteOnly) && script.write(kMarkerDriver) > 0);
    }

    void cleanupTestCase() { killLeftoverDrivers(); }

    // The leases are judged on the database's clock: a replica 30 s ahead of the others (six leases)
    // sees them live, and they see it live.
    void aReplicaWithItsClockAheadDeclaresNoLiveReplicaGone() {
        QVERIFY2(QFile::exists(QString::fromLatin1(kFaketime)),
                 "packaging/install-deps.sh test installs faketime");
        Replicas nodes;
        QVERIFY(startReplicas(nodes, {"--lease-seconds", QString::number(kLeaseSeconds)}, 2));
        // libfaketime took effect: the replica's own log lines are stamped 30 s ahead.
        static const QRegularExpression stamp(
            QStringLiteral("\\[(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d)"));
        QRegularExpressionMatch match;
        QTRY_VERIFY_WITH_TIMEOUT((match = stamp.match(nodes[2]->errorOutput())).hasMatch(), 20000);
        const auto logged = QDateTime::fromString(match.captured(1), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QVERIFY2(logged.secsTo(QDateTime::currentDateTime()) < -20, qPrintable(match.captured(1)));

        QTest::qWait(3 * kLeaseSeconds * 1000); // every replica renews and judges the others many times
        for (const auto& node : nodes) {
            QVERIFY(node->isRunning());
            QVERIFY2(!node->errorOutput().contains("has not renewed its lease"),
                     qPrintable(node->errorOutput()));
        }
    }

    // A second jobdeckd with the replica id of one that is running (a copied data directory) refuses
    // to start, naming the replica that holds the id.
    void aCopiedDataDirectoryRefusesToStart() {
        Replicas nodes;
        QVERIFY(startReplicas(nodes, {"--lease-seconds", QString::number(kLeaseSeconds)}));
        QFile original(nodes[0]->dataDir() + "/replica-id");
        QVERIFY(original.open(QIODevice::ReadOnly));
        const QString id = QString::fromUtf8(original.readAll()).trimmed();
        TestService copy(nodes[0]->lastArguments().mid(nodes[0]->lastArguments().indexOf("--database")));
        QVERIFY(QDir().mkpath(copy.dataDir()));
        QVERIFY(QFile::copy(original.fileName(), copy.dataDir() + "/replica-id"));
        QVERIFY2(!copy.start(), "a second replica with the same id started");
        const std::string refusal = replicaIdInUseMessage(
            id.toStdString(), QSysInfo::machineHostName().toStdString(), nodes[0]->dataDir().toStdString());
        QVERIFY2(copy.errorOutput().contains(QString::fromStdString(refusal)),
                 qPrintable(copy.errorOutput()));
        QVERIFY(nodes[0]->isRunning());
    }

    void aPausedOwnerNeitherRunsTwiceNorTakesBack();
    void aRunCanceledWhileItsOwnerWasPausedHasItsDriverStopped() { endedWhileItsOwnerWasPaused(true); }
    void anOrphanedRunEndsFailedAndItsDriverIsStoppedWhenItsOwnerResumes() {
        endedWhileItsOwnerWasPaused(false);
    }

private:
    void endedWhileItsOwnerWasPaused(bool canceled);
};

// The must-show fencing test: the replica that submitted `followed` (cluster mode), which could also
// claim the QUEUED `waiting` runs, is paused for three leases while the slot they wait for frees; then
// it resumes. Each run
// is started once, followed by one replica, and its end recorded once.
void TestFencing::aPausedOwnerNeitherRunsTwiceNorTakesBack() {
    Replicas nodes;
    QVERIFY(startReplicas(nodes, {"--runner", "spark-submit", "--spark-submit", kStandin, "--deploy-mode",
                                  "cluster", "--master", kMaster, "--cluster-status-seconds", "1",
                                  "--lease-seconds", QString::number(kLeaseSeconds)}));
    TestService& a = *nodes[0];
    const TestService& b = *nodes[1];
    Project project;
    QVERIFY(project.create(a));
    const ApiCredentials& who = project.op;
    QVERIFY(statementSucceeds(a, who, "CREATE CLUSTER one TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
    QVERIFY(statementSucceeds(a, who, "CREATE CLUSTER wide TYPE = 'Spark' MAX_OCU = 10 MIN_OCU = 1"));
    for (const auto& [job, parameters, cluster, limit] :
         {std::tuple{"blocker", sleeper(600), "one", "1"}, std::tuple{"waiting", marking(2), "one", "3"},
          std::tuple{"followed", marking(25), "wide", "1"}})
        QVERIFY(statementSucceeds(a, who,
                                  QString("CREATE JOB %1 TYPE = 'PYTHON' PARAMETERS = %2 CLUSTER = '%3' "
                                          "MAX_CONCURRENT_RUNS = %4")
                                      .arg(job, tuple(parameters), cluster, limit)));
    const auto admitted = runJob(b, who, "blocker");
    const QString blocker = runIdOf(admitted);
    QVERIFY2(!blocker.isEmpty(), admitted.dump().c_str());
    const auto blocking = waitForRun(b, who, "blocker", blocker, hasStatus(kRunning), 60000);
    QVERIFY2(statusField(blocking) == kRunning, blocking.dump().c_str());
    QStringList waiting;
    for (const QByteArray key : {"w1", "w2"})
        waiting << runIdOf(runJob(a, who, "waiting", {}, key));
    const QString followed = runIdOf(runJob(a, who, "followed"));
    const auto submitted = waitForRun(
        a, who, "followed", followed,
        [](const nlohmann::json& r) { return r.contains("submissionId") && r["submissionId"].is_string(); },
        60000);
    QVERIFY2(submitted.contains("submissionId") && submitted["submissionId"].is_string(),
             submitted.dump().c_str());

    // The replica paused is the one that submitted `followed` (any replica may have claimed it).
    const std::size_t owner = launchedBy(nodes, followed);
    QVERIFY2(owner < nodes.size(), "no replica's data directory holds followed's submission client");
    TestService& paused = *nodes[owner];
    const TestService& other = *nodes[(owner + 1) % nodes.size()];
    const TestService& third = *nodes[(owner + 2) % nodes.size()];
    QCOMPARE(::kill(static_cast<pid_t>(paused.processId()), SIGSTOP), 0);
    QCOMPARE(cancel(other, who, "blocker", blocker), std::string(kSuccess));
    QTest::qWait(kPauseMs);
    QCOMPARE(::kill(static_cast<pid_t>(paused.processId()), SIGCONT), 0);

    for (const QString& id : waiting)
        QCOMPARE(statusField(waitForRun(other, who, "waiting", id, hasEnded(), 120000)),
                 std::string(kCompleted));
    QCOMPARE(statusField(waitForRun(third, who, "followed", followed, hasEnded(), 120000)),
             std::string(kCompleted));
    QTest::qWait(3000); // a replica that recorded an end twice would have done so by now
    const auto starts = driverStarts();
    const auto events = runStatusEvents(third, who);
    for (const QString& id : waiting + QStringList{followed}) {
        QVERIFY2(
            starts.count(id) && starts.at(id) == 1,
            qPrintable(id + " started " + QString::number(starts.count(id) ? starts.at(id) : 0) + " times"));
        const QStringList seen = events.count(id) ? events.at(id) : QStringList();
        QVERIFY2(endsIn(seen) == 1, qPrintable(id + ": " + seen.join(", ")));
    }
    QVERIFY(paused.isRunning());
}

// Client mode: A runs `job`; while A is paused for three leases the run ends through B: canceled
// (CANCELED, its driver not signalled), or, with --orphaned-run-timeout, FAILED once A has been away
// that long. When A resumes it stops the driver and says why in the run's log.
void TestFencing::endedWhileItsOwnerWasPaused(bool canceled) {
    Replicas nodes;
    QStringList arguments{"--lease-seconds", QString::number(kLeaseSeconds), "--cancel-grace-seconds", "1"};
    if (!canceled)
        arguments << "--orphaned-run-timeout"
                  << "8";
    QVERIFY(startReplicas(nodes, arguments));
    Project project;
    QVERIFY(project.create(*nodes[0]));
    const ApiCredentials& who = project.op;
    QVERIFY(statementSucceeds(*nodes[0], who, "CREATE CLUSTER wide TYPE = 'Spark' MAX_OCU = 10 MIN_OCU = 1"));
    QVERIFY(statementSucceeds(*nodes[0], who,
                              "CREATE JOB job TYPE = 'PYTHON' PARAMETERS = " + tuple(sleeper(600)) +
                                  " CLUSTER = 'wide'"));
    const QString id = runIdOf(runJob(*nodes[0], who, "job"));
    QCOMPARE(statusField(waitForRun(*nodes[0], who, "job", id, hasStatus(kRunning), 60000)),
             std::string(kRunning));
    // A is the replica that launched the run (whichever claimed it), B another one.
    const std::size_t owner = launchedBy(nodes, id);
    QVERIFY2(owner < nodes.size(), "no replica's data directory holds the run's driver");
    TestService& a = *nodes[owner];
    const TestService& b = *nodes[(owner + 1) % nodes.size()];
    qint64 pid = 0;
    QTRY_VERIFY_WITH_TIMEOUT((pid = driverPidFromLog(fullLog(a, who, "job", id))) > 0, 20000);

    QCOMPARE(::kill(static_cast<pid_t>(a.processId()), SIGSTOP), 0);
    if (canceled)
        QCOMPARE(cancel(b, who, "job", id), std::string(kSuccess));
    const auto ended = waitForRun(b, who, "job", id, hasEnded(), 60000);
    QTest::qWait(canceled ? kPauseMs : 0); // past the lease whatever ended the run
    QCOMPARE(::kill(static_cast<pid_t>(a.processId()), SIGCONT), 0);
    QCOMPARE(statusField(ended), std::string(canceled ? kCanceled : kFailed));
    if (!canceled) {
        QFile replicaId(a.dataDir() + "/replica-id");
        QVERIFY(replicaId.open(QIODevice::ReadOnly));
        const std::string expected =
            orphanedRunMessage(QString::fromUtf8(replicaId.readAll()).trimmed().toStdString(),
                               QSysInfo::machineHostName().toStdString(), 8);
        QCOMPARE(ended.value("message", std::string()), expected);
    }
    QTRY_VERIFY2_WITH_TIMEOUT(!processGroupAlive(pid), "the driver runs on after its owner resumed", 60000);
    // The owner records why after the driver is gone: read the log until the line is there.
    const QByteArray line = QByteArray::fromStdString(strayDriverStoppedLogLine(
        pid, canceled ? "CANCELED" : "FAILED", ended.value("message", std::string())));
    QByteArray log;
    QTRY_VERIFY2_WITH_TIMEOUT((log = fullLog(a, who, "job", id)).contains(line), log.right(600).constData(),
                              30000);
    QVERIFY(a.isRunning());
}

JOBDECK_TEST_GUILESS_MAIN(TestFencing)
#include "tst_fencing.moc"
