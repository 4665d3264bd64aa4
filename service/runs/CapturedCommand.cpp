#include "service/runs/CapturedCommand.h"

#include "service/runs/DriverEnvironment.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

// Reads until end of file or the deadline; false at the deadline.
bool readAll(int fd, std::chrono::steady_clock::time_point deadline, std::size_t cap, std::string& out) {
    char buffer[4096];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return ready == 0 ? false : true;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return true;
        if (out.size() < cap)
            out.append(buffer, std::min(static_cast<std::size_t>(n), cap - out.size()));
    }
}

} // namespace

CommandResult CapturedCommand::run(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                                   std::size_t maxOutputBytes) {
    CommandResult result;
    if (argv.empty()) {
        result.error = "no command";
        return result;
    }
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        result.error = std::string("pipe: ") + std::strerror(errno);
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
        result.error = "cannot run " + argv[0] + ": " + std::strerror(spawnError);
        return result;
    }
    const bool finished =
        readAll(pipeFds[0], std::chrono::steady_clock::now() + timeout, maxOutputBytes, result.output);
    ::close(pipeFds[0]);
    if (!finished) {
        ::kill(-pid, SIGKILL);
        result.error = argv[0] + " did not answer within " + std::to_string(timeout.count()) + " s";
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (finished && WIFEXITED(status))
        result.exitCode = WEXITSTATUS(status);
    else if (finished && WIFSIGNALED(status))
        result.error = argv[0] + " was stopped by signal " + std::to_string(WTERMSIG(status));
    return result;
}

} // namespace jobdeck
