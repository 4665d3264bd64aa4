#include "service/stores/SqliteRunStore.h"

#include "service/stores/RunRows.h"

namespace jobdeck {
namespace {

// SQLite's clock is this process's: one process uses the file (docs/scale-out.md).
constexpr const char* kNowMs = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";

} // namespace

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

std::optional<RunRecord> SqliteRunStore::findById(const std::string& runId) {
    auto reader = m_connections.freshReader();
    return run_rows::findById(*reader, runId);
}

bool SqliteRunStore::updateIfOwner(const RunRecord& record, const RunRecord& seen, bool fenced) {
    return run_rows::updateIfOwner(m_db, record, seen, fenced);
}

int SqliteRunStore::adoptRuns(const std::string& owner, std::int64_t epoch) {
    return run_rows::adoptRuns(m_db, owner, epoch);
}

bool SqliteRunStore::takeOverRun(const std::string& runId, const std::string& from, const std::string& to,
                                 std::int64_t toEpoch, std::int64_t leaseMs) {
    return run_rows::takeOverRun(m_db, kNowMs, runId, from, to, toEpoch, leaseMs);
}

std::vector<ReplicaLease> SqliteRunStore::replicaLeases() {
    auto reader = m_connections.freshReader();
    return run_rows::replicaLeases(*reader, kNowMs);
}

std::optional<ReplicaLease> SqliteRunStore::findLease(const std::string& replicaId) {
    return run_rows::findLease(m_db, kNowMs, replicaId);
}

std::int64_t SqliteRunStore::takeLease(const ReplicaLease& lease) {
    return run_rows::takeLease(m_db, kNowMs, lease);
}

bool SqliteRunStore::renewLease(const std::string& replicaId, const std::string& claim, std::int64_t epoch) {
    return run_rows::renewLease(m_db, kNowMs, replicaId, claim, epoch);
}

bool SqliteRunStore::forgetReplica(const std::string& replicaId, std::int64_t epoch, std::int64_t leaseMs) {
    return run_rows::forgetReplica(m_db, kNowMs, replicaId, epoch, leaseMs);
}

} // namespace jobdeck
