#pragma once

#include "core/wire/SparkJobRun.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
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
    std::string canceledBy; // who asked, for the CANCELED message (kept in launch_spec)
    // The secret values its driver was started with (kept in launch_spec), so that its log and messages
    // stay masked after an ALTER of its Job or its cluster replaced one.
    std::vector<std::string> launchSecrets;
    bool clusterMode = false; // column deploy_mode: 'cluster' or 'client'
    std::string sparkMaster;  // column spark_master: the --master it was submitted to (cluster mode)
    std::string owner;        // column owner: the replica that starts and follows the run (empty: none yet)
    std::int64_t ownerEpoch = 0; // column owner_epoch: the owner's lease epoch when it took the run (0: none)
};

// One row of the replica_leases table: a replica's lease, judged on the database's clock.
struct ReplicaLease final {
    std::string replicaId;
    std::string host;
    std::string dataDir;
    std::string claim;      // the token of the process that claimed the replica id
    std::int64_t epoch = 0; // moved on by every claim and every forget
    std::int64_t ageMs = 0; // since it was last renewed, on the database's clock
    bool gone = false;      // forgotten: its lease ran out and it has not claimed it again
};

// The runs: one row per run with what the launcher needs to find its driver again, scoped by project
// where a method takes the project's uid. Every call joins the caller's UnitOfWork, if any.
class RunStore {
public:
    virtual ~RunStore() = default;

    // false: not inserted, because an active run of the job has the record's Idempotency-Key (a unique
    // index decides, so two admissions of one key never both insert). Any other conflict throws.
    virtual bool insert(const RunRecord& record) = 0;
    // The insert of a run whose job's row the step holds and whose key no active run of the job has
    // (JobStore::findJobToRun read both): inside a step it is sent with the step's next statement or
    // its commit (one round trip fewer where the server is remote), so its failure is thrown by them. Should
    // an active run of the job have the key after all, that failure is a constraint violation
    // (DatabaseError::isConstraintViolation) and the step is rolled back. Outside a step it runs at once.
    virtual void insertLater(const RunRecord& record) = 0;
    // Writes every mutable column of the run (status, times, launcher bookkeeping, ...) but its owner,
    // which changes only through updateIfOwner and takeOverRun.
    virtual void update(const RunRecord& record) = 0;
    virtual void remove(const std::string& runId) = 0;
    // Whether any project has a run with this id.
    virtual bool exists(const std::string& runId) = 0;

    // Inside a step the run's row is held until the step ends (FOR UPDATE where the backend locks
    // rows), so what the step writes of it next was decided on what it holds.
    virtual std::optional<RunRecord> find(const std::string& projectUid, const std::string& runId) = 0;
    // find() of several runs in one read, each given as (project uid, run id): the runs found, by run
    // id (held inside a step as find's).
    virtual std::map<std::string, RunRecord>
    findEach(const std::vector<std::pair<std::string, std::string>>& projectAndRunIds) = 0;
    // The run with this id in any project (held inside a step as find's).
    virtual std::optional<RunRecord> findById(const std::string& runId) = 0;
    // Newest first.
    virtual std::vector<RunRecord> list(const std::string& projectUid,
                                        const std::optional<std::string>& jobName, bool activeOnly,
                                        std::optional<std::int64_t> limit) = 0;
    // Every project's runs: status (wire name) -> how many.
    virtual std::map<std::string, std::int64_t> countByStatus() = 0;
    // A job's active runs (QUEUED or RUNNING): how many, and the one holding an Idempotency-Key if one
    // does: what a RUN JOB's admission decides on once it holds the job's row (JobStore::findJobToRun).
    struct ActiveRunsOfJob {
        int count = 0;
        std::optional<RunRecord> withKey;
    };
    // Every project's runs in that status, oldest first (FIFO).
    virtual std::vector<RunRecord> withStatus(JobRunStatus status) = 0;
    // The RUNNING runs `owner` (a replica's id) follows, oldest first.
    virtual std::vector<RunRecord> runningOwnedBy(const std::string& owner) = 0;
    // The replicas that own RUNNING runs: what a replica reads to find gone replicas' runs without
    // reading every other replica's.
    virtual std::vector<std::string> ownersOfRunningRuns() = 0;
    // Finished runs that ended before `cutoff` (ISO text).
    virtual std::vector<RunRecord> endedBefore(const std::string& cutoff) = 0;

    // A QUEUED run as a claim plans it, without its arguments and bookkeeping: its id, project, job name,
    // cluster, queue reason, owner and run directory, and its place in the queue (smaller: older).
    struct QueuedRun {
        std::int64_t position = 0;
        RunRecord run;
    };
    // The clusters (project uid, name) with QUEUED runs: those whose driver slots this step plans and,
    // inside a step where the backend locks rows, those another step plans now. Such a step claims only
    // the clusters whose row it could lock without waiting (held until the step ends, so one replica
    // plans a cluster at a time; the others skip it until their next tick).
    struct ClustersWithQueue {
        std::set<std::pair<std::string, std::string>> claimed;
        std::set<std::pair<std::string, std::string>> held; // by another step
    };
    virtual ClustersWithQueue clustersWithQueue() = 0;
    // The `limit` oldest QUEUED runs on the project's cluster whose driver is not being started.
    virtual std::vector<QueuedRun> queuedOn(const std::string& projectUid, const std::string& cluster,
                                            int limit) = 0;
    // Every QUEUED run whose driver is being started (a run directory is recorded), oldest first.
    virtual std::vector<QueuedRun> queuedLaunching() = 0;
    // QUEUED runs counted per project, cluster, queue reason, owner and whether their driver is being
    // started (a run directory is recorded): what the scheduler looks at on each tick, in one read that
    // returns no run, so that a long queue waiting for driver slots is not read run by run.
    struct QueuedCount {
        std::string projectUid;
        std::string cluster;
        std::optional<std::string> queueReason;
        std::string owner;
        bool launching = false;
        int count = 0;
    };
    virtual std::vector<QueuedCount> queuedCounts() = 0;
    // Why the QUEUED runs on the project's cluster whose driver is not being started wait, but for the
    // `skip` oldest (those that start): `reason`, written where a run does not have it yet, and nothing
    // else of them. Returns how many runs it changed.
    virtual int setWaitingReason(const std::string& projectUid, const std::string& cluster, int skip,
                                 const std::string& reason) = 0;
    // RUNNING runs per (project, cluster).
    virtual std::map<std::pair<std::string, std::string>, int> runningPerCluster() = 0;
    // The driver slots the project's runs take, per cluster name: RUNNING runs and QUEUED runs whose
    // driver is being started (SHOW CLUSTERS' driversInUse).
    virtual std::map<std::string, int> driversInUse(const std::string& projectUid) = 0;

    // Writes the run's mutable columns, owner and owner epoch included, if the run is still active and
    // its status, owner and owner epoch are still those of `seen` (as read earlier) and, when `fenced`,
    // that owner's lease still has that epoch (a write as its owner). false: nothing written (a lost
    // race). Every status transition of a run goes this way.
    virtual bool updateIfOwner(const RunRecord& record, const RunRecord& seen, bool fenced) = 0;
    // The active runs `owner` owns get `epoch` (its lease was claimed again); so do RUNNING runs without
    // an owner (written before runs had owners). Returns how many.
    virtual int adoptRuns(const std::string& owner, std::int64_t epoch) = 0;
    // In one statement: the RUNNING run owned by `from` becomes `to`'s (with `toEpoch`), unless `from`'s
    // lease is live, i.e. renewed less than `leaseMs` ago and not forgotten. false: nothing changed.
    virtual bool takeOverRun(const std::string& runId, const std::string& from, const std::string& to,
                             std::int64_t toEpoch, std::int64_t leaseMs) = 0;

    // The replicas' leases (docs/scale-out.md), on the database's clock.
    virtual std::vector<ReplicaLease> replicaLeases() = 0;
    // Inside a step the lease's row is held until the step ends (its claim decides on it).
    virtual std::optional<ReplicaLease> findLease(const std::string& replicaId) = 0;
    // Claims the lease of `lease.replicaId` for `lease.claim` with the next epoch, renewed now, whoever
    // held it (the caller decided, in the same step); returns the new epoch.
    virtual std::int64_t takeLease(const ReplicaLease& lease) = 0;
    // Renews the lease if it is still `claim`'s with `epoch` and not forgotten; false otherwise.
    virtual bool renewLease(const std::string& replicaId, const std::string& claim, std::int64_t epoch) = 0;
    // Forgets the replica (moves its epoch on, marks it gone) if its lease is still at `epoch` and has
    // not been renewed for `leaseMs`: one statement, a no-op when it renewed meanwhile.
    virtual bool forgetReplica(const std::string& replicaId, std::int64_t epoch, std::int64_t leaseMs) = 0;
};

} // namespace jobdeck
