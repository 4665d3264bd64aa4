#include "service/runs/RunLauncher.h"

#include "service/runs/DriverEnvironment.h"

#include "core/policy/RunEndMessages.h"
#include "core/text/Concat.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace jobdeck {
namespace {

// What the monitor reports to the service once the driver has exec'd (or failed to).
struct MonitorReport {
    pid_t driverPid;
    int execErrno;
};

// ---- async-signal-safe helpers, used between fork and exec / in the monitor ----

std::size_t appendText(char* buf, std::size_t at, std::size_t cap, const char* text) {
    while (*text && at + 1 < cap)
        buf[at++] = *text++;
    buf[at] = '\0';
    return at;
}

std::size_t appendNumber(char* buf, std::size_t at, std::size_t cap, long long value) {
    char digits[24];
    std::size_t n = 0;
    const bool negative = value < 0;
    unsigned long long v =
        negative ? 0ULL - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value);
    do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative && at + 1 < cap)
        buf[at++] = '-';
    while (n && at + 1 < cap)
        buf[at++] = digits[--n];
    buf[at] = '\0';
    return at;
}

bool writeAll(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// Writes `text` to tmpPath and renames it over path, so readers never see half a file.
void writeFileAtomically(const char* tmpPath, const char* path, const char* text) {
    const int fd = ::open(tmpPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    writeAll(fd, text, std::strlen(text));
    ::close(fd);
    ::rename(tmpPath, path);
}

// Field 22 of /proc/<pid>/stat (start time in clock ticks) without allocating; 0 when unreadable.
std::uint64_t startTicksOf(pid_t pid) {
    char path[48];
    std::size_t at = appendText(path, 0, sizeof path, "/proc/");
    at = appendNumber(path, at, sizeof path, pid);
    appendText(path, at, sizeof path, "/stat");
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char buf[1024];
    std::size_t got = 0;
    ssize_t n;
    while (got < sizeof buf && (n = ::read(fd, buf + got, sizeof buf - got)) > 0)
        got += static_cast<std::size_t>(n);
    ::close(fd);
    // The command name (field 2) may contain spaces and parentheses; fields resume after the last ')'.
    std::size_t i = got;
    while (i > 0 && buf[i - 1] != ')')
        --i;
    int field = 2;
    std::uint64_t value = 0;
    for (; i > 0 && i < got; ++i) {
        if (buf[i] == ' ') {
            if (field == 22)
                return value;
            ++field;
        } else if (field == 22 && buf[i] >= '0' && buf[i] <= '9') {
            value = value * 10 + static_cast<std::uint64_t>(buf[i] - '0');
        }
    }
    return 0;
}

void setSignal(int sig, void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
}

void sleepMs(int ms) {
    timespec left{ms / 1000, static_cast<long>(ms % 1000) * 1000000L};
    while (::nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

void resetSignals() {
    for (int sig = 1; sig < NSIG; ++sig)
        setSignal(sig, SIG_DFL); // fails harmlessly for SIGKILL, SIGSTOP and unused numbers
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// ---- ordinary helpers, used before forking ----

// Monitor side of a capped log: copies the driver's output (`pipeFd`) to the log (`logFd`) until the
// pipe closes, or until the driver ended and nothing more is waiting (a descendant of the driver may
// keep the pipe open), then reaps the driver into `status`. Async-signal-safe calls only.
void copyCappedLogUntilExit(int pipeFd, int logFd, std::uint64_t maxBytes, pid_t driver, int& status) {
    struct stat logStat {};
    std::uint64_t written = ::fstat(logFd, &logStat) == 0 ? static_cast<std::uint64_t>(logStat.st_size) : 0;
    bool noted = false;
    bool ended = false;
    int drainReads = 0; // after the driver ended: what was already written, not a descendant's stream
    char buffer[16384];
    while (!ended || drainReads++ < 64) {
        pollfd ready{pipeFd, POLLIN, 0};
        const int polled = ::poll(&ready, 1, ended ? 0 : 500);
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled > 0) {
            const ssize_t n = ::read(pipeFd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break; // every writer is gone
            const auto room = written < maxBytes ? maxBytes - written : 0;
            const auto kept = std::min<std::uint64_t>(room, static_cast<std::uint64_t>(n));
            writeAll(logFd, buffer, kept);
            written += kept;
            if (kept < static_cast<std::uint64_t>(n) && !noted) {
                char note[160];
                std::size_t at = appendText(note, 0, sizeof note, "\n[jobdeckd: the log reached its cap of ");
                at = appendNumber(note, at, sizeof note, static_cast<long long>(maxBytes));
                appendText(note, at, sizeof note, " bytes (--max-log-bytes); later output is discarded]\n");
                writeAll(logFd, note, std::strlen(note));
                noted = true;
            }
            continue;
        }
        if (ended || polled < 0)
            break;
        if (::waitpid(driver, &status, WNOHANG) == driver)
            ended = true;
    }
    ::close(pipeFd);
    if (!ended)
        while (::waitpid(driver, &status, 0) < 0 && errno == EINTR) {
        }
}

std::string launchLockPath(const std::string& runDir) {
    return runDir + "/launch.lock";
}

// For tests only (docs/runs.md): JOBDECKD_TEST_KILL_AFTER_FORK=<ms> makes the service SIGKILL itself
// right after forking a launcher, whose monitor waits <ms> before forking the driver, so that a
// restart lands between the fork and the driver being recorded.
std::optional<int> testKillAfterForkMs() {
    static const std::optional<int> ms = []() -> std::optional<int> {
        const char* value = std::getenv("JOBDECKD_TEST_KILL_AFTER_FORK");
        if (!value || !*value)
            return std::nullopt;
        return std::clamp(std::atoi(value), 0, 60000);
    }();
    return ms;
}

std::string findExecutable(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return name;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        std::string candidate = concat({dir.empty() ? "." : dir, "/", name});
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    result.reserve(strings.size() + 1);
    for (auto& s : strings)
        result.push_back(s.data());
    result.push_back(nullptr);
    return result;
}

// The run directory with its hudi-defaults.conf, readable by the service's user only (Hudi
// configurations may hold passwords); the error, or empty.
std::string prepareRunDir(const LaunchSpec& spec) {
    std::error_code ec;
    std::filesystem::create_directories(spec.runDir, ec);
    if (ec)
        return runDirectoryNotCreatedProblem(spec.runDir, ec.message());
    std::filesystem::permissions(spec.runDir, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::replace, ec);
    const std::string confPath = RunLauncher::hudiDefaultsPath(spec.runDir);
    const int fd = ::open(confPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    const bool written = fd >= 0 && ::fchmod(fd, 0600) == 0 &&
                         writeAll(fd, spec.hudiDefaults.data(), spec.hudiDefaults.size());
    if (fd >= 0)
        ::close(fd);
    return written ? std::string() : fileNotWrittenProblem(confPath);
}

// Everything the children touch, prepared before fork (they may not allocate). Not movable: argv and
// envp point into the strings.
struct PreparedLaunch {
    PreparedLaunch(const LaunchSpec& spec, std::string programPath)
        : program(std::move(programPath))
        , argvStrings(spec.argv)
        , envStrings(DriverEnvironment::build(spec.extraEnv))
        , argv(pointers(argvStrings))
        , envp(pointers(envStrings))
        // Absolute: the monitor and the driver work inside the run directory.
        , runDir(std::filesystem::absolute(spec.runDir).string())
        , statusPath(RunLauncher::exitStatusPath(runDir))
        , statusTmp(statusPath + ".tmp")
        , pidPath(runDir + "/driver-pid")
        , pidTmp(pidPath + ".tmp")
        , notifyPath(spec.exitNotifyPath.empty() ? nullptr : spec.exitNotifyPath.c_str())
        , killAfterFork(testKillAfterForkMs())
        , maxLogBytes(spec.maxLogBytes) {}
    PreparedLaunch(const PreparedLaunch&) = delete;
    PreparedLaunch& operator=(const PreparedLaunch&) = delete;

    const std::string program;
    std::vector<std::string> argvStrings;
    std::vector<std::string> envStrings;
    std::vector<char*> argv;
    std::vector<char*> envp;
    const std::string runDir;
    const std::string statusPath;
    const std::string statusTmp;
    const std::string pidPath;
    const std::string pidTmp;
    const char* notifyPath;
    const std::optional<int> killAfterFork;
    const std::uint64_t maxLogBytes;
};

// The descriptors the intermediate child inherits.
struct LaunchFds {
    int lock = -1; // held from before the fork until the monitor has recorded the driver (see launchState())
    int log = -1;
    int null = -1;
    int report[2] = {-1, -1};

    void closeAll() {
        for (const int fd : {lock, log, null, report[0], report[1]})
            if (fd >= 0)
                ::close(fd);
    }
};

// Opens and locks what the children need; the error, or empty (then nothing is left open).
std::string openLaunchFds(const LaunchSpec& spec, const PreparedLaunch& launch, LaunchFds& fds) {
    const std::string lockPath = launchLockPath(launch.runDir);
    fds.lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fds.lock < 0 || ::flock(fds.lock, LOCK_EX | LOCK_NB) != 0) {
        std::string error = launchNotLockedProblem(lockPath, std::strerror(errno));
        fds.closeAll();
        return error;
    }
    fds.log = ::open(spec.logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fds.log < 0) {
        std::string error = logNotOpenedProblem(spec.logPath, std::strerror(errno));
        fds.closeAll();
        return error;
    }
    fds.null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fds.null < 0 || ::pipe2(fds.report, O_CLOEXEC) != 0) {
        std::string error = launchNotPreparedProblem(std::strerror(errno));
        fds.report[0] = fds.report[1] = -1;
        fds.closeAll();
        return error;
    }
    return {};
}

// In the driver's process, after fork: its own session, its output to the pipe when capped, exec.
[[noreturn]] void execDriver(const PreparedLaunch& launch, const int output[2], const int execError[2]) {
    setSignal(SIGPIPE, SIG_DFL);
    ::setsid();
    if (output[1] >= 0 && (::dup2(output[1], 1) != 1 || ::dup2(output[1], 2) != 2))
        _exit(127);
    ::close(3);
    ::close(4);
    ::close(execError[0]);
    ::execve(launch.program.c_str(), launch.argv.data(), launch.envp.data());
    const int e = errno;
    writeAll(execError[1], &e, sizeof e);
    _exit(127);
}

// <runDir>/driver-pid: "<pid> <start ticks>". Not fsync'd: it only matters while the machine (and so
// the driver) is up.
void recordDriver(const PreparedLaunch& launch, pid_t driver) {
    char pidText[64];
    std::size_t at = appendNumber(pidText, 0, sizeof pidText, driver);
    at = appendText(pidText, at, sizeof pidText, " ");
    at = appendNumber(pidText, at, sizeof pidText, static_cast<long long>(startTicksOf(driver)));
    appendText(pidText, at, sizeof pidText, "\n");
    writeFileAtomically(launch.pidTmp.c_str(), launch.pidPath.c_str(), pidText);
}

// <runDir>/exit-status, then the wake-up of the service, then the fsync.
void recordExit(const PreparedLaunch& launch, int execErrno, int status) {
    char text[64];
    std::size_t at = 0;
    if (execErrno != 0) {
        at = appendText(text, at, sizeof text, "spawn-error ");
        at = appendNumber(text, at, sizeof text, execErrno);
    } else if (WIFSIGNALED(status)) {
        at = appendText(text, at, sizeof text, "signaled ");
        at = appendNumber(text, at, sizeof text, WTERMSIG(status));
    } else {
        at = appendText(text, at, sizeof text, "exited ");
        at = appendNumber(text, at, sizeof text, WEXITSTATUS(status));
    }
    appendText(text, at, sizeof text, "\n");
    writeFileAtomically(launch.statusTmp.c_str(), launch.statusPath.c_str(), text);
    // Wakes the service at once instead of at its next poll; nobody listens while it is down.
    if (launch.notifyPath) {
        const int notify = ::open(launch.notifyPath, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (notify >= 0) {
            writeAll(notify, "x", 1);
            ::close(notify);
        }
    }
    // Then fsync'd, so that after a power loss it is still the driver's true end; not before the
    // wake-up, which needs only the page cache (the service commits the state durably itself).
    if (const int written = ::open(launch.statusPath.c_str(), O_RDONLY | O_CLOEXEC); written >= 0) {
        ::fsync(written);
        ::close(written);
    }
}

// The monitor: forks the driver, records it, reports to the service on fd 3, releases the launch lock
// (fd 4), waits for the driver (copying its capped output) and records how it ended.
[[noreturn]] void runMonitor(const PreparedLaunch& launch) {
    // A service that died must not take it along through SIGPIPE on the report pipe.
    setSignal(SIGPIPE, SIG_IGN);
    if (launch.killAfterFork)
        sleepMs(*launch.killAfterFork);
    int execError[2];
    if (::pipe2(execError, O_CLOEXEC) != 0)
        _exit(1);
    int output[2] = {-1, -1};
    if (launch.maxLogBytes > 0 && ::pipe2(output, O_CLOEXEC) != 0)
        _exit(1);
    const pid_t driver = ::fork();
    if (driver == 0)
        execDriver(launch, output, execError);
    MonitorReport out{driver, driver < 0 ? errno : 0};
    ::close(execError[1]);
    if (output[1] >= 0)
        ::close(output[1]);
    if (driver > 0)
        recordDriver(launch, driver);
    ::close(4); // the driver is recorded (or was never forked): the launch is no longer in doubt
    if (driver > 0) {
        int e = 0;
        ssize_t n;
        while ((n = ::read(execError[0], &e, sizeof e)) < 0 && errno == EINTR) {
        }
        if (n == static_cast<ssize_t>(sizeof e))
            out.execErrno = e;
    }
    ::close(execError[0]);
    writeAll(3, &out, sizeof out);
    ::close(3);
    if (driver < 0)
        _exit(1);
    int status = 0;
    if (output[0] >= 0)
        copyCappedLogUntilExit(output[0], 1, launch.maxLogBytes, driver, status);
    else
        while (::waitpid(driver, &status, 0) < 0 && errno == EINTR) {
        }
    recordExit(launch, out.execErrno, status);
    _exit(0);
}

// The short-lived child: new session, clean fds and signals, fork the monitor, exit.
// fds: 0 /dev/null, 1 and 2 the log, 3 the report pipe, 4 the launch lock.
[[noreturn]] void runIntermediate(const PreparedLaunch& launch, const LaunchFds& fds) {
    resetSignals();
    ::setsid();
    ::dup2(fds.null, 0);
    ::dup2(fds.log, 1);
    ::dup2(fds.log, 2);
    // Moved out of the way first, so that neither dup2 below overwrites the other's source.
    const int reportCopy = ::fcntl(fds.report[1], F_DUPFD, 10);
    const int lockCopy = ::fcntl(fds.lock, F_DUPFD, 10);
    if (reportCopy < 0 || lockCopy < 0 || ::dup2(reportCopy, 3) != 3 || ::dup2(lockCopy, 4) != 4)
        _exit(1);
    ::close_range(5, ~0U, 0);
    if (::chdir(launch.runDir.c_str()) != 0)
        _exit(1);
    const pid_t monitor = ::fork();
    if (monitor != 0)
        _exit(monitor < 0 ? 1 : 0);
    runMonitor(launch);
}

// In the service: what the monitor reported on the pipe (nothing when it never started).
std::optional<MonitorReport> readMonitorReport(int fd) {
    MonitorReport in{};
    std::size_t got = 0;
    while (got < sizeof in) {
        const ssize_t n = ::read(fd, reinterpret_cast<char*>(&in) + got, sizeof in - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    if (got != sizeof in || in.driverPid <= 0)
        return std::nullopt;
    return in;
}

} // namespace

LaunchResult RunLauncher::launch(const LaunchSpec& spec) {
    LaunchResult result;
    if (spec.argv.empty()) {
        result.error = nothingToRunProblem();
        return result;
    }
    if (result.error = prepareRunDir(spec); !result.error.empty())
        return result;
    std::string program = findExecutable(spec.argv.front());
    if (program.empty()) {
        result.error = programNotInPathProblem(spec.argv.front());
        return result;
    }
    const PreparedLaunch launch(spec, std::move(program));
    LaunchFds fds;
    if (result.error = openLaunchFds(spec, launch, fds); !result.error.empty())
        return result;

    const pid_t intermediate = ::fork();
    if (intermediate == 0)
        runIntermediate(launch, fds);
    const int forkErrno = errno;
    if (intermediate > 0 && launch.killAfterFork)
        ::kill(::getpid(), SIGKILL);
    const int reportFd = fds.report[0];
    fds.report[0] = -1;
    fds.closeAll();
    if (intermediate < 0) {
        ::close(reportFd);
        result.error = monitorNotForkedProblem(std::strerror(forkErrno));
        return result;
    }
    while (::waitpid(intermediate, nullptr, 0) < 0 && errno == EINTR) {
    }
    const auto report = readMonitorReport(reportFd);
    ::close(reportFd);
    if (!report) {
        result.error = monitorNotStartedProblem();
        return result;
    }
    result.driverPid = report->driverPid;
    if (report->execErrno != 0) {
        result.error = programNotExecutedProblem(launch.program, std::strerror(report->execErrno));
        return result;
    }
    result.driverStartTicks = processStartTicks(report->driverPid).value_or(0);
    return result;
}

LaunchState RunLauncher::launchState(const std::string& runDir) {
    // The lock first: the monitor writes driver-pid before it lets go of the lock, so once the lock
    // is free, driver-pid is there if a driver was ever forked.
    const int fd = ::open(launchLockPath(runDir).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
        ::close(fd);
        if (held)
            return LaunchState::Launching;
    }
    return readDriver(runDir) ? LaunchState::Launched : LaunchState::NotLaunched;
}

std::optional<ExitStatus> RunLauncher::readExitStatus(const std::string& runDir) {
    std::ifstream in(exitStatusPath(runDir));
    std::string kind;
    int code = 0;
    if (!(in >> kind >> code))
        return std::nullopt;
    if (kind == "exited")
        return ExitStatus{ExitStatus::Kind::Exited, code};
    if (kind == "signaled")
        return ExitStatus{ExitStatus::Kind::Signaled, code};
    if (kind == "spawn-error")
        return ExitStatus{ExitStatus::Kind::SpawnFailed, code};
    return std::nullopt;
}

std::optional<DriverRecord> RunLauncher::readDriver(const std::string& runDir) {
    std::ifstream in(runDir + "/driver-pid");
    DriverRecord driver;
    if (!(in >> driver.pid) || driver.pid <= 0)
        return std::nullopt;
    if (!(in >> driver.startTicks)) // written by an older monitor: the pid alone
        driver.startTicks = 0;
    return driver;
}

std::optional<std::uint64_t> RunLauncher::processStartTicks(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    // The command name (field 2) may contain spaces and parentheses; fields resume after the last ')'.
    const auto close = line.rfind(')');
    if (close == std::string::npos)
        return std::nullopt;
    std::istringstream fields(line.substr(close + 1));
    std::string field;
    std::string state;
    fields >> state; // field 3
    if (state == "Z" || state == "X")
        return std::nullopt; // ended; only its parent has not collected it yet
    for (int i = 4; i < 22; ++i)
        fields >> field;
    std::uint64_t ticks = 0;
    if (!(fields >> ticks))
        return std::nullopt;
    return ticks;
}

bool RunLauncher::isAlive(pid_t pid, std::uint64_t startTicks) {
    if (pid <= 0)
        return false;
    const auto ticks = processStartTicks(pid);
    return ticks && (startTicks == 0 || *ticks == startTicks);
}

bool RunLauncher::signalGroup(pid_t driverPid, int signal) {
    return driverPid > 0 && ::kill(-driverPid, signal) == 0;
}

} // namespace jobdeck
