#pragma once

#include "service/runs/ApplicationPathResolver.h"
#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunOptions.h"
#include "service/runs/RunScheduler.h"
#include "service/runs/RunStatementHandler.h"
#include "service/runs/RunWakeup.h"
#include "service/stores/RunStore.h"

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace jobdeck {

class ClusterRunTracker;
class RunAdmissions;
class EventBus;
class ServiceMetrics;
class Stores;
struct DriverCommandInput;
struct EffectiveConfig;
struct ExitStatus;
struct LaunchSpec;

// Runs of Jobs (CONTRACT §4): admission (concurrency limit, idempotency keys, argument overrides)
// by RunAdmissions; a scheduler thread that starts queued runs when their cluster has a free driver
// slot, watches drivers' exit-status files (woken by their monitors, polled as a fallback), finishes
// cancels (TERM, then KILL after the grace period) and removes finished runs after the retention
// period. Drivers survive the service; on start() the manager re-attaches to them from the runs
// table and the per-run directories, and never starts a run twice (RunLauncher::launchState).
// In cluster deploy mode the launched process is spark-submit's submission client: when it ends, the
// submission id it printed is recorded, and ClusterRunTracker follows the driver from there.
// Several replicas may share one database (docs/scale-out.md): a QUEUED run belongs to no replica until
// one claims it to start it, in the same step that checks the cluster's capacity; from then on that
// replica (its owner) follows it. The runs a replica was launching and its submitted cluster-mode runs
// are taken over once its lease runs out (ReplicaLeases); its client-mode drivers stay with its host.
// Every read-modify-write of a run happens in one step that reads the row again, so a replica never
// writes over what another wrote (a cancel, an end).
class RunManager final : public RunStatementHandler {
public:
    RunManager(Stores& stores, EventBus& events, const RunOptions& options, ReplicaIdentity replica);
    ~RunManager() override;
    RunManager(const RunManager&) = delete;
    RunManager& operator=(const RunManager&) = delete;

    void start();
    void stop(); // stops watching; drivers keep running and are re-attached by the next start()
    // Counts RUN JOB's admission refusals there; null (the default): not counted.
    void setMetrics(ServiceMetrics* metrics) { m_metrics.store(metrics); }
    // Every project's runs: status (wire name) -> how many.
    std::map<std::string, std::int64_t> countRunsByStatus() { return m_runs.countByStatus(); }

    ApiStatus runJob(const RequestContext& context, const RunJobStatement& statement,
                     const AdmissionRecorder& recordWithAdmission) override;
    ApiStatus describeJobRun(const RequestContext& context,
                             const DescribeJobRunStatement& statement) override;
    ApiStatus cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement) override;
    ApiStatus showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement) override;

    // For the log route: the run if it belongs to the project and the job.
    std::optional<RunRecord> findRun(const std::string& projectUid, const std::string& jobName,
                                     const std::string& runId);

private:
    using Clock = std::chrono::steady_clock;
    struct Driver {
        pid_t pid = 0;
        std::uint64_t startTicks = 0;
        std::string logPath;
        std::optional<Clock::time_point> killAt; // TERM was sent; KILL then
    };

    // A run was admitted: the scheduler looks at the queue, and holds launches back while a burst lasts.
    void admitted();
    void loop();
    bool stopping();
    void tick();
    bool takeOverLaunch(RunRecord& record);
    void watchRunning();
    void watchDriver(RunRecord& record, Clock::time_point now);
    void goneOwnersRun(RunRecord& record);
    void rememberDriver(const RunRecord& record);
    void findDriversLeftRunning();
    void stopStrayDrivers(const std::set<std::string>& followed, Clock::time_point now);
    void stopStrayDriver(const std::string& runId, Driver& driver, Clock::time_point now);
    void schedule();
    bool holdLaunchesBack();
    bool queueHasWork();
    std::function<std::optional<int>(const std::string&, const std::string&)> clusterCapacity();
    std::vector<std::pair<RunRecord, LaunchSpec>> claimStarts();
    void setAsideLaunching(std::vector<RunRecord>& queued, RunScheduler::InUse& inUse);
    bool mayStart(const RunRecord& brief) const;
    std::optional<LaunchSpec> prepareLaunch(RunRecord& record);
    LaunchSpec launchSpec(const RunRecord& record, const DriverCommandInput& input,
                          const EffectiveConfig& effective) const;
    void launch(RunRecord& record, const LaunchSpec& spec);
    void finish(RunRecord record, const ExitStatus& status, std::chrono::system_clock::time_point endedAt);
    void submitted(RunRecord record, const ExitStatus& status);
    std::vector<std::string> passedToSparkSubmit(const RunRecord& record);
    bool submissionIdIsTaken(const RunRecord& record, const std::string& submissionId);
    void endClusterRun(const RunRecord& seen, JobRunStatus status, std::optional<std::string> message);
    void endRun(RunRecord& record, JobRunStatus status, std::optional<std::string> message);
    void applyRetention();
    void save(const RunRecord& record);
    // Returns how many of `records` were written (the others ended or changed owner meanwhile).
    int saveNow(std::vector<RunRecord> records);
    void stopCanceled(RunRecord& record);

    Stores& m_stores;
    EventBus& m_events;
    RunStore& m_runs;
    std::atomic<ServiceMetrics*> m_metrics{nullptr};
    ApplicationPathResolver m_resolver;
    std::string m_dataDir;
    bool m_useSparkSubmit = false;
    std::string m_sparkSubmit;
    std::string m_clusterMaster; // non-empty: cluster deploy mode, runs are submitted there
    std::chrono::seconds m_cancelGrace;
    int m_retentionDays;
    std::uint64_t m_maxLogBytes;

    std::mutex m_mutex; // state transitions: the scheduler thread vs. CANCEL (taken before the database's)
    RunWakeup m_wakeup;
    std::unique_ptr<RunAdmissions> m_admissions; // after m_wakeup: its thread pokes it
    bool m_stopping = false;
    std::thread m_thread;
    std::map<std::string, Clock::time_point> m_killAt;    // run id -> when a canceled driver gets KILL
    std::map<std::string, Clock::time_point> m_goneSince; // run id -> when its driver was first seen gone
    // The drivers (or submission clients) this replica started or re-attached to, by run id: one whose
    // run is no longer this replica's RUNNING run (it ended elsewhere while this replica was away) is
    // stopped (stopStrayDrivers).
    std::map<std::string, Driver> m_drivers;
    std::chrono::seconds m_orphanedRunTimeout;
    bool m_lapseLogged = false;
    Clock::time_point m_nextRetention{};
    std::atomic<Clock::rep> m_lastAdmission{0};    // when RUN JOB last admitted a run (admitted())
    std::optional<Clock::time_point> m_burstSince; // a burst of admissions is under way (scheduler thread)
    ReplicaLeases m_leases;
    // Inside tick(): the runs save() was given, written together when the tick ends (one step).
    std::optional<std::vector<RunRecord>> m_tickSaves;

    std::unique_ptr<ClusterRunTracker> m_clusterRuns;
};

} // namespace jobdeck
