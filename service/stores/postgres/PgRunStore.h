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
    void heartbeat(const std::string& replicaId, const std::string& host, const std::string& dataDir,
                   std::int64_t atMs) override;
    std::map<std::string, std::int64_t> replicaHeartbeats() override;
    void forgetReplica(const std::string& replicaId) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
