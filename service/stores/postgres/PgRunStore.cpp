#include "service/stores/postgres/PgRunStore.h"

#include "service/stores/RunRows.h"

namespace jobdeck {
namespace {

// The server's clock, the same for every replica whatever their hosts' clocks say.
constexpr const char* kNowMs = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

} // namespace

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

std::optional<RunRecord> PgRunStore::findById(const std::string& runId) {
    auto connection = m_connections.freshConnection();
    return run_rows::findById(*connection, runId);
}

bool PgRunStore::updateIfOwner(const RunRecord& record, const RunRecord& seen, bool fenced) {
    auto connection = m_connections.freshConnection();
    return run_rows::updateIfOwner(*connection, record, seen, fenced);
}

int PgRunStore::adoptRuns(const std::string& owner, std::int64_t epoch) {
    auto connection = m_connections.freshConnection();
    return run_rows::adoptRuns(*connection, owner, epoch);
}

bool PgRunStore::takeOverRun(const std::string& runId, const std::string& from, const std::string& to,
                             std::int64_t toEpoch, std::int64_t leaseMs) {
    auto connection = m_connections.freshConnection();
    return run_rows::takeOverRun(*connection, kNowMs, runId, from, to, toEpoch, leaseMs);
}

std::vector<ReplicaLease> PgRunStore::replicaLeases() {
    auto connection = m_connections.freshConnection();
    return run_rows::replicaLeases(*connection, kNowMs);
}

std::optional<ReplicaLease> PgRunStore::findLease(const std::string& replicaId) {
    auto connection = m_connections.freshConnection();
    return run_rows::findLease(*connection, kNowMs, replicaId);
}

std::int64_t PgRunStore::takeLease(const ReplicaLease& lease) {
    auto connection = m_connections.freshConnection();
    return run_rows::takeLease(*connection, kNowMs, lease);
}

bool PgRunStore::renewLease(const std::string& replicaId, const std::string& claim, std::int64_t epoch) {
    auto connection = m_connections.freshConnection();
    return run_rows::renewLease(*connection, kNowMs, replicaId, claim, epoch);
}

bool PgRunStore::forgetReplica(const std::string& replicaId, std::int64_t epoch, std::int64_t leaseMs) {
    auto connection = m_connections.freshConnection();
    return run_rows::forgetReplica(*connection, kNowMs, replicaId, epoch, leaseMs);
}

} // namespace jobdeck
