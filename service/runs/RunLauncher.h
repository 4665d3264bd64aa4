#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// What one driver needs.
struct LaunchSpec final {
    std::string runId;
    std::string runDir;            // created if missing; holds hudi-defaults.conf, exit-status, driver-pid
    std::string logPath;           // stdout and stderr of the driver, appended in order
    std::vector<std::string> argv; // argv[0] is looked up in PATH when it has no '/'
    std::vector<std::pair<std::string, std::string>> extraEnv; // on top of DriverEnvironment::build()
    std::string hudiDefaults;                                  // contents of <runDir>/hudi-defaults.conf
    std::string exitNotifyPath; // FIFO the monitor writes a byte to once exit-status is in place; optional
    // 0: the driver writes to the log itself. Otherwise its output goes through a pipe that the monitor
    // copies into the log up to this many bytes, then notes the cut once and discards the rest.
    std::uint64_t maxLogBytes = 0;
};

struct LaunchResult final {
    pid_t driverPid = -1;
    std::uint64_t driverStartTicks = 0;
    std::string error; // non-empty when the driver could not be started (nothing is running then)
};

// How a driver ended, as its monitor recorded it in <runDir>/exit-status.
struct ExitStatus final {
    enum class Kind { Exited, Signaled, SpawnFailed } kind = Kind::Exited;
    int code = 0; // exit code, signal number, or errno of the failed exec
};

// The driver as its monitor recorded it in <runDir>/driver-pid.
struct DriverRecord final {
    pid_t pid = 0;
    std::uint64_t startTicks = 0; // 0 when the monitor could not read it
};

// Where a launch into a run directory stands, for a service that did not see it finish.
enum class LaunchState {
    NotLaunched, // no launcher is at work and no driver was forked: starting the run is safe
    Launching,   // a launcher (or monitor) is still between the service's fork and recording the driver
    Launched,    // driver-pid is there: the driver was forked
};

// A launch between its monitor's spawn and the monitor's report (RunLauncher::start, finish), so that
// the monitors of several launches start at once. Destroyed before finish(), it closes the report pipe
// and reaps the starter; the monitor and its driver go on.
class StartedLaunch final {
public:
    StartedLaunch() = default;
    StartedLaunch(StartedLaunch&& other) noexcept;
    StartedLaunch& operator=(StartedLaunch&& other) = delete;
    StartedLaunch(const StartedLaunch&) = delete;
    StartedLaunch& operator=(const StartedLaunch&) = delete;
    ~StartedLaunch();

private:
    friend class RunLauncher;
    void release(); // closes the report pipe and reaps the starter, once

    std::string m_error;   // non-empty when nothing was started
    std::string m_program; // the driver's program, for the error when it cannot be executed
    pid_t m_starter = -1;  // jobdeck-run-monitor as spawned; it exits once it forked the monitor
    int m_reportFd = -1;
};

// Starts drivers that survive the service: the service starts jobdeck-run-monitor with posix_spawn
// (RunMonitor.h), which forks the monitor and exits at once, so the monitor is reparented away from
// the service. The monitor forks the driver (own session and process group), records its pid and
// start time, waits for it and writes its exit status atomically. Until the driver is recorded, the
// monitor's processes hold an exclusive flock on <runDir>/launch.lock (taken by the service before it
// spawns), so a service restarted in between can tell a launch in progress from one that never
// happened.
// A restarted service re-attaches by reading the files the monitor writes and /proc.
class RunLauncher final {
public:
    static LaunchResult launch(const LaunchSpec& spec);
    // launch() in two halves: start() spawns the monitor and returns at once, finish() waits for its
    // report. Several launches started before the first is finished start their drivers in parallel.
    static StartedLaunch start(const LaunchSpec& spec);
    static LaunchResult finish(StartedLaunch& launch);
    // jobdeck-run-monitor in `programDir` (a build tree) or in `programDir`/../libexec/jobdeck (the
    // packages); empty when neither has it.
    static std::string findRunMonitor(const std::filesystem::path& programDir);

    static LaunchState launchState(const std::string& runDir);
    // nullopt while the driver has not ended (or the file is unreadable).
    static std::optional<ExitStatus> readExitStatus(const std::string& runDir);
    // nullopt until the monitor has forked the driver.
    static std::optional<DriverRecord> readDriver(const std::string& runDir);
    // /proc/<pid>/stat field 22; nullopt when the process does not exist.
    static std::optional<std::uint64_t> processStartTicks(pid_t pid);
    // True when pid exists and is the same process (start time matches), not a reused pid.
    static bool isAlive(pid_t pid, std::uint64_t startTicks);
    // Signals the driver's process group (pgid == driver pid); false when the group is gone.
    static bool signalGroup(pid_t driverPid, int signal);

    static std::string exitStatusPath(const std::string& runDir) { return runDir + "/exit-status"; }
    static std::string hudiDefaultsPath(const std::string& runDir) { return runDir + "/hudi-defaults.conf"; }
};

} // namespace jobdeck
