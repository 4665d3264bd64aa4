// A real kill -9 of jobdeckd between forking a driver's launcher and recording the driver: the run
// is started once, never twice. JOBDECKD_TEST_KILL_AFTER_FORK=<ms> (test-only, docs/runs.md) makes
// jobdeckd SIGKILL itself right after that fork while the launcher's monitor waits <ms> before
// forking the driver, so the restarted service comes back inside the window.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr const char* kFault = "JOBDECKD_TEST_KILL_AFTER_FORK";

// Processes working in `dir` (the launcher's monitor chdirs into the run directory).
std::vector<pid_t> processesIn(const QString& dir) {
    std::vector<pid_t> found;
    const QString target = QFileInfo(dir).canonicalFilePath();
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool number = false;
        const pid_t pid = entry.toInt(&number);
        if (number && QFileInfo("/proc/" + entry + "/cwd").canonicalFilePath() == target)
            found.push_back(pid);
    }
    return found;
}

// Whether some process holds the run's launch lock: the launcher and the monitor it forks do (one open
// file, shared across fork and exec) until the driver is forked, and the restarted service looks at it.
// Unlike a look at the processes' working directories, it does not miss a process while that one execs.
bool launchLockHeld(const QString& dir) {
    const int fd = ::open(QFile::encodeName(dir + "/launch.lock").constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

// Kills the launcher's processes until none holds the launch lock; false if one still does after 30 s (a
// hang guard). Its first process and the monitor it forks are one process group (docs/runs.md), killed
// together; one found before it made its own group (still the test's) is killed alone, and one not seen
// (it was exec'ing) is seen at the next look.
bool killLauncher(const QString& dir) {
    const QDeadlineTimer guard(30000);
    while (launchLockHeld(dir)) {
        if (guard.hasExpired())
            return false;
        for (const pid_t pid : processesIn(dir)) {
            const pid_t group = ::getpgid(pid);
            ::kill(group > 0 && group != ::getpgrp() ? -group : pid, SIGKILL);
        }
        QTest::qWait(20);
    }
    return true;
}

} // namespace

class TestRunLaunchCrash final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;

    QStringList runDirectories() const {
        return QDir(m_service.dataDir() + "/runs").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    }

    // Starts the service with the fault armed, runs `job` and waits for the service to kill itself;
    // returns the run id (from its new directory: the kill may come before RUN JOB's answer is out),
    // or an empty id and in m_crashProblem what went otherwise.
    QString runAndCrash(const QString& job, int monitorDelayMs) {
        const QStringList before = runDirectories();
        qputenv(kFault, QByteArray::number(monitorDelayMs));
        const bool started = m_service.start();
        qunsetenv(kFault); // the restarts below run without it
        if (!started) {
            m_crashProblem = "jobdeckd did not start: " + m_service.lastError();
            return {};
        }
        const auto answer = runJob(m_service, m_project.op, job);
        // A hang guard, far above the fork's few milliseconds even on a loaded machine.
        const QDeadlineTimer guard(60000);
        while (m_service.isRunning() && !guard.hasExpired())
            QTest::qWait(20); // QProcess learns of the exit from its event loop
        QStringList added;
        for (const QString& dir : runDirectories())
            if (!before.contains(dir))
                added << dir;
        if (m_service.isRunning() || added.size() != 1) {
            m_crashProblem = QStringLiteral("jobdeckd %1 after RUN JOB (answer: %2); new run directories: %3")
                                 .arg(m_service.isRunning() ? "still runs 60 s" : "exited")
                                 .arg(QString::fromStdString(answer.dump()))
                                 .arg(added.join(", "));
            return {};
        }
        return added.front();
    }

    QString m_crashProblem;

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QVERIFY(createClusterAndPythonJob(m_service, m_project.op, "lc", "lj", {"--sleep", "1"}));
        QCOMPARE(m_service.stop(), 0);
    }

    void restartDuringTheLaunchTakesTheDriverOver() {
        const QString id = runAndCrash("lj", 2000);
        QVERIFY2(!id.isEmpty(), qPrintable(m_crashProblem));
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        // The monitor is still waiting to fork the driver: the run must not be started again meanwhile.
        const auto end = waitForRun(m_service, m_project.op, "lj", id, hasEnded());
        QCOMPARE(end.value("status", std::string()), std::string(kCompleted));
        QCOMPARE(end.value("exitCode", -1), 0);
        const QByteArray log = fullLog(m_service, m_project.op, "lj", id);
        QCOMPARE(log.count("run-id: " + id.toUtf8()), qsizetype(1));
        QVERIFY2(m_service.errorOutput().contains("took over the driver"),
                 qPrintable(m_service.errorOutput()));
        QCOMPARE(m_service.stop(), 0);
    }

    void launchThatDiedBeforeTheDriverIsStartedAgain() {
        const QString id = runAndCrash("lj", 30000);
        QVERIFY2(!id.isEmpty(), qPrintable(m_crashProblem));
        // Like a reboot: the launcher goes too, before it forked the driver.
        const QString runDir = m_service.dataDir() + "/runs/" + id;
        // Hang guards: the launcher is there as soon as jobdeckd is gone, and gone as soon as it is killed.
        // Waited for by a loop that stops at the first sighting: /proc/<pid>/cwd cannot be read while
        // its process execs, so the sighting need not hold at the next look (QTRY looks twice).
        const QDeadlineTimer appears(30000);
        bool seen = false;
        while (!(seen = !processesIn(runDir).empty()) && !appears.hasExpired())
            QTest::qWait(20);
        QVERIFY2(seen, "no process of the launcher works in the run directory");
        QVERIFY2(killLauncher(runDir), "the launcher's processes held the launch lock 30 s after SIGKILL");
        QVERIFY(!QFileInfo::exists(runDir + "/driver-pid"));

        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        const auto end = waitForRun(m_service, m_project.op, "lj", id, hasEnded());
        QVERIFY2(end.value("status", std::string()) == kCompleted,
                 qPrintable(QString::fromStdString(end.dump()) + "\n" + m_service.errorOutput().right(3000)));
        QCOMPARE(fullLog(m_service, m_project.op, "lj", id).count("run-id: " + id.toUtf8()), qsizetype(1));
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunLaunchCrash)
#include "tst_runlaunchcrash.moc"
