#include "service/runs/CapturedCommand.h"

#include "core/policy/RunEndMessages.h"
#include "service/runs/DriverEnvironment.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace jobdeck {
namespace {

// The spawn attributes and file actions, released however run() returns.
struct SpawnSetup final {
    posix_spawnattr_t attributes{};
    posix_spawn_file_actions_t actions{};

    explicit SpawnSetup(int outputFd) {
        posix_spawnattr_init(&attributes);
        sigset_t all;
        sigfillset(&all);
        sigset_t none;
        sigemptyset(&none);
        posix_spawnattr_setsigdefault(&attributes, &all);
        posix_spawnattr_setsigmask(&attributes, &none);
        posix_spawnattr_setpgroup(&attributes, 0);
        posix_spawnattr_setflags(&attributes,
                                 POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, outputFd, 1);
        posix_spawn_file_actions_adddup2(&actions, outputFd, 2);
        posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

using Clock = std::chrono::steady_clock;

// How often a command whose output is closed is checked for its exit, and a moved stop deadline
// noticed: short against a command's seconds, long against a busy loop.
constexpr auto kTick = std::chrono::milliseconds(100);
// Output still held open after the command exited (by a process it left behind) is read this long.
constexpr auto kDrainAfterExit = std::chrono::seconds(2);

struct Waited final {
    bool exited = false;     // reaped, with `status`
    bool timedOut = false;   // the timeout passed first
    bool stopped = false;    // the CommandStop's deadline passed first
    bool outputHeld = false; // exited, but something it started still holds its output open
    int status = 0;
};

// Appends what `fd` has to `out` (up to `cap`); false at end of file or on an error.
bool readSome(int fd, std::size_t cap, std::string& out) {
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
        return true;
    if (n <= 0)
        return false;
    if (out.size() < cap)
        out.append(buffer, std::min(static_cast<std::size_t>(n), cap - out.size()));
    return true;
}

// Reads the command's output and waits for its exit, both bounded by `timeoutAt` and the stop's
// deadline: a command may close its output and hang, or exit and leave its output held open.
Waited collect(pid_t pid, int fd, Clock::time_point timeoutAt, const CommandStop* stop, std::size_t cap,
               std::string& out) {
    Waited waited;
    bool outputOpen = true;
    Clock::time_point drainUntil = Clock::time_point::max();
    for (;;) {
        if (!waited.exited && ::waitpid(pid, &waited.status, WNOHANG) == pid) {
            waited.exited = true;
            drainUntil = Clock::now() + kDrainAfterExit;
        }
        const auto now = Clock::now();
        if (waited.exited && (!outputOpen || now >= drainUntil)) {
            waited.outputHeld = outputOpen;
            return waited;
        }
        const auto stopAt = stop ? stop->deadline() : Clock::time_point::max();
        waited.stopped = now >= stopAt;
        waited.timedOut = !waited.stopped && now >= timeoutAt;
        if (waited.stopped || waited.timedOut)
            return waited;
        const auto until = std::min({timeoutAt, stopAt, drainUntil, now + kTick});
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count();
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, outputOpen ? 1 : 0, static_cast<int>(std::max<long long>(ms, 1)));
        if (ready > 0 && !readSome(fd, cap, out))
            outputOpen = false;
    }
}

} // namespace

CommandResult CapturedCommand::run(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                                   std::size_t maxOutputBytes, const CommandStop* stop) {
    CommandResult result;
    if (argv.empty()) {
        result.error = nothingToRunProblem();
        return result;
    }
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.error = commandNotRunProblem(argv[0], std::strerror(errno));
        return result;
    }
    std::vector<char*> args;
    for (const auto& arg : argv)
        args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    // spark-submit gets what a driver gets: never jobdeckd's database settings.
    std::vector<std::string> environment = DriverEnvironment::build();
    std::vector<char*> envp;
    for (auto& variable : environment)
        envp.push_back(variable.data());
    envp.push_back(nullptr);
    pid_t pid = -1;
    int spawnError = 0;
    {
        const SpawnSetup setup(pipeFds[1]);
        spawnError =
            ::posix_spawnp(&pid, args[0], &setup.actions, &setup.attributes, args.data(), envp.data());
    }
    ::close(pipeFds[1]);
    if (spawnError != 0) {
        ::close(pipeFds[0]);
        result.error = commandNotRunProblem(argv[0], std::strerror(spawnError));
        return result;
    }
    const Waited waited =
        collect(pid, pipeFds[0], Clock::now() + timeout, stop, maxOutputBytes, result.output);
    ::close(pipeFds[0]);
    if (!waited.exited || waited.outputHeld) // the command, or what it left in its process group
        ::kill(-pid, SIGKILL);
    int status = waited.status;
    if (!waited.exited)
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    result.stopped = waited.stopped;
    if (waited.stopped)
        result.error = commandStoppedForShutdownProblem(argv[0]);
    else if (waited.timedOut)
        result.error = commandTimedOutProblem(argv[0], timeout.count());
    else if (WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (WIFSIGNALED(status))
        result.error = commandSignaledProblem(argv[0], WTERMSIG(status));
    return result;
}

} // namespace jobdeck
