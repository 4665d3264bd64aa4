#pragma once

#include "service/stores/RunStore.h"

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

class ClusterRunTracker;
class ReplicaLeases;
class RunWakeup;
class RunWriter;
class Stores;
struct ExitStatus;
struct LaunchResult;
struct LaunchSpec;

// Launching and watching the drivers this replica starts (docs/runs.md, "Launching"): it starts a
// claimed run's driver (or submission client), follows its exit through the exit-status file its
// monitor writes, records a cluster-mode run's submission id (ClusterRunTracker follows it from there),
// finishes cancels (TERM, then KILL after the grace period), acts for replicas that are gone, and stops
// the drivers of runs that ended elsewhere while this replica was away. Called with the run manager's
// mutex held, from its scheduler thread except endClusterRun (ClusterRunTracker's thread) and
// stopCanceled (a CANCEL JOB_RUN's).
class DriverWatch final {
public:
    struct Settings final {
        std::string dataDir;
        std::chrono::seconds cancelGrace;
        std::chrono::seconds orphanedRunTimeout;
    };

    DriverWatch(Stores& stores, RunWriter& writer, ReplicaLeases& leases, ClusterRunTracker& clusterRuns,
                RunWakeup& wakeup, Settings settings);

    // At start: the drivers this data directory's runs started that still run (a driver outlives the
    // service), so that those whose runs ended while this replica was down are stopped.
    void findDriversLeftRunning();
    // Starts the claimed runs' drivers as their specs say, all monitors first, then each report: each
    // run is RUNNING, or FAILED when it cannot start. Runs left unstarted when the lease lapsed meanwhile
    // are started once it is renewed (RunClaims).
    void launch(std::vector<std::pair<RunRecord, LaunchSpec>>& starts);
    // A Starting run of this replica found at start: see the definition.
    bool takeOverLaunch(RunRecord& record);
    // Every RUNNING run: this replica's drivers are watched, gone replicas' runs are acted for.
    void watchRunning();
    // After a cancel of a claimed run was recorded.
    void stopCanceled(RunRecord& record);
    // ClusterRunTracker's final state for a submitted run, applied if the run is still the one it saw.
    void endClusterRun(const RunRecord& seen, JobRunStatus status, std::optional<std::string> message);

private:
    using Clock = std::chrono::steady_clock;
    struct Driver {
        pid_t pid = 0;
        std::uint64_t startTicks = 0;
        std::string logPath;
        std::optional<Clock::time_point> killAt; // TERM was sent; KILL then
    };

    void watchDriver(RunRecord& record, Clock::time_point now);
    void goneOwnersRun(RunRecord& record);
    void rememberDriver(const RunRecord& record);
    void stopStrayDrivers(const std::set<std::string>& followed, Clock::time_point now);
    void stopStrayDriver(const std::string& runId, Driver& driver, Clock::time_point now);
    void finish(RunRecord record, const ExitStatus& status, std::chrono::system_clock::time_point endedAt);
    void submitted(RunRecord record, const ExitStatus& status);
    std::vector<std::string> passedToSparkSubmit(const RunRecord& record);
    bool submissionIdIsTaken(const RunRecord& record, const std::string& submissionId);
    void endOwnRun(RunRecord& record, JobRunStatus status, std::optional<std::string> message);
    void launched(RunRecord& record, const LaunchResult& result);

    Stores& m_stores;
    RunStore& m_runs;
    RunWriter& m_writer;
    ReplicaLeases& m_leases;
    ClusterRunTracker& m_clusterRuns;
    RunWakeup& m_wakeup;
    const Settings m_settings;
    std::map<std::string, Clock::time_point> m_killAt;    // run id -> when a canceled driver gets KILL
    std::map<std::string, Clock::time_point> m_goneSince; // run id -> when its driver was first seen gone
    // The drivers (or submission clients) this replica started or re-attached to, by run id: one whose
    // run is no longer this replica's RUNNING run (it ended elsewhere while this replica was away) is
    // stopped (stopStrayDrivers).
    std::map<std::string, Driver> m_drivers;
};

} // namespace jobdeck
