#include "service/ProcessOneReaper.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace jobdeck {
namespace {

int exitStatusOf(int status) {
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status); // as a shell reports it
    return 1;
}

// Process 1 gets only the signals it handles, so it waits for all of them: SIGCHLD reaps whatever
// ended (the service, or orphans), every other one goes on to the service (SIGTERM from
// `docker stop` included). Ends when the service has ended.
[[noreturn]] void superviseService(pid_t service, const sigset_t& signals) {
    for (;;) {
        siginfo_t info{};
        const int signal = ::sigwaitinfo(&signals, &info);
        if (signal < 0)
            continue; // EINTR
        if (signal != SIGCHLD) {
            ::kill(service, signal);
            continue;
        }
        int status = 0;
        for (pid_t ended; (ended = ::waitpid(-1, &status, WNOHANG)) > 0;)
            if (ended == service)
                ::_exit(exitStatusOf(status));
    }
}

} // namespace

void ProcessOneReaper::takeOverIfProcessOne() {
    if (::getpid() != 1)
        return;
    sigset_t all;
    sigset_t previous;
    ::sigfillset(&all);
    // Blocked before the fork, so that no signal for the service is lost while it is being born.
    ::sigprocmask(SIG_SETMASK, &all, &previous);
    const pid_t service = ::fork();
    if (service == 0) {
        ::sigprocmask(SIG_SETMASK, &previous, nullptr);
        return;
    }
    if (service < 0) {
        // Serving unreaped beats not serving; the cause is said once.
        std::fprintf(stderr,
                     "jobdeckd: as process 1, could not fork the service (%s); orphaned run monitors "
                     "are not reaped: start jobdeckd under an init (docker run --init)\n",
                     std::strerror(errno));
        ::sigprocmask(SIG_SETMASK, &previous, nullptr);
        return;
    }
    superviseService(service, all);
}

} // namespace jobdeck
