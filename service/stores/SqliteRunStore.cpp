#include "service/stores/SqliteRunStore.h"

#include "service/stores/RunRows.h"

namespace jobdeck {

void SqliteRunStore::insert(const RunRecord& record) {
    run_rows::insert(m_db, record);
}

void SqliteRunStore::update(const RunRecord& record) {
    run_rows::update(m_db, record);
}

void SqliteRunStore::remove(const std::string& runId) {
    run_rows::remove(m_db, runId);
}

bool SqliteRunStore::exists(const std::string& runId) {
    auto reader = m_connections.freshReader();
    return run_rows::exists(*reader, runId);
}

std::optional<RunRecord> SqliteRunStore::find(const std::string& projectUid, const std::string& runId) {
    auto reader = m_connections.freshReader();
    return run_rows::find(*reader, projectUid, runId);
}

std::vector<RunRecord> SqliteRunStore::list(const std::string& projectUid,
                                            const std::optional<std::string>& jobName, bool activeOnly,
                                            std::optional<std::int64_t> limit) {
    auto reader = m_connections.freshReader();
    return run_rows::list(*reader, projectUid, jobName, activeOnly, limit);
}

int SqliteRunStore::countActive(const std::string& projectUid, const std::string& jobId) {
    auto reader = m_connections.freshReader();
    return run_rows::countActive(*reader, projectUid, jobId);
}

std::map<std::string, std::int64_t> SqliteRunStore::countByStatus() {
    auto reader = m_connections.freshReader();
    return run_rows::countByStatus(*reader);
}

std::optional<RunRecord> SqliteRunStore::findActiveByKey(const std::string& projectUid,
                                                         const std::string& jobId,
                                                         const std::string& idempotencyKey) {
    auto reader = m_connections.freshReader();
    return run_rows::findActiveByKey(*reader, projectUid, jobId, idempotencyKey);
}

std::vector<RunRecord> SqliteRunStore::withStatus(JobRunStatus status) {
    auto reader = m_connections.freshReader();
    return run_rows::withStatus(*reader, status);
}

std::vector<RunRecord> SqliteRunStore::endedBefore(const std::string& cutoff) {
    auto reader = m_connections.freshReader();
    return run_rows::endedBefore(*reader, cutoff);
}

std::vector<RunRecord> SqliteRunStore::queuedBriefly() {
    auto reader = m_connections.freshReader();
    return run_rows::queuedBriefly(*reader);
}

void SqliteRunStore::setQueueReason(const std::string& runId, const std::string& reason) {
    run_rows::setQueueReason(m_db, runId, reason);
}

std::map<std::pair<std::string, std::string>, int> SqliteRunStore::runningPerCluster() {
    auto reader = m_connections.freshReader();
    return run_rows::runningPerCluster(*reader);
}

void SqliteRunStore::heartbeat(const std::string& replicaId, const std::string& host,
                               const std::string& dataDir, std::int64_t atMs) {
    run_rows::heartbeat(m_db, replicaId, host, dataDir, atMs);
}

std::map<std::string, std::int64_t> SqliteRunStore::replicaHeartbeats() {
    auto reader = m_connections.freshReader();
    return run_rows::replicaHeartbeats(*reader);
}

void SqliteRunStore::forgetReplica(const std::string& replicaId) {
    run_rows::forgetReplica(m_db, replicaId);
}

} // namespace jobdeck
