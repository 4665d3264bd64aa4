#pragma once

#include "service/stores/ClusterRows.h"
#include "service/stores/ClusterStore.h"
#include "service/stores/JobRows.h"
#include "service/stores/JobStore.h"
#include "service/stores/ProjectRows.h"
#include "service/stores/ProjectStore.h"
#include "service/stores/RunRows.h"
#include "service/stores/RunStore.h"
#include "service/stores/StoreAccess.h"
#include "service/stores/WriteKeyRows.h"
#include "service/stores/WriteKeyStore.h"

#include "service/stores/RandomIds.h"

#include <string>
#include <utility>

// The stores whose SQL is the same on both backends, over either backend's StoreAccess (SqliteAccess,
// PgAccess). What differs between the backends is a constructor argument; a store whose behaviour
// differs (events, statuses, audit, keys) has a class per backend.
namespace jobdeck {

// The projects and project_allowlist tables.
template <StoreAccess Access> class SharedProjectStore final : public ProjectStore {
public:
    // `allowlistJson`: the backend's SQL for project `p`'s allow-list as a JSON array sorted by entry.
    SharedProjectStore(Access access, std::string allowlistJson)
        : m_access(std::move(access))
        , m_allowlistJson(std::move(allowlistJson)) {}

    std::optional<Project> findProject(const std::string& projectUid) override {
        const auto name = project_rows::findName(*m_access.read(), projectUid);
        if (!name)
            return std::nullopt;
        return Project{projectUid, *name, projectSettings(projectUid), std::nullopt, {}};
    }
    std::optional<std::string> findProjectUidByName(const std::string& projectName) override {
        return project_rows::findUidByName(*m_access.read(), projectName);
    }
    std::string createProject(const std::string& projectName) override {
        std::string uid = RandomIds::randomUuid();
        project_rows::create(*m_access.write(), uid, projectName);
        return uid;
    }
    ProjectSettings projectSettings(const std::string& projectUid) override {
        // KEY SHARE: what decides on the settings (an admission, a CREATE JOB) holds the row against
        // their change (saveProjectSettings locks it FOR UPDATE) but not against the events' pruning,
        // which moves only events_pruned_through.
        return project_rows::settings(*m_access.read(), projectUid, m_allowlistJson,
                                      rowLock(m_access, "FOR KEY SHARE OF p"));
    }
    ProjectSettings projectSettingsForUpdate(const std::string& projectUid) override {
        auto db = m_access.read();
        // Held first, then read by a statement of its own: a locking read that waited returns the row as
        // its holder committed it, but the allow-list (another table) as it was before the wait.
        project_rows::lockRow(*db, projectUid, rowLock(m_access, "FOR UPDATE"));
        return project_rows::settings(*db, projectUid, m_allowlistJson);
    }
    ProjectSettings projectSettingsAsCommitted(const std::string& projectUid) override {
        return project_rows::settings(*m_access.read(), projectUid, m_allowlistJson, std::string());
    }
    void saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) override {
        m_access.steps().run([&] {
            project_rows::saveSettings(*m_access.write(), projectUid, settings,
                                       rowLock(m_access, "FOR UPDATE"));
        });
    }

private:
    Access m_access;
    const std::string m_allowlistJson;
};

// The clusters table; writes join the step under way on this thread, if any.
template <StoreAccess Access> class SharedClusterStore final : public ClusterStore {
public:
    explicit SharedClusterStore(Access access)
        : m_access(std::move(access)) {}

    std::optional<Cluster> findCluster(const std::string& projectUid, const std::string& name) override {
        return cluster_rows::find(*m_access.read(), projectUid, name, rowLock(m_access, "FOR KEY SHARE"));
    }
    std::optional<Cluster> findClusterForUpdate(const std::string& projectUid,
                                                const std::string& name) override {
        return cluster_rows::find(*m_access.read(), projectUid, name, rowLock(m_access, "FOR UPDATE"));
    }
    std::optional<Cluster> findClusterAsCommitted(const std::string& projectUid,
                                                  const std::string& name) override {
        return cluster_rows::find(*m_access.read(), projectUid, name, std::string());
    }
    std::vector<Cluster> listClusters(const std::string& projectUid) override {
        return cluster_rows::list(*m_access.read(), projectUid);
    }
    void insertCluster(const std::string& projectUid, const Cluster& cluster) override {
        cluster_rows::insert(*m_access.write(), projectUid, cluster);
    }
    void updateCluster(const std::string& projectUid, const Cluster& cluster) override {
        cluster_rows::update(*m_access.write(), projectUid, cluster);
    }
    void deleteCluster(const std::string& projectUid, const std::string& clusterId) override {
        cluster_rows::remove(*m_access.write(), projectUid, clusterId);
    }

private:
    Access m_access;
};

// The jobs table; writes join the step under way on this thread, if any.
template <StoreAccess Access> class SharedJobStore final : public JobStore {
public:
    // `activeRunsSource`: how the backend names the runs table to count active runs from (job_rows).
    SharedJobStore(Access access, std::string activeRunsSource)
        : m_access(std::move(access))
        , m_activeRunsSource(std::move(activeRunsSource)) {}

    std::optional<SparkJob> findJob(const std::string& projectUid, const std::string& name) override {
        return job_rows::find(*m_access.read(), projectUid, name, rowLock(m_access, "FOR SHARE OF j"));
    }
    std::optional<SparkJob> findJobForUpdate(const std::string& projectUid,
                                             const std::string& name) override {
        return job_rows::find(*m_access.read(), projectUid, name, rowLock(m_access, "FOR UPDATE OF j"));
    }
    std::optional<JobToRun> findJobToRun(const std::string& projectUid, const std::string& name,
                                         const std::optional<std::string>& idempotencyKey) override {
        auto db = m_access.read();
        // KEY SHARE of the project as for projectSettings(): against a change of its settings only.
        auto job = job_rows::toRunQuery(*db, projectUid, name,
                                        rowLock(m_access, "FOR UPDATE OF j FOR KEY SHARE OF p"));
        // Read once the job's row is held, in the same round trip.
        auto active = run_rows::activeRunsOfJob(*db, projectUid, name, idempotencyKey);
        job.thenRead(active);
        auto toRun = job_rows::readToRun(job);
        if (toRun)
            toRun->activeRuns = run_rows::readActiveRuns(active);
        return toRun;
    }
    std::optional<SparkJob> findJobAsCommitted(const std::string& projectUid,
                                               const std::string& name) override {
        return job_rows::find(*m_access.read(), projectUid, name, std::string());
    }
    void forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) override {
        job_rows::forEach(*m_access.read(), m_activeRunsSource, projectUid, each);
    }
    void forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                           const std::function<void(SparkJobSummary&&)>& each) override {
        job_rows::forEachSummary(*m_access.read(), m_activeRunsSource, projectUid, limit, each);
    }
    std::pair<std::int64_t, std::int64_t> jobsSize(const std::string& projectUid) override {
        return job_rows::size(*m_access.read(), projectUid);
    }
    void insertJob(const std::string& projectUid, const SparkJob& job) override {
        job_rows::insert(*m_access.write(), projectUid, job);
    }
    void updateJob(const std::string& projectUid, const SparkJob& job) override {
        job_rows::update(*m_access.write(), projectUid, job);
    }
    void deleteJob(const std::string& projectUid, const std::string& jobId) override {
        job_rows::remove(*m_access.write(), projectUid, jobId);
    }
    int activeRunCount(const std::string& projectUid, const std::string& jobId) override {
        return job_rows::activeRunCount(*m_access.read(), projectUid, jobId);
    }
    std::vector<std::string> jobNamesOnCluster(const std::string& projectUid,
                                               const std::string& cluster) override {
        return job_rows::namesOnCluster(*m_access.read(), projectUid, cluster);
    }

private:
    Access m_access;
    const std::string m_activeRunsSource;
};

// The write_keys table; saves join the step under way on this thread, if any.
template <StoreAccess Access> class SharedWriteKeyStore final : public WriteKeyStore {
public:
    explicit SharedWriteKeyStore(Access access)
        : m_access(std::move(access)) {}

    void saveWriteKey(const std::string& projectUid, const WriteKey& key, TimePoint expiredBefore) override {
        write_key_rows::save(*m_access.write(), projectUid, key, expiredBefore);
    }
    std::optional<WriteKey> findWriteKey(const std::string& projectUid, const std::string& idempotencyKey,
                                         TimePoint notBefore) override {
        return write_key_rows::find(*m_access.readFresh(), projectUid, idempotencyKey, notBefore);
    }

private:
    Access m_access;
};

// The runs and replica_leases tables. Writes join the step under way on this thread, if any; reads
// outside one see what is committed now (never a snapshot), as the launcher and the scheduler need, and
// on SQLite never hold up a write.
template <StoreAccess Access> class SharedRunStore final : public RunStore {
public:
    // `nowMs`: the backend's SQL for the database's clock in milliseconds since the epoch, which the
    // leases are judged on (docs/scale-out.md).
    SharedRunStore(Access access, std::string nowMs)
        : m_access(std::move(access))
        , m_nowMs(std::move(nowMs)) {}

    bool insert(const RunRecord& record) override { return run_rows::insert(*m_access.write(), record); }
    void insertLater(const RunRecord& record) override { run_rows::insertLater(*m_access.write(), record); }
    void update(const RunRecord& record) override { run_rows::update(*m_access.write(), record); }
    void remove(const std::string& runId) override { run_rows::remove(*m_access.write(), runId); }
    bool exists(const std::string& runId) override { return run_rows::exists(*m_access.readFresh(), runId); }
    std::optional<RunRecord> find(const std::string& projectUid, const std::string& runId) override {
        return run_rows::find(*m_access.readFresh(), projectUid, runId, rowLock(m_access, "FOR UPDATE"));
    }
    std::map<std::string, RunRecord>
    findEach(const std::vector<std::pair<std::string, std::string>>& projectAndRunIds) override {
        std::map<std::string, std::string> projectOf; // run id -> the project it is looked for in
        std::vector<std::string> ids;
        for (const auto& [projectUid, runId] : projectAndRunIds)
            if (projectOf.emplace(runId, projectUid).second)
                ids.push_back(runId);
        std::map<std::string, RunRecord> found;
        for (auto& record : run_rows::findEach(*m_access.readFresh(), ids, rowLock(m_access, "FOR UPDATE")))
            if (projectOf.at(record.run.jobRunId) == record.projectUid)
                found.emplace(record.run.jobRunId, std::move(record));
        return found;
    }
    std::vector<RunRecord> list(const std::string& projectUid, const std::optional<std::string>& jobName,
                                bool activeOnly, std::optional<std::int64_t> limit) override {
        return run_rows::list(*m_access.readFresh(), projectUid, jobName, activeOnly, limit);
    }
    std::map<std::string, std::int64_t> countByStatus() override {
        return run_rows::countByStatus(*m_access.readFresh());
    }
    std::vector<RunRecord> withStatus(JobRunStatus status) override {
        return run_rows::withStatus(*m_access.readFresh(), status);
    }
    std::vector<RunRecord> runningOwnedBy(const std::string& owner) override {
        return run_rows::runningOwnedBy(*m_access.readFresh(), owner);
    }
    std::vector<std::string> ownersOfRunningRuns() override {
        return run_rows::ownersOfRunning(*m_access.readFresh());
    }
    std::vector<RunRecord> endedBefore(const std::string& cutoff) override {
        return run_rows::endedBefore(*m_access.readFresh(), cutoff);
    }
    ClustersWithQueue clustersWithQueue() override {
        return run_rows::clustersWithQueue(*m_access.readFresh(), locksRowsHere(m_access));
    }
    std::vector<QueuedRun> queuedOn(const std::string& projectUid, const std::string& cluster,
                                    int limit) override {
        return run_rows::queuedOn(*m_access.readFresh(), projectUid, cluster, limit);
    }
    std::vector<QueuedRun> queuedLaunching() override {
        return run_rows::queuedLaunching(*m_access.readFresh());
    }
    int setWaitingReason(const std::string& projectUid, const std::string& cluster, int skip,
                         const std::string& reason) override {
        return run_rows::setWaitingReason(*m_access.write(), projectUid, cluster, skip, reason);
    }
    std::vector<QueuedCount> queuedCounts() override { return run_rows::queuedCounts(*m_access.readFresh()); }
    std::map<std::pair<std::string, std::string>, int> runningPerCluster() override {
        return run_rows::runningPerCluster(*m_access.readFresh());
    }
    std::map<std::string, int> driversInUse(const std::string& projectUid) override {
        return run_rows::driversInUse(*m_access.readFresh(), projectUid);
    }
    std::optional<RunRecord> findById(const std::string& runId) override {
        return run_rows::findById(*m_access.readFresh(), runId, rowLock(m_access, "FOR UPDATE"));
    }
    bool updateIfOwner(const RunRecord& record, const RunRecord& seen, bool fenced) override {
        return run_rows::updateIfOwner(*m_access.write(), record, seen, fenced);
    }
    int adoptRuns(const std::string& owner, std::int64_t epoch) override {
        return run_rows::adoptRuns(*m_access.write(), owner, epoch);
    }
    bool takeOverRun(const std::string& runId, const std::string& from, const std::string& to,
                     std::int64_t toEpoch, std::int64_t leaseMs) override {
        return run_rows::takeOverRun(*m_access.write(), m_nowMs.c_str(), runId, from, to, toEpoch, leaseMs);
    }
    std::vector<ReplicaLease> replicaLeases() override {
        return run_rows::replicaLeases(*m_access.readFresh(), m_nowMs.c_str());
    }
    // On the writer's connection: takeLease's caller reads the lease in the same step it claims it.
    std::optional<ReplicaLease> findLease(const std::string& replicaId) override {
        return run_rows::findLease(*m_access.write(), m_nowMs.c_str(), replicaId,
                                   rowLock(m_access, "FOR UPDATE"));
    }
    std::int64_t takeLease(const ReplicaLease& lease) override {
        return run_rows::takeLease(*m_access.write(), m_nowMs.c_str(), lease);
    }
    bool renewLease(const std::string& replicaId, const std::string& claim, std::int64_t epoch) override {
        return run_rows::renewLease(*m_access.write(), m_nowMs.c_str(), replicaId, claim, epoch);
    }
    bool forgetReplica(const std::string& replicaId, std::int64_t epoch, std::int64_t leaseMs) override {
        return run_rows::forgetReplica(*m_access.write(), m_nowMs.c_str(), replicaId, epoch, leaseMs);
    }

private:
    Access m_access;
    const std::string m_nowMs;
};

} // namespace jobdeck
