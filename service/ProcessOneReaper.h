#pragma once

namespace jobdeck {

// jobdeckd as process 1 of a PID namespace: the command of a container started without an init. Every
// process orphaned in the namespace is handed to process 1, and every run's monitor is, since it is
// started detached so that runs outlive a restart of the service; a process 1 that never waits for
// them keeps one zombie a run until the namespace runs out of process ids. So jobdeckd started as
// process 1 stays a small init, as `docker run --init` would put there: it forks, the child serves,
// and process 1 passes every signal on to it, reaps every orphan and exits with the child's status.
class ProcessOneReaper final {
public:
    // Returns at once when this process is not process 1. Otherwise returns only in the child, which
    // goes on as the service. Call before any thread is started.
    static void takeOverIfProcessOne();
};

} // namespace jobdeck
