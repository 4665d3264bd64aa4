#pragma once

#include "service/stores/RunStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The runs table (see SqliteSchema). Writes go to the writer connection, so every call joins a
// surrounding transaction on the same thread; reads outside one go to a pooled read-only connection,
// so the scheduler's reads never hold up a write.
class SqliteRunStore final : public RunStore {
public:
    explicit SqliteRunStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

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
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
