#include "service/RunLauncher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

extern char** environ;

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

void writeAll(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size) {
        const ssize_t n = ::write(fd, p, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        p += n;
        size -= static_cast<std::size_t>(n);
    }
}

// Writes `text` to tmpPath, fsyncs and renames it over path, so readers never see half a file.
void writeFileAtomically(const char* tmpPath, const char* path, const char* text) {
    const int fd = ::open(tmpPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    writeAll(fd, text, std::strlen(text));
    ::fsync(fd);
    ::close(fd);
    ::rename(tmpPath, path);
}

void resetSignals() {
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (int sig = 1; sig < NSIG; ++sig)
        ::sigaction(sig, &action, nullptr); // fails harmlessly for SIGKILL, SIGSTOP and unused numbers
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// ---- ordinary helpers, used before forking ----

std::string findExecutable(const std::string& name) {
    if (name.find('/') != std::string::npos)
        return name;
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

std::vector<std::string> buildEnvironment(const LaunchSpec& spec) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const auto name = entry.substr(0, entry.find('='));
        bool overridden = false;
        for (const auto& [key, value] : spec.extraEnv)
            overridden = overridden || key == name;
        if (!overridden)
            env.push_back(entry);
    }
    for (const auto& [key, value] : spec.extraEnv)
        env.push_back(key + "=" + value);
    return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> result;
    for (auto& s : strings)
        result.push_back(s.data());
    result.push_back(nullptr);
    return result;
}

} // namespace

LaunchResult RunLauncher::launch(const LaunchSpec& spec) {
    LaunchResult result;
    if (spec.argv.empty()) {
        result.error = "Nothing to run";
        return result;
    }
    std::error_code ec;
    std::filesystem::create_directories(spec.runDir, ec);
    if (ec) {
        result.error = "Cannot create run directory " + spec.runDir + ": " + ec.message();
        return result;
    }
    {
        std::ofstream conf(hudiDefaultsPath(spec.runDir), std::ios::trunc);
        conf << spec.hudiDefaults;
        if (!conf.flush()) {
            result.error = "Cannot write " + hudiDefaultsPath(spec.runDir);
            return result;
        }
    }
    const std::string program = findExecutable(spec.argv.front());
    if (program.empty()) {
        result.error = "Cannot find " + spec.argv.front() + " in PATH";
        return result;
    }

    // Everything the children touch is prepared here, before fork.
    std::vector<std::string> argvStrings = spec.argv;
    std::vector<std::string> envStrings = buildEnvironment(spec);
    std::vector<char*> argv = pointers(argvStrings);
    std::vector<char*> envp = pointers(envStrings);
    // Absolute: the monitor and the driver work inside the run directory.
    const std::string absoluteRunDir = std::filesystem::absolute(spec.runDir).string();
    const std::string statusPath = exitStatusPath(absoluteRunDir);
    const std::string statusTmp = statusPath + ".tmp";
    const std::string pidPath = absoluteRunDir + "/driver-pid";
    const std::string pidTmp = pidPath + ".tmp";
    const char* runDir = absoluteRunDir.c_str();

    const int logFd = ::open(spec.logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (logFd < 0) {
        result.error = "Cannot open log " + spec.logPath + ": " + std::strerror(errno);
        return result;
    }
    const int nullFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    int report[2];
    if (nullFd < 0 || ::pipe2(report, O_CLOEXEC) != 0) {
        result.error = std::string("Cannot prepare the driver: ") + std::strerror(errno);
        ::close(logFd);
        if (nullFd >= 0)
            ::close(nullFd);
        return result;
    }

    const pid_t intermediate = ::fork();
    if (intermediate == 0) {
        // Short-lived child: new session, clean fds and signals, fork the monitor, exit.
        resetSignals();
        ::setsid();
        ::dup2(nullFd, 0);
        ::dup2(logFd, 1);
        ::dup2(logFd, 2);
        if (report[1] == 3)
            ::fcntl(3, F_SETFD, 0);
        else
            ::dup2(report[1], 3);
        ::close_range(4, ~0U, 0);
        if (::chdir(runDir) != 0)
            _exit(1);
        const pid_t monitor = ::fork();
        if (monitor != 0)
            _exit(monitor < 0 ? 1 : 0);

        // Monitor.
        int execError[2];
        if (::pipe2(execError, O_CLOEXEC) != 0)
            _exit(1);
        const pid_t driver = ::fork();
        if (driver == 0) {
            ::setsid();
            ::close(3);
            ::close(execError[0]);
            ::execve(program.c_str(), argv.data(), envp.data());
            const int e = errno;
            writeAll(execError[1], &e, sizeof e);
            _exit(127);
        }
        ::close(execError[1]);
        MonitorReport out{driver, driver < 0 ? errno : 0};
        if (driver > 0) {
            int e = 0;
            ssize_t n;
            while ((n = ::read(execError[0], &e, sizeof e)) < 0 && errno == EINTR) {
            }
            if (n == static_cast<ssize_t>(sizeof e))
                out.execErrno = e;
            char pidText[32];
            appendText(pidText, appendNumber(pidText, 0, sizeof pidText, driver), sizeof pidText, "\n");
            writeFileAtomically(pidTmp.c_str(), pidPath.c_str(), pidText);
        }
        ::close(execError[0]);
        writeAll(3, &out, sizeof out);
        ::close(3);
        if (driver < 0)
            _exit(1);
        int status = 0;
        while (::waitpid(driver, &status, 0) < 0 && errno == EINTR) {
        }
        char text[64];
        std::size_t at = 0;
        if (out.execErrno != 0) {
            at = appendText(text, at, sizeof text, "spawn-error ");
            at = appendNumber(text, at, sizeof text, out.execErrno);
        } else if (WIFSIGNALED(status)) {
            at = appendText(text, at, sizeof text, "signaled ");
            at = appendNumber(text, at, sizeof text, WTERMSIG(status));
        } else {
            at = appendText(text, at, sizeof text, "exited ");
            at = appendNumber(text, at, sizeof text, WEXITSTATUS(status));
        }
        appendText(text, at, sizeof text, "\n");
        writeFileAtomically(statusTmp.c_str(), statusPath.c_str(), text);
        _exit(0);
    }

    const int forkErrno = errno;
    ::close(report[1]);
    ::close(logFd);
    ::close(nullFd);
    if (intermediate < 0) {
        ::close(report[0]);
        result.error = std::string("Cannot fork the driver monitor: ") + std::strerror(forkErrno);
        return result;
    }
    while (::waitpid(intermediate, nullptr, 0) < 0 && errno == EINTR) {
    }
    MonitorReport in{};
    std::size_t got = 0;
    while (got < sizeof in) {
        const ssize_t n = ::read(report[0], reinterpret_cast<char*>(&in) + got, sizeof in - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(report[0]);
    if (got != sizeof in || in.driverPid <= 0) {
        result.error = "The driver monitor did not start";
        return result;
    }
    result.driverPid = in.driverPid;
    if (in.execErrno != 0) {
        result.error = "Cannot execute " + program + ": " + std::strerror(in.execErrno);
        return result;
    }
    result.driverStartTicks = processStartTicks(in.driverPid).value_or(0);
    return result;
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

std::optional<pid_t> RunLauncher::readDriverPid(const std::string& runDir) {
    std::ifstream in(runDir + "/driver-pid");
    pid_t pid = 0;
    if (!(in >> pid) || pid <= 0)
        return std::nullopt;
    return pid;
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
