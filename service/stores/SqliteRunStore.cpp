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
    return run_rows::exists(m_db, runId);
}

std::optional<RunRecord> SqliteRunStore::find(const std::string& projectUid, const std::string& runId) {
    return run_rows::find(m_db, projectUid, runId);
}

std::vector<RunRecord> SqliteRunStore::list(const std::string& projectUid,
                                            const std::optional<std::string>& jobName, bool activeOnly,
                                            std::optional<std::int64_t> limit) {
    return run_rows::list(m_db, projectUid, jobName, activeOnly, limit);
}

int SqliteRunStore::countActive(const std::string& projectUid, const std::string& jobId) {
    return run_rows::countActive(m_db, projectUid, jobId);
}

std::map<std::string, std::int64_t> SqliteRunStore::countByStatus() {
    return run_rows::countByStatus(m_db);
}

std::optional<RunRecord> SqliteRunStore::findActiveByKey(const std::string& projectUid,
                                                         const std::string& jobId,
                                                         const std::string& idempotencyKey) {
    return run_rows::findActiveByKey(m_db, projectUid, jobId, idempotencyKey);
}

std::vector<RunRecord> SqliteRunStore::withStatus(JobRunStatus status) {
    return run_rows::withStatus(m_db, status);
}

std::vector<RunRecord> SqliteRunStore::endedBefore(const std::string& cutoff) {
    return run_rows::endedBefore(m_db, cutoff);
}

std::vector<RunRecord> SqliteRunStore::queuedBriefly() {
    return run_rows::queuedBriefly(m_db);
}

void SqliteRunStore::setQueueReason(const std::string& runId, const std::string& reason) {
    run_rows::setQueueReason(m_db, runId, reason);
}

std::map<std::pair<std::string, std::string>, int> SqliteRunStore::runningPerCluster() {
    return run_rows::runningPerCluster(m_db);
}

void SqliteRunStore::heartbeat(const std::string& replicaId, const std::string& host,
                               const std::string& dataDir, std::int64_t atMs) {
    run_rows::heartbeat(m_db, replicaId, host, dataDir, atMs);
}

std::map<std::string, std::int64_t> SqliteRunStore::replicaHeartbeats() {
    return run_rows::replicaHeartbeats(m_db);
}

void SqliteRunStore::forgetReplica(const std::string& replicaId) {
    run_rows::forgetReplica(m_db, replicaId);
}

} // namespace jobdeck
