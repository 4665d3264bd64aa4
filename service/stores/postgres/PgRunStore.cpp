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

} // namespace jobdeck
