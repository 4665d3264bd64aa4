#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// What the monitor reports to the service on fd 3 once the driver has exec'd (or failed to).
struct MonitorReport {
    pid_t driverPid;
    int execErrno;
};

// What the service starts a monitor with, on its command line. The monitor's environment is the
// driver's.
struct RunMonitorArguments {
    std::string runDir;                 // absolute; the monitor's working directory
    std::uint64_t maxLogBytes = 0;      // 0: the driver writes to fd 1 itself; else through a capped pipe
    std::optional<int> killAfterForkMs; // tests: wait this long before forking the driver
    std::string notifyPath;             // FIFO to write a byte to once exit-status is in place; optional
    std::string program;                // absolute path of the driver's program
    std::vector<std::string> argv;      // the driver's argv, argv[0] included
};

// jobdeck-run-monitor: a small program of its own, so that the service starts it with posix_spawn
// (no copy of the service's address space) and the monitor's own forks copy only its small one.
// Started with fds 0 = /dev/null, 1 and 2 = the log, 3 = the report pipe, 4 = the launch lock, in a
// session of its own, inside the run directory. It forks the monitor proper and exits, so that the
// monitor is reparented away from the service; the monitor forks the driver, records it in
// driver-pid, closes the lock, reports on fd 3, waits for the driver and records how it ended in
// exit-status (docs/runs.md, "Launching").
class RunMonitor final {
public:
    static constexpr const char* kProgramName = "jobdeck-run-monitor";

    // The command line (without the program) that parse() reads back.
    static std::vector<std::string> commandLine(const RunMonitorArguments& arguments);
    static std::optional<RunMonitorArguments> parse(int argc, char** argv);
    // Detaches and monitors; never returns.
    [[noreturn]] static void run(const RunMonitorArguments& arguments);

    // write(2) until everything is written; false on an error.
    static bool writeAll(int fd, const void* data, std::size_t size);
};

} // namespace jobdeck
