#include "service/runmonitor/RunMonitor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

extern char** environ;

namespace jobdeck {
namespace {

// The monitor is single-threaded, but the driver's side of its fork keeps to async-signal-safe calls,
// and so, for simplicity, does everything after that fork.

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

// Writes `text` to tmpPath and renames it over path, so readers never see half a file.
void writeFileAtomically(const std::string& tmpPath, const std::string& path, const char* text) {
    const int fd = ::open(tmpPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    RunMonitor::writeAll(fd, text, std::strlen(text));
    ::close(fd);
    ::rename(tmpPath.c_str(), path.c_str());
}

// Field 22 of /proc/<pid>/stat (start time in clock ticks); 0 when unreadable.
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

// Copies the driver's output (`pipeFd`) to the log (`logFd`) up to `maxBytes`, until the pipe closes,
// or until the driver ended and nothing more is waiting (a descendant of the driver may keep the pipe
// open), then reaps the driver into `status`.
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
            RunMonitor::writeAll(logFd, buffer, kept);
            written += kept;
            if (kept < static_cast<std::uint64_t>(n) && !noted) {
                char note[160];
                std::size_t at = appendText(note, 0, sizeof note, "\n[jobdeckd: the log reached its cap of ");
                at = appendNumber(note, at, sizeof note, static_cast<long long>(maxBytes));
                appendText(note, at, sizeof note, " bytes (--max-log-bytes); later output is discarded]\n");
                RunMonitor::writeAll(logFd, note, std::strlen(note));
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

// In the driver's process, after fork: its own session, its output to the pipe when capped, exec.
[[noreturn]] void execDriver(const std::string& program, char* const* argv, const int output[2],
                             const int execError[2]) {
    setSignal(SIGPIPE, SIG_DFL);
    ::setsid();
    if (output[1] >= 0 && (::dup2(output[1], 1) != 1 || ::dup2(output[1], 2) != 2))
        _exit(127);
    ::close(3);
    ::close(4);
    ::close(execError[0]);
    ::execve(program.c_str(), argv, environ);
    const int e = errno;
    RunMonitor::writeAll(execError[1], &e, sizeof e);
    _exit(127);
}

// <runDir>/driver-pid: "<pid> <start ticks>". Not fsync'd: it only matters while the machine (and so
// the driver) is up.
void recordDriver(const RunMonitorArguments& arguments, pid_t driver) {
    char pidText[64];
    std::size_t at = appendNumber(pidText, 0, sizeof pidText, driver);
    at = appendText(pidText, at, sizeof pidText, " ");
    at = appendNumber(pidText, at, sizeof pidText, static_cast<long long>(startTicksOf(driver)));
    appendText(pidText, at, sizeof pidText, "\n");
    const std::string path = arguments.runDir + "/driver-pid";
    writeFileAtomically(path + ".tmp", path, pidText);
}

// <runDir>/exit-status, then the wake-up of the service, then the fsync.
void recordExit(const RunMonitorArguments& arguments, int execErrno, int status) {
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
    const std::string statusPath = arguments.runDir + "/exit-status";
    writeFileAtomically(statusPath + ".tmp", statusPath, text);
    // Wakes the service at once instead of at its next poll; nobody listens while it is down.
    if (!arguments.notifyPath.empty()) {
        const int notify = ::open(arguments.notifyPath.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (notify >= 0) {
            RunMonitor::writeAll(notify, "x", 1);
            ::close(notify);
        }
    }
    // Then fsync'd, so that after a power loss it is still the driver's true end; not before the
    // wake-up, which needs only the page cache (the service commits the state durably itself).
    if (const int written = ::open(statusPath.c_str(), O_RDONLY | O_CLOEXEC); written >= 0) {
        ::fsync(written);
        ::close(written);
    }
}

// Forks the driver, records it, reports to the service on fd 3, releases the launch lock (fd 4),
// waits for the driver (copying its capped output) and records how it ended.
[[noreturn]] void monitor(const RunMonitorArguments& arguments) {
    // A service that died must not take it along through SIGPIPE on the report pipe.
    setSignal(SIGPIPE, SIG_IGN);
    if (arguments.killAfterForkMs)
        sleepMs(*arguments.killAfterForkMs);
    std::vector<char*> argv;
    for (const std::string& arg : arguments.argv)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    int execError[2];
    if (::pipe2(execError, O_CLOEXEC) != 0)
        _exit(1);
    int output[2] = {-1, -1};
    if (arguments.maxLogBytes > 0 && ::pipe2(output, O_CLOEXEC) != 0)
        _exit(1);
    const pid_t driver = ::fork();
    if (driver == 0)
        execDriver(arguments.program, argv.data(), output, execError);
    MonitorReport out{driver, driver < 0 ? errno : 0};
    ::close(execError[1]);
    if (output[1] >= 0)
        ::close(output[1]);
    if (driver > 0)
        recordDriver(arguments, driver);
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
    RunMonitor::writeAll(3, &out, sizeof out);
    ::close(3);
    if (driver < 0)
        _exit(1);
    int status = 0;
    if (output[0] >= 0)
        copyCappedLogUntilExit(output[0], 1, arguments.maxLogBytes, driver, status);
    else
        while (::waitpid(driver, &status, 0) < 0 && errno == EINTR) {
        }
    recordExit(arguments, out.execErrno, status);
    _exit(0);
}

template <class Number> std::optional<Number> number(const char* text) {
    Number value{};
    const char* end = text + std::strlen(text);
    const auto [at, error] = std::from_chars(text, end, value);
    if (error != std::errc() || at != end)
        return std::nullopt;
    return value;
}

} // namespace

bool RunMonitor::writeAll(int fd, const void* data, std::size_t size) {
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

// runDir, maxLogBytes, killAfterForkMs ("" for none), notifyPath ("" for none), program, argv...
std::vector<std::string> RunMonitor::commandLine(const RunMonitorArguments& arguments) {
    std::vector<std::string> line{arguments.runDir, std::to_string(arguments.maxLogBytes),
                                  arguments.killAfterForkMs ? std::to_string(*arguments.killAfterForkMs) : "",
                                  arguments.notifyPath, arguments.program};
    line.insert(line.end(), arguments.argv.begin(), arguments.argv.end());
    return line;
}

std::optional<RunMonitorArguments> RunMonitor::parse(int argc, char** argv) {
    if (argc < 7)
        return std::nullopt;
    RunMonitorArguments arguments;
    arguments.runDir = argv[1];
    const auto maxLogBytes = number<std::uint64_t>(argv[2]);
    if (!maxLogBytes)
        return std::nullopt;
    arguments.maxLogBytes = *maxLogBytes;
    if (*argv[3]) {
        arguments.killAfterForkMs = number<int>(argv[3]);
        if (!arguments.killAfterForkMs)
            return std::nullopt;
    }
    arguments.notifyPath = argv[4];
    arguments.program = argv[5];
    arguments.argv.assign(argv + 6, argv + argc);
    if (arguments.runDir.empty() || arguments.program.empty())
        return std::nullopt;
    return arguments;
}

void RunMonitor::run(const RunMonitorArguments& arguments) {
    const pid_t child = ::fork();
    if (child != 0)
        _exit(child < 0 ? 1 : 0); // the service reaps this process; the monitor is reparented
    monitor(arguments);
}

} // namespace jobdeck
