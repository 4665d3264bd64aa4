#pragma once

#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunOptions.h"
#include "service/runs/RunStatementHandler.h"
#include "service/runs/RunWakeup.h"
#include "service/stores/RunStore.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace jobdeck {

class ClusterRunTracker;
class DriverWatch;
class EventBus;
class RunAdmissions;
class RunClaims;
class RunRetention;
class RunStatements;
class RunWriter;
class ServiceMetrics;
class Stores;

// Runs of Jobs (CONTRACT §4, docs/runs.md), one class per concern, put together here:
// - RunAdmissions admits RUN JOBs (concurrency limit, idempotency keys, argument overrides);
// - RunStatements answers DESCRIBE, CANCEL and SHOW JOB_RUN(S);
// - the scheduler thread (loop) renews this replica's lease (ReplicaLeases) and, while it is current,
//   watches drivers (DriverWatch), claims and starts queued runs (RunClaims) and removes finished runs
//   after the retention period (RunRetention);
// - ClusterRunTracker follows cluster-mode drivers through the cluster manager;
// - RunWriter makes every change of a run, as core's lifecycle (core/policy/RunLifecycle) allows.
// Drivers survive the service; on start() the manager re-attaches to them from the runs table and the
// per-run directories, and never starts a run twice (RunLauncher::launchState). Several replicas may
// share one database (docs/scale-out.md): a QUEUED run belongs to no replica until one claims it to
// start it, in the same step that checks the cluster's capacity; from then on that replica (its owner)
// follows it. The runs a replica was launching and its submitted cluster-mode runs are taken over once
// its lease runs out; its client-mode drivers stay with its host.
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
    // Another replica sharing the database admitted RUN JOBs (ReplicaNews::runsAdmitted): while such a
    // burst lasts this one holds its launches back too. Any thread.
    void admittedElsewhere();
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
    void loop();
    bool stopping();
    void tick();

    RunStore& m_runs;
    std::atomic<ServiceMetrics*> m_metrics{nullptr};
    std::mutex m_mutex; // run changes: the scheduler thread vs. CANCEL and ClusterRunTracker (taken before
                        // the database's)
    RunWakeup m_wakeup;
    ReplicaLeases m_leases;
    bool m_stopping = false;
    bool m_lapseLogged = false;
    std::thread m_thread;
    std::unique_ptr<RunWriter> m_writer;
    std::unique_ptr<ClusterRunTracker> m_clusterRuns;
    std::unique_ptr<DriverWatch> m_drivers;
    std::unique_ptr<RunClaims> m_claims;
    std::unique_ptr<RunRetention> m_retention;
    std::unique_ptr<RunStatements> m_statements;
    std::unique_ptr<RunAdmissions> m_admissions; // after m_wakeup: its thread pokes it
};

} // namespace jobdeck
