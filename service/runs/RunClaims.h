#pragma once

#include "service/runs/ApplicationPathResolver.h"
#include "service/runs/LaunchPacing.h"
#include "service/runs/RunScheduler.h"
#include "service/stores/RunStore.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

class DriverWatch;
class ReplicaLeases;
class RunWakeup;
class RunWriter;
class Stores;
struct DriverCommandInput;
struct EffectiveConfig;
struct LaunchSpec;

// Claiming and planning (docs/runs.md, "Scheduling"): plans the queue against the clusters' driver
// slots in one step, so that replicas sharing the database never start more drivers than a cluster has
// slots for; claims the runs this replica starts, resolves what each driver is started with and hands
// it to DriverWatch; fails the runs that can never start and writes why the others wait. While a burst
// of RUN JOBs lasts it holds launches back (LaunchPacing). Called from the run manager's scheduler
// thread with its mutex held, except admitted() (any thread).
class RunClaims final {
public:
    struct Settings final {
        std::string dataDir; // absolute: drivers and their monitors run in the run directory
        bool useSparkSubmit = false;
        std::string sparkSubmit;
        std::string clusterMaster; // non-empty: cluster deploy mode, runs are submitted there
        std::uint64_t maxLogBytes = 0;
    };

    RunClaims(Stores& stores, RunWriter& writer, const ReplicaLeases& leases, DriverWatch& drivers,
              RunWakeup& wakeup, ApplicationPathResolver resolver, Settings settings);

    // A run was admitted, here or on another replica: launches are held back while a burst lasts.
    void admitted();
    bool burstUnderWay() const { return m_pacing.burstUnderWay(); }
    // Starts what the queue lets this replica start now.
    void schedule();

private:
    // What one planning pass reads of clusters, jobs and projects: each row once, however many queued
    // runs share it (a burst's runs are mostly of a few jobs).
    class SharedReads;

    bool queueHasWork();
    bool countsShowWork(bool& restsOnLeases);
    RunScheduler::Capacity clusterCapacity(SharedReads& reads);
    std::vector<std::pair<RunRecord, LaunchSpec>> claimStarts();
    std::vector<std::pair<std::string, std::string>> planClaims(SharedReads& reads, bool& more);
    std::vector<RunStore::QueuedRun> setAsideLaunching(const std::vector<RunStore::QueuedCount>& counted,
                                                       RunScheduler::InUse& inUse);
    std::vector<std::pair<std::string, std::string>>
    applyPlan(const RunScheduler::Plan& plan, const std::vector<RunRecord>& queue, bool& more);
    bool mayStart(const std::string& claimant) const;
    std::optional<LaunchSpec> prepareLaunch(RunRecord& record, SharedReads& reads);
    LaunchSpec launchSpec(const RunRecord& record, const DriverCommandInput& input,
                          const EffectiveConfig& effective) const;

    Stores& m_stores;
    RunStore& m_runs;
    RunWriter& m_writer;
    const ReplicaLeases& m_leases;
    DriverWatch& m_drivers;
    RunWakeup& m_wakeup;
    const ApplicationPathResolver m_resolver;
    const Settings m_settings;
    LaunchPacing m_pacing;
    bool m_claimedToTheLimit = false; // the last claim left runs it could have started
    // The database's change stamp when the queue last had nothing to write: unchanged, it still has not.
    std::optional<std::uint64_t> m_nothingToWriteAt;
};

} // namespace jobdeck
