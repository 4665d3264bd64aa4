#include "service/runs/RunLauncher.h"

#include "service/runmonitor/RunMonitor.h"
#include "service/runs/DriverEnvironment.h"

#include "core/policy/RunEndMessages.h"
#include "core/text/Concat.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
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
#include <utility>

namespace jobdeck {
namespace {

std::string launchLockPath(const std::string& runDir) {
    return runDir + "/launch.lock";
}

// For tests only (docs/runs.md): JOBDECKD_TEST_KILL_AFTER_FORK=<ms> makes the service SIGKILL itself
// right after starting a launcher, whose monitor waits <ms> before forking the driver, so that a
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
                         RunMonitor::writeAll(fd, spec.hudiDefaults.data(), spec.hudiDefaults.size());
    if (fd >= 0)
        ::close(fd);
    return written ? std::string() : fileNotWrittenProblem(confPath);
}

// The monitor jobdeckd starts its drivers with: $JOBDECKD_RUN_MONITOR when set (tests that link the
// launcher into a program of their own), else findRunMonitor beside the running program.
const std::string& runMonitorPath() {
    static const std::string path = [] {
        if (const char* set = std::getenv("JOBDECKD_RUN_MONITOR"); set && *set)
            return std::string(set);
        std::error_code ec;
        return RunLauncher::findRunMonitor(std::filesystem::read_symlink("/proc/self/exe", ec).parent_path());
    }();
    return path;
}

// The descriptors the monitor is started with, each above the ones it becomes there (0 to 4), so that
// no dup2 of the spawn overwrites another's source.
struct LaunchFds {
    int lock = -1; // held from before the spawn until the monitor has recorded the driver (see launchState())
    int log = -1;
    int null = -1;
    int report[2] = {-1, -1};

    void closeAll() {
        for (const int fd : {lock, log, null, report[0], report[1]})
            if (fd >= 0)
                ::close(fd);
    }
};

// `fd` moved to a number of 10 or more (close-on-exec); -1 when that fails, and `fd` is closed anyway.
int movedHigh(int fd) {
    if (fd < 0)
        return -1;
    const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    ::close(fd);
    return high;
}

// Opens and locks what the monitor needs; the error, or empty (then nothing is left open).
std::string openLaunchFds(const LaunchSpec& spec, const std::string& runDir, LaunchFds& fds) {
    const std::string lockPath = launchLockPath(runDir);
    fds.lock = movedHigh(::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (fds.lock < 0 || ::flock(fds.lock, LOCK_EX | LOCK_NB) != 0) {
        std::string error = launchNotLockedProblem(lockPath, std::strerror(errno));
        fds.closeAll();
        return error;
    }
    fds.log = movedHigh(::open(spec.logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600));
    if (fds.log < 0) {
        std::string error = logNotOpenedProblem(spec.logPath, std::strerror(errno));
        fds.closeAll();
        return error;
    }
    fds.null = movedHigh(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    int report[2] = {-1, -1};
    if (fds.null < 0 || ::pipe2(report, O_CLOEXEC) != 0 || (fds.report[0] = movedHigh(report[0])) < 0 ||
        (fds.report[1] = movedHigh(report[1])) < 0) {
        std::string error = launchNotPreparedProblem(std::strerror(errno));
        fds.closeAll();
        return error;
    }
    return {};
}

// Starts the monitor with posix_spawn (the service's address space is not copied): fds 0 /dev/null,
// 1 and 2 the log, 3 the report pipe, 4 the launch lock, every other fd closed; its own session,
// default signal handling, nothing blocked; inside the run directory. The error number, or 0.
int spawnMonitor(const std::string& monitor, std::vector<std::string>& arguments,
                 std::vector<std::string>& environment, const LaunchFds& fds, const std::string& runDir,
                 pid_t& pid) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    if (int error = posix_spawn_file_actions_init(&actions); error != 0)
        return error;
    if (int error = posix_spawnattr_init(&attributes); error != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return error;
    }
    sigset_t all;
    sigset_t none;
    sigfillset(&all);
    sigemptyset(&none);
    int error = 0;
    for (const auto& [from, to] :
         {std::pair{fds.null, 0}, {fds.log, 1}, {fds.log, 2}, {fds.report[1], 3}, {fds.lock, 4}})
        if (error == 0)
            error = posix_spawn_file_actions_adddup2(&actions, from, to);
    if (error == 0)
        error = posix_spawn_file_actions_addclosefrom_np(&actions, 5);
    if (error == 0)
        error = posix_spawn_file_actions_addchdir_np(&actions, runDir.c_str());
    if (error == 0)
        error = posix_spawnattr_setflags(&attributes,
                                         POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (error == 0)
        error = posix_spawnattr_setsigdefault(&attributes, &all);
    if (error == 0)
        error = posix_spawnattr_setsigmask(&attributes, &none);
    if (error == 0) {
        auto argv = pointers(arguments);
        auto envp = pointers(environment);
        error = posix_spawn(&pid, monitor.c_str(), &actions, &attributes, argv.data(), envp.data());
    }
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return error;
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

StartedLaunch::StartedLaunch(StartedLaunch&& other) noexcept
    : m_error(std::move(other.m_error))
    , m_program(std::move(other.m_program))
    , m_starter(std::exchange(other.m_starter, -1))
    , m_reportFd(std::exchange(other.m_reportFd, -1)) {}

StartedLaunch::~StartedLaunch() {
    release();
}

void StartedLaunch::release() {
    if (m_reportFd >= 0)
        ::close(std::exchange(m_reportFd, -1));
    if (m_starter > 0)
        while (::waitpid(std::exchange(m_starter, -1), nullptr, 0) < 0 && errno == EINTR) {
        }
}

LaunchResult RunLauncher::launch(const LaunchSpec& spec) {
    StartedLaunch started = start(spec);
    return finish(started);
}

StartedLaunch RunLauncher::start(const LaunchSpec& spec) {
    StartedLaunch started;
    if (spec.argv.empty()) {
        started.m_error = nothingToRunProblem();
        return started;
    }
    if (started.m_error = prepareRunDir(spec); !started.m_error.empty())
        return started;
    RunMonitorArguments monitorArguments;
    monitorArguments.program = findExecutable(spec.argv.front());
    if (monitorArguments.program.empty()) {
        started.m_error = programNotInPathProblem(spec.argv.front());
        return started;
    }
    const std::string& monitor = runMonitorPath();
    if (monitor.empty()) {
        started.m_error = runMonitorMissingProblem(RunMonitor::kProgramName);
        return started;
    }
    // Absolute: the monitor and the driver work inside the run directory.
    monitorArguments.runDir = std::filesystem::absolute(spec.runDir).string();
    monitorArguments.maxLogBytes = spec.maxLogBytes;
    monitorArguments.killAfterForkMs = testKillAfterForkMs();
    monitorArguments.notifyPath = spec.exitNotifyPath;
    monitorArguments.argv = spec.argv;
    std::vector<std::string> arguments = RunMonitor::commandLine(monitorArguments);
    arguments.insert(arguments.begin(), RunMonitor::kProgramName);
    std::vector<std::string> environment = DriverEnvironment::build(spec.extraEnv);
    LaunchFds fds;
    if (started.m_error = openLaunchFds(spec, monitorArguments.runDir, fds); !started.m_error.empty())
        return started;

    pid_t starter = -1;
    const int spawnError =
        spawnMonitor(monitor, arguments, environment, fds, monitorArguments.runDir, starter);
    if (spawnError == 0 && monitorArguments.killAfterForkMs)
        ::kill(::getpid(), SIGKILL);
    started.m_reportFd = std::exchange(fds.report[0], -1);
    fds.closeAll();
    if (spawnError != 0) {
        started.release();
        started.m_error = monitorNotSpawnedProblem(std::strerror(spawnError));
        return started;
    }
    started.m_starter = starter;
    started.m_program = std::move(monitorArguments.program);
    return started;
}

LaunchResult RunLauncher::finish(StartedLaunch& launch) {
    LaunchResult result;
    if (!launch.m_error.empty()) {
        result.error = launch.m_error;
        return result;
    }
    const auto report = readMonitorReport(launch.m_reportFd);
    launch.release();
    if (!report) {
        result.error = monitorNotStartedProblem();
        return result;
    }
    result.driverPid = report->driverPid;
    if (report->execErrno != 0) {
        result.error = programNotExecutedProblem(launch.m_program, std::strerror(report->execErrno));
        return result;
    }
    result.driverStartTicks = processStartTicks(report->driverPid).value_or(0);
    return result;
}

std::string RunLauncher::findRunMonitor(const std::filesystem::path& programDir) {
    for (const auto& candidate : {programDir / RunMonitor::kProgramName,
                                  programDir / ".." / "libexec" / "jobdeck" / RunMonitor::kProgramName})
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate.lexically_normal().string();
    return {};
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
