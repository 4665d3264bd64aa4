#pragma once

#include "service/stores/RunStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The runs table (see PgSchema); every call joins the step under way on this thread, if any, and reads
// what is committed now (never a snapshot), as the launcher and scheduler need.
class PgRunStore final : public RunStore {
public:
    explicit PgRunStore(PgConnections& connections)
        : m_connections(connections) {}

    void insert(const RunRecord& record) override;
    void update(const RunRecord& record) override;
    void remove(const std::string& runId) override;
    bool exists(const std::string& runId) override;
    std::optional<RunRecord> find(const std::string& projectUid, const std::string& runId) override;
    std::vector<RunRecord> list(const std::string& projectUid, const std::optional<std::string>& jobName,
                                bool activeOnly, std::optional<std::int64_t> limit) override;
    int countActive(const std::string& projectUid, const std::string& jobId) override;
    std::map<std::string, std::int64_t> countByStatus() override;
    std::optional<RunRecord> findActiveByKey(const std::string& projectUid, const std::string& jobId,
                                             const std::string& idempotencyKey) override;
    std::vector<RunRecord> withStatus(JobRunStatus status) override;
    std::vector<RunRecord> endedBefore(const std::string& cutoff) override;
    std::vector<RunRecord> queuedBriefly() override;
    void setQueueReason(const std::string& runId, const std::string& reason) override;
    std::map<std::pair<std::string, std::string>, int> runningPerCluster() override;
    std::optional<RunRecord> findById(const std::string& runId) override;
    bool updateIfOwner(const RunRecord& record, const RunRecord& seen, bool fenced) override;
    int adoptRuns(const std::string& owner, std::int64_t epoch) override;
    bool takeOverRun(const std::string& runId, const std::string& from, const std::string& to,
                     std::int64_t toEpoch, std::int64_t leaseMs) override;
    std::vector<ReplicaLease> replicaLeases() override;
    std::optional<ReplicaLease> findLease(const std::string& replicaId) override;
    std::int64_t takeLease(const ReplicaLease& lease) override;
    bool renewLease(const std::string& replicaId, const std::string& claim, std::int64_t epoch) override;
    bool forgetReplica(const std::string& replicaId, std::int64_t epoch, std::int64_t leaseMs) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
