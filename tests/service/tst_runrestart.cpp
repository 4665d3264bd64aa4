// Restart safety: kill -9 the service while runs are QUEUED and RUNNING, start it again on the same
// data directory: running drivers are re-attached and end in their true state, queued runs start,
// nothing is lost or duplicated; a driver that vanished without an exit status ends FAILED.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "tests/support/ServiceDatabase.h"

#include <QDir>
#include <QFileInfo>

#include <fcntl.h>
#include <sys/stat.h>

#include <signal.h>

#include <fstream>
#include <set>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

pid_t parentOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(line.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    fields >> state >> ppid;
    return ppid;
}

} // namespace

class TestRunRestart final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;

    nlohmann::json st(const QString& statement) { return runStatement(m_service, m_project.op, statement); }
    bool createJob(const QString& name, const QStringList& parameters, const QString& cluster) {
        return statusOf(must(m_service, m_project.op,
                             "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) +
                                 " CLUSTER = '" + cluster + "'")) == kSuccess;
    }
    QString status(const QString& job, const QString& id) {
        return QString::fromStdString(
            describeRun(m_service, m_project.op, job, id).value("status", std::string()));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
    }

    void runningDriversSurviveAndQueuedRunsStart() {
        QCOMPARE(statusOf(st("CREATE CLUSTER rc TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")),
                 std::string(kSuccess));
        QVERIFY(createJob("ja", {kPythonApp, "--sleep", "6", "--exit-code", "7"}, "rc"));
        QVERIFY(createJob("jb", {kPythonApp, "--sleep", "6"}, "rc"));
        QVERIFY(createJob("jc", {kPythonApp}, "rc"));
        const QString a = runIdOf(runJob(m_service, m_project.op, "ja"));
        const QString b = runIdOf(runJob(m_service, m_project.op, "jb"));
        QVERIFY(waitForRun(m_service, m_project.op, "ja", a, hasStatus(kRunning)).is_object());
        QVERIFY(waitForRun(m_service, m_project.op, "jb", b, hasStatus(kRunning)).is_object());
        const QString c = runIdOf(runJob(m_service, m_project.op, "jc"));
        QCOMPARE(status("jc", c), QString(kQueued));
        const auto startedA = describeRun(m_service, m_project.op, "ja", a)["startedAt"];

        m_service.kill9();
        QThread::msleep(500);
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));

        // Still running right after the restart (the drivers sleep 6 s), then their true ends.
        QCOMPARE(status("ja", a), QString(kRunning));
        const auto endA = waitForRun(m_service, m_project.op, "ja", a, hasEnded());
        QCOMPARE(endA.value("status", std::string()), std::string(kFailed));
        QCOMPARE(endA.value("exitCode", -1), 7);
        QCOMPARE(endA.value("message", std::string()), std::string("The driver exited with code 7"));
        QVERIFY(endA["startedAt"] == startedA);
        QVERIFY(fullLog(m_service, m_project.op, "ja", a).endsWith("done\n"));
        const auto endB = waitForRun(m_service, m_project.op, "jb", b, hasEnded());
        QCOMPARE(endB.value("status", std::string()), std::string(kCompleted));
        QCOMPARE(endB.value("exitCode", -1), 0);
        const auto endC = waitForRun(m_service, m_project.op, "jc", c, hasEnded());
        QCOMPARE(endC.value("status", std::string()), std::string(kCompleted));

        const auto shown = st("SHOW JOB_RUNS");
        const auto runs = shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"];
        QCOMPARE(runs.size(), std::size_t(3));
        std::set<std::string> ids;
        for (const auto& r : runs)
            ids.insert(r["jobRunId"].get<std::string>());
        QCOMPARE(ids, (std::set<std::string>{a.toStdString(), b.toStdString(), c.toStdString()}));
        // jc's driver ran once.
        QCOMPARE(fullLog(m_service, m_project.op, "jc", c).count("run-id: "), qsizetype(1));
    }

    void driverGoneWithoutExitStatusFails() {
        QVERIFY(createJob("jd", {kPythonApp, "--sleep", "60"}, "rc"));
        const QString d = runIdOf(runJob(m_service, m_project.op, "jd"));
        QVERIFY(waitForRun(m_service, m_project.op, "jd", d, hasStatus(kRunning)).is_object());
        qint64 pid = 0;
        QTRY_VERIFY_WITH_TIMEOUT((pid = driverPidFromLog(fullLog(m_service, m_project.op, "jd", d))) > 0,
                                 10000);
        const pid_t monitor = parentOf(static_cast<pid_t>(pid));
        QVERIFY(monitor > 1);

        m_service.kill9();
        // Nobody is left to record how the driver ended.
        QCOMPARE(::kill(monitor, SIGKILL), 0);
        QCOMPARE(::kill(-static_cast<pid_t>(pid), SIGKILL), 0);
        QThread::msleep(300);
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));

        const auto end = waitForRun(m_service, m_project.op, "jd", d, hasEnded());
        QCOMPARE(end.value("status", std::string()), std::string(kFailed));
        QCOMPARE(
            end.value("message", std::string()),
            "The driver (pid " + std::to_string(pid) +
                ") ended without recording an exit status; it was stopped outside the service's control");
    }

    void finishedRunsExpireAfterTheRetentionPeriod() {
        const QString kept = runIdOf(runJob(m_service, m_project.op, "jc"));
        QCOMPARE(waitForRun(m_service, m_project.op, "jc", kept, hasEnded()).value("status", std::string()),
                 std::string(kCompleted));
        const QString old = runIdOf(runJob(m_service, m_project.op, "jc"));
        QCOMPARE(waitForRun(m_service, m_project.op, "jc", old, hasEnded()).value("status", std::string()),
                 std::string(kCompleted));
        const QString oldDir = m_service.dataDir() + "/runs/" + old;
        QVERIFY(QFileInfo::exists(oldDir + "/driver.log"));

        // Make one run older than the default 30 days while the service is down.
        QCOMPARE(m_service.stop(), 0);
        {
            ServiceDatabase db(m_service);
            QCOMPARE(
                db.execute("UPDATE runs SET ended_at = '2000-01-01T00:00:00.000Z' WHERE run_id = ?", {old}),
                1);
        }
        // Directories without a row (their Job was deleted): removed once as old as the retention period.
        const QString orphanOld = m_service.dataDir() + "/runs/orphan-old";
        const QString orphanNew = m_service.dataDir() + "/runs/orphan-new";
        QVERIFY(QDir().mkpath(orphanOld) && QDir().mkpath(orphanNew));
        const struct timespec times[2] = {{946684800, 0}, {946684800, 0}}; // 2000-01-01
        QCOMPARE(::utimensat(AT_FDCWD, orphanOld.toLocal8Bit().constData(), times, 0), 0);
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(describeRun(m_service, m_project.op, "jc", old).is_null(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(orphanOld), 5000);
        QVERIFY(QFileInfo::exists(orphanNew));
        QVERIFY(!QFileInfo::exists(oldDir));
        QCOMPARE(describeRun(m_service, m_project.op, "jc", kept).value("status", std::string()),
                 std::string(kCompleted));
        QVERIFY(QFileInfo::exists(m_service.dataDir() + "/runs/" + kept + "/driver.log"));
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunRestart)
#include "tst_runrestart.moc"
