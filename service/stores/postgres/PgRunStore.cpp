#include "service/stores/postgres/PgRunStore.h"

#include "service/stores/RunRows.h"

namespace jobdeck {

void PgRunStore::insert(const RunRecord& record) {
    auto connection = m_connections.freshConnection();
    run_rows::insert(*connection, record);
}

void PgRunStore::update(const RunRecord& record) {
    auto connection = m_connections.freshConnection();
    run_rows::update(*connection, record);
}

void PgRunStore::remove(const std::string& runId) {
    auto connection = m_connections.freshConnection();
    run_rows::remove(*connection, runId);
}

bool PgRunStore::exists(const std::string& runId) {
    auto connection = m_connections.freshConnection();
    return run_rows::exists(*connection, runId);
}

std::optional<RunRecord> PgRunStore::find(const std::string& projectUid, const std::string& runId) {
    auto connection = m_connections.freshConnection();
    return run_rows::find(*connection, projectUid, runId);
}

std::vector<RunRecord> PgRunStore::list(const std::string& projectUid,
                                        const std::optional<std::string>& jobName, bool activeOnly,
                                        std::optional<std::int64_t> limit) {
    auto connection = m_connections.freshConnection();
    return run_rows::list(*connection, projectUid, jobName, activeOnly, limit);
}

int PgRunStore::countActive(const std::string& projectUid, const std::string& jobId) {
    auto connection = m_connections.freshConnection();
    return run_rows::countActive(*connection, projectUid, jobId);
}

std::map<std::string, std::int64_t> PgRunStore::countByStatus() {
    auto connection = m_connections.freshConnection();
    return run_rows::countByStatus(*connection);
}

std::optional<RunRecord> PgRunStore::findActiveByKey(const std::string& projectUid, const std::string& jobId,
                                                     const std::string& idempotencyKey) {
    auto connection = m_connections.freshConnection();
    return run_rows::findActiveByKey(*connection, projectUid, jobId, idempotencyKey);
}

std::vector<RunRecord> PgRunStore::withStatus(JobRunStatus status) {
    auto connection = m_connections.freshConnection();
    return run_rows::withStatus(*connection, status);
}

std::vector<RunRecord> PgRunStore::endedBefore(const std::string& cutoff) {
    auto connection = m_connections.freshConnection();
    return run_rows::endedBefore(*connection, cutoff);
}

std::vector<RunRecord> PgRunStore::queuedBriefly() {
    auto connection = m_connections.freshConnection();
    return run_rows::queuedBriefly(*connection);
}

void PgRunStore::setQueueReason(const std::string& runId, const std::string& reason) {
    auto connection = m_connections.freshConnection();
    run_rows::setQueueReason(*connection, runId, reason);
}

std::map<std::pair<std::string, std::string>, int> PgRunStore::runningPerCluster() {
    auto connection = m_connections.freshConnection();
    return run_rows::runningPerCluster(*connection);
}

void PgRunStore::heartbeat(const std::string& replicaId, const std::string& host, const std::string& dataDir,
                           std::int64_t atMs) {
    auto connection = m_connections.freshConnection();
    run_rows::heartbeat(*connection, replicaId, host, dataDir, atMs);
}

std::map<std::string, std::int64_t> PgRunStore::replicaHeartbeats() {
    auto connection = m_connections.freshConnection();
    return run_rows::replicaHeartbeats(*connection);
}

void PgRunStore::forgetReplica(const std::string& replicaId) {
    auto connection = m_connections.freshConnection();
    run_rows::forgetReplica(*connection, replicaId);
}

} // namespace jobdeck
