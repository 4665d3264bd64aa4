#pragma once

#include "core/wire/SparkJobRun.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// One row of the runs table: the wire fields plus what the launcher needs to find its driver again.
// In cluster deploy mode the "driver" the launcher starts is spark-submit's submission client; the
// driver itself is followed through run.submissionId on sparkMaster.
struct RunRecord final {
    SparkJobRun run; // run.submissionId: column submission_id
    std::string projectUid;
    std::string cluster;
    std::int64_t driverPid = 0;
    std::uint64_t driverStartTicks = 0;
    std::string runDir;
    std::string logPath;
    bool cancelRequested = false;
    std::string canceledBy;   // who asked, for the CANCELED message (kept in launch_spec)
    bool clusterMode = false; // column deploy_mode: 'cluster' or 'client'
    std::string sparkMaster;  // column spark_master: the --master it was submitted to (cluster mode)
    std::string owner;        // column owner: the replica that starts and follows the run (empty: none yet)
};

// The runs: one row per run with what the launcher needs to find its driver again, scoped by project
// where a method takes the project's uid. Every call joins the caller's UnitOfWork, if any.
class RunStore {
public:
    virtual ~RunStore() = default;

    virtual void insert(const RunRecord& record) = 0;
    // Writes every mutable column of the run (status, times, launcher bookkeeping, ...).
    virtual void update(const RunRecord& record) = 0;
    virtual void remove(const std::string& runId) = 0;
    // Whether any project has a run with this id.
    virtual bool exists(const std::string& runId) = 0;

    virtual std::optional<RunRecord> find(const std::string& projectUid, const std::string& runId) = 0;
    // Newest first.
    virtual std::vector<RunRecord> list(const std::string& projectUid,
                                        const std::optional<std::string>& jobName, bool activeOnly,
                                        std::optional<std::int64_t> limit) = 0;
    virtual int countActive(const std::string& projectUid, const std::string& jobId) = 0;
    // Every project's runs: status (wire name) -> how many.
    virtual std::map<std::string, std::int64_t> countByStatus() = 0;
    virtual std::optional<RunRecord> findActiveByKey(const std::string& projectUid, const std::string& jobId,
                                                     const std::string& idempotencyKey) = 0;
    // Every project's runs in that status, oldest first (FIFO).
    virtual std::vector<RunRecord> withStatus(JobRunStatus status) = 0;
    // Finished runs that ended before `cutoff` (ISO text).
    virtual std::vector<RunRecord> endedBefore(const std::string& cutoff) = 0;

    // What the scheduler plans with, without the runs' arguments and bookkeeping: every QUEUED run
    // (oldest first) with its id, project, job name, cluster, queue reason, owner and run directory.
    virtual std::vector<RunRecord> queuedBriefly() = 0;
    // Why a QUEUED run waits, without writing anything else of it.
    virtual void setQueueReason(const std::string& runId, const std::string& reason) = 0;
    // RUNNING runs per (project, cluster).
    virtual std::map<std::pair<std::string, std::string>, int> runningPerCluster() = 0;

    // The replicas' leases: each replica's heartbeat, milliseconds since the epoch on its own clock.
    virtual void heartbeat(const std::string& replicaId, const std::string& host, const std::string& dataDir,
                           std::int64_t atMs) = 0;
    virtual std::map<std::string, std::int64_t> replicaHeartbeats() = 0;
    virtual void forgetReplica(const std::string& replicaId) = 0;
};

} // namespace jobdeck
