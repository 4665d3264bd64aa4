// The driver launcher in-process: survival layout (monitor not our child, driver in its own
// process group), environment, hudi-defaults.conf, log capture, exit statuses and group signals.
#include "service/runs/RunLauncher.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestService.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

using namespace jobdeck;

namespace {

const std::string kApp = JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py";

std::optional<ExitStatus> waitForExit(const std::string& runDir, int timeoutMs = 20000) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < timeoutMs) {
        if (auto status = RunLauncher::readExitStatus(runDir))
            return status;
        QThread::msleep(50);
    }
    return std::nullopt;
}

QString readAll(const std::string& path) {
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

pid_t parentOf(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    const auto close = line.rfind(')');
    std::istringstream fields(line.substr(close + 2));
    std::string state;
    pid_t ppid = 0;
    fields >> state >> ppid;
    return ppid;
}

// "pid comm state" of each process in process group `group`, for a failure message.
QString groupMembers(pid_t group) {
    QStringList members;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "stat");
        std::string line;
        if (!std::getline(in, line))
            continue;
        const auto open = line.find('(');
        const auto close = line.rfind(')');
        if (open == std::string::npos || close == std::string::npos)
            continue;
        std::istringstream fields(line.substr(close + 2));
        std::string state;
        pid_t ppid = 0, pgrp = 0;
        fields >> state >> ppid >> pgrp;
        if (pgrp == group)
            members << QString::fromStdString(line.substr(0, open) + line.substr(open, close - open + 1) +
                                              " " + state);
    }
    return members.join(", ");
}

// Children of this process that exited and were not reaped.
int zombieChildren() {
    int zombies = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "stat");
        std::string line;
        if (!std::getline(in, line) || line.rfind(')') == std::string::npos)
            continue;
        std::istringstream fields(line.substr(line.rfind(')') + 2));
        std::string state;
        pid_t ppid = 0;
        fields >> state >> ppid;
        zombies += ppid == ::getpid() && state == "Z" ? 1 : 0;
    }
    return zombies;
}

LaunchSpec specFor(const QTemporaryDir& dir, std::vector<std::string> args) {
    LaunchSpec spec;
    spec.runId = "run-123";
    spec.runDir = dir.filePath("run").toStdString();
    spec.logPath = dir.filePath("run.log").toStdString();
    spec.argv = {"python3", kApp};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.extraEnv = {{"ONEHOUSE_JOB_RUN_ID", spec.runId}, {"HUDI_CONF_DIR", spec.runDir}};
    spec.hudiDefaults = "hoodie.a=1\nhoodie.b=x y\n";
    return spec;
}

} // namespace

class TestRunLauncher final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // This test program is not jobdeckd: the monitor is not beside it.
        qputenv("JOBDECKD_RUN_MONITOR", TestService::runMonitorPath().toUtf8());
    }

    void runsDriverWithEnvironmentConfigAndArguments() {
        QTemporaryDir dir;
        const auto spec = specFor(dir, {"--date", "2024-01-01", "--mode=full"});
        const auto launched = RunLauncher::launch(spec);
        QVERIFY2(launched.error.empty(), launched.error.c_str());
        QVERIFY(launched.driverPid > 0);
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::Exited);
        QCOMPARE(status->code, 0);
        const QString log = readAll(spec.logPath);
        QVERIFY2(log.contains("run-id: run-123\n"), qPrintable(log));
        QVERIFY2(log.contains("hudi-conf: hoodie.a=1\nhudi-conf: hoodie.b=x y\n"), qPrintable(log));
        QVERIFY2(log.contains("arg: --date\narg: 2024-01-01\narg: --mode=full\n"), qPrintable(log));
        QVERIFY(log.endsWith("done\n"));
        const auto driver = RunLauncher::readDriver(spec.runDir);
        QVERIFY(driver);
        QCOMPARE(driver->pid, launched.driverPid);
    }

    void reportsExitCode() {
        QTemporaryDir dir;
        const auto spec = specFor(dir, {"--exit-code", "3"});
        QVERIFY(RunLauncher::launch(spec).error.empty());
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::Exited);
        QCOMPARE(status->code, 3);
    }

    // The two halves of a launch (what the scheduler does with a tick's claims): every monitor is
    // started before any report is read, and each report, read in any order, is its own run's driver.
    void launchesStartedTogetherReportTheirOwnDrivers() {
        QTemporaryDir dir;
        std::vector<LaunchSpec> specs;
        for (int i = 0; i < 6; ++i) {
            LaunchSpec spec = specFor(dir, {"--exit-code", std::to_string(i)});
            spec.runDir = dir.filePath(QStringLiteral("run%1").arg(i)).toStdString();
            spec.logPath = spec.runDir + ".log";
            specs.push_back(std::move(spec));
        }
        std::vector<StartedLaunch> started;
        for (const auto& spec : specs)
            started.push_back(RunLauncher::start(spec));
        for (std::size_t i = started.size(); i-- > 0;) {
            const auto launched = RunLauncher::finish(started[i]);
            QVERIFY2(launched.error.empty(), launched.error.c_str());
            const auto driver = RunLauncher::readDriver(specs[i].runDir);
            QVERIFY(driver);
            QCOMPARE(driver->pid, launched.driverPid);
        }
        for (std::size_t i = 0; i < specs.size(); ++i) {
            const auto status = waitForExit(specs[i].runDir);
            QVERIFY(status);
            QCOMPARE(status->code, static_cast<int>(i));
        }
        QCOMPARE(zombieChildren(), 0);
    }

    // A launch dropped between its halves (the scheduler's tick threw) reaps what it spawned; its driver
    // runs to its end as any other, and a start that failed reports its error from finish().
    void aLaunchDroppedBeforeItsReportLeavesNoZombie() {
        QTemporaryDir dir;
        const auto spec = specFor(dir, {"--exit-code", "4"});
        { StartedLaunch dropped = RunLauncher::start(spec); }
        QCOMPARE(zombieChildren(), 0);
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->code, 4);

        QTemporaryDir other;
        auto missing = specFor(other, {});
        missing.argv = {"jobdeck-no-such-program"};
        StartedLaunch failed = RunLauncher::start(missing);
        const auto result = RunLauncher::finish(failed);
        QVERIFY(result.error.find("jobdeck-no-such-program") != std::string::npos);
        QCOMPARE(result.driverPid, -1);
    }

    void driverIsDetachedFromTheService() {
        QTemporaryDir dir;
        const auto spec = specFor(dir, {"--sleep", "30"});
        const auto launched = RunLauncher::launch(spec);
        QVERIFY(launched.error.empty());
        QVERIFY(RunLauncher::isAlive(launched.driverPid, launched.driverStartTicks));
        QVERIFY(!RunLauncher::isAlive(launched.driverPid, launched.driverStartTicks + 1));
        // The monitor recorded the same start time the service reads from /proc.
        QCOMPARE(RunLauncher::readDriver(spec.runDir)->startTicks, launched.driverStartTicks);
        QCOMPARE(::getpgid(launched.driverPid), launched.driverPid);
        QCOMPARE(::getsid(launched.driverPid), launched.driverPid);
        const pid_t monitor = parentOf(launched.driverPid);
        QVERIFY(monitor > 1);
        QVERIFY(monitor != ::getpid());
        QVERIFY(parentOf(monitor) != ::getpid()); // reparented away from us
        QVERIFY(::getsid(monitor) != ::getsid(0));
        // The monitor is a small program of its own, not a copy of the service.
        QCOMPARE(QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/%1/exe").arg(monitor))).fileName(),
                 QStringLiteral("jobdeck-run-monitor"));

        QVERIFY(RunLauncher::signalGroup(launched.driverPid, SIGTERM));
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::Signaled);
        QCOMPARE(status->code, SIGTERM);
        // The exit is recorded once the driver was reaped; the group's last member may take a moment more
        // to go (a hang guard, not a duration).
        QTRY_VERIFY2_WITH_TIMEOUT(::kill(-launched.driverPid, 0) != 0,
                                  qPrintable(groupMembers(launched.driverPid)), 10000);
        QVERIFY(!RunLauncher::isAlive(launched.driverPid, launched.driverStartTicks));
        QVERIFY(!RunLauncher::signalGroup(launched.driverPid, SIGTERM));
    }

    void stdoutAndStderrInOrder() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.argv = {"sh", "-c", "echo one; echo two >&2; echo three; echo four >&2"};
        QVERIFY(RunLauncher::launch(spec).error.empty());
        QVERIFY(waitForExit(spec.runDir));
        QCOMPARE(readAll(spec.logPath), QString("one\ntwo\nthree\nfour\n"));
    }

    void cappedLogKeepsItsHeadAndNotesTheCut() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.maxLogBytes = 10000;
        spec.argv = {"sh", "-c",
                     "echo first; head -c 300000 /dev/zero | tr '\\0' x; echo; echo last >&2; exit 4"};
        QVERIFY(RunLauncher::launch(spec).error.empty());
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::Exited);
        QCOMPARE(status->code, 4);
        const QString log = readAll(spec.logPath);
        const QString note = "\n[jobdeckd: the log reached its cap of 10000 bytes (--max-log-bytes); later "
                             "output is discarded]\n";
        QVERIFY2(log.startsWith("first\nxxxx"), qPrintable(log.left(100)));
        QVERIFY2(log.endsWith(note), qPrintable(log.right(200)));
        QCOMPARE(log.size(), 10000 + note.size());
        QVERIFY(!log.contains("last"));
    }

    void cappedLogInOrderAndUncutBelowTheCap() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.maxLogBytes = 4096;
        spec.argv = {"sh", "-c", "echo one; echo two >&2; echo three; echo four >&2"};
        QVERIFY(RunLauncher::launch(spec).error.empty());
        QVERIFY(waitForExit(spec.runDir));
        QCOMPARE(readAll(spec.logPath), QString("one\ntwo\nthree\nfour\n"));
    }

    // A child that outlives the driver holds the output pipe open; the run still ends with its driver.
    void cappedLogDoesNotWaitForTheDriversChildren() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.maxLogBytes = 4096;
        spec.argv = {"sh", "-c", "sleep 60 & echo started; exit 0"};
        const auto launched = RunLauncher::launch(spec);
        QVERIFY(launched.error.empty());
        const auto status = waitForExit(spec.runDir, 15000);
        RunLauncher::signalGroup(launched.driverPid, SIGKILL); // the leftover sleep
        QVERIFY(status);
        QCOMPARE(status->code, 0);
        QCOMPARE(readAll(spec.logPath), QString("started\n"));
    }

    // Beside jobdeckd in a build tree, in ../libexec/jobdeck in the packages; nowhere else.
    void theMonitorIsFoundWhereTheBuildAndThePackagesPutIt() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "bin");
        QCOMPARE(RunLauncher::findRunMonitor(root / "bin"), std::string());
        const auto installed = root / "libexec" / "jobdeck" / "jobdeck-run-monitor";
        std::filesystem::create_directories(installed.parent_path());
        QVERIFY(QFile::copy(TestService::runMonitorPath(), QString::fromStdString(installed.string())));
        QCOMPARE(RunLauncher::findRunMonitor(root / "bin"), installed.string());
        const auto beside = root / "bin" / "jobdeck-run-monitor";
        QVERIFY(QFile::copy(TestService::runMonitorPath(), QString::fromStdString(beside.string())));
        QCOMPARE(RunLauncher::findRunMonitor(root / "bin"), beside.string());
        // Not executable: not a monitor.
        std::filesystem::permissions(beside, std::filesystem::perms::owner_read);
        std::filesystem::permissions(installed, std::filesystem::perms::owner_read);
        QCOMPARE(RunLauncher::findRunMonitor(root / "bin"), std::string());
    }

    void missingProgramIsAnError() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.argv = {"jobdeck-no-such-program"};
        const auto launched = RunLauncher::launch(spec);
        QCOMPARE(launched.error, std::string("Cannot find jobdeck-no-such-program in PATH"));

        spec.argv = {dir.filePath("not-executable").toStdString()};
        QFile(dir.filePath("not-executable")).open(QIODevice::WriteOnly);
        const auto failed = RunLauncher::launch(spec);
        QVERIFY2(failed.error.find("Cannot execute") == 0, failed.error.c_str());
        const auto status = waitForExit(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::SpawnFailed);
        QCOMPARE(status->code, EACCES);
    }

    void launchStateTellsWhetherADriverWasForked() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {"--sleep", "30"});
        QVERIFY(QDir().mkpath(QString::fromStdString(spec.runDir)));
        QCOMPARE(RunLauncher::launchState(spec.runDir), LaunchState::NotLaunched);

        // Someone holding the launch lock (a launcher between fork and recording the driver).
        const std::string lockPath = spec.runDir + "/launch.lock";
        const int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        QVERIFY(lock >= 0);
        QCOMPARE(::flock(lock, LOCK_EX), 0);
        QCOMPARE(RunLauncher::launchState(spec.runDir), LaunchState::Launching);
        QVERIFY(!RunLauncher::launch(spec).error.empty()); // a second launch into it is refused
        ::close(lock);
        QCOMPARE(RunLauncher::launchState(spec.runDir), LaunchState::NotLaunched);

        const auto launched = RunLauncher::launch(spec);
        QVERIFY2(launched.error.empty(), launched.error.c_str());
        QCOMPARE(RunLauncher::launchState(spec.runDir), LaunchState::Launched);
        QVERIFY(RunLauncher::signalGroup(launched.driverPid, SIGKILL));
        QVERIFY(waitForExit(spec.runDir));
        QCOMPARE(RunLauncher::launchState(spec.runDir), LaunchState::Launched);
    }

    void monitorSignalsTheExitAfterRecordingIt() {
        QTemporaryDir dir;
        auto spec = specFor(dir, {});
        spec.exitNotifyPath = dir.filePath("exits.fifo").toStdString();
        QCOMPARE(::mkfifo(spec.exitNotifyPath.c_str(), 0600), 0);
        const int fifo = ::open(spec.exitNotifyPath.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
        QVERIFY(fifo >= 0);
        QVERIFY(RunLauncher::launch(spec).error.empty());
        char byte = 0;
        bool signalled = false; // QTRY_VERIFY evaluates its condition once more at the end
        QTRY_VERIFY_WITH_TIMEOUT(signalled || (signalled = ::read(fifo, &byte, 1) == 1), 20000);
        ::close(fifo);
        // The byte comes after the status is in place, so whoever it wakes finds it.
        const auto status = RunLauncher::readExitStatus(spec.runDir);
        QVERIFY(status);
        QCOMPARE(status->kind, ExitStatus::Kind::Exited);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunLauncher)
#include "tst_runlauncher.moc"
