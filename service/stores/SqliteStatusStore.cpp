#include "service/stores/SqliteStatusStore.h"

#include "service/stores/StatusRows.h"
#include "service/stores/SweepRows.h"

#include <nlohmann/json.hpp>

namespace jobdeck {

void SqliteStatusStore::saveRequestStatus(const std::string& projectUid, const std::string& requestId,
                                          const StatusJson& status) {
    insertRows({{projectUid, requestId, status, {}}}, RowErrors::Throw);
}

void SqliteStatusStore::deferRequestStatus(std::string projectUid, std::string requestId, StatusJson status,
                                           std::function<void(bool committed)> committed) {
    m_deferred.addStatus(
        {std::move(projectUid), std::move(requestId), std::move(status), std::move(committed)});
}

void SqliteStatusStore::savePendingRequest(const std::string& projectUid, const std::string& requestId) {
    insertRows({{projectUid, requestId, std::nullopt, {}}}, RowErrors::Throw);
}

void SqliteStatusStore::deferPendingRequest(const std::string& projectUid, const std::string& requestId,
                                            std::function<void(bool committed)> committed) {
    m_deferred.addStatus({projectUid, requestId, std::nullopt, std::move(committed)});
}

void SqliteStatusStore::setReplicaId(const std::string& replicaId) {
    const std::lock_guard lock(m_replicaMutex);
    m_replicaId = replicaId;
}

int SqliteStatusStore::failUnfinishedRequests(const std::string& message) {
    return status_rows::failUnfinished(m_db, message, "json_extract(status, '$.apiStatus')", replicaId(),
                                       true);
}

int SqliteStatusStore::failUnfinishedRequestsOf(const std::string& gone, const std::string& message) {
    return status_rows::failUnfinished(m_db, message, "json_extract(status, '$.apiStatus')", gone, false);
}

std::string SqliteStatusStore::replicaId() const {
    const std::lock_guard lock(m_replicaMutex);
    return m_replicaId;
}

std::optional<ApiStatus> SqliteStatusStore::findRequestStatus(const std::string& projectUid,
                                                              const std::string& requestId) {
    m_deferred.flush();
    return findCommittedRequestStatus(projectUid, requestId);
}

std::optional<ApiStatus> SqliteStatusStore::findCommittedRequestStatus(const std::string& projectUid,
                                                                       const std::string& requestId,
                                                                       TimePoint* writtenAt) {
    auto r = m_connections.freshReader();
    return status_rows::findCommitted(*r, projectUid, requestId,
                                      formatTimestamp(timestampNow() - m_statusRetention.load()), writtenAt);
}

void SqliteStatusStore::setStatusRetention(std::chrono::seconds retention) {
    m_statusRetention = retention;
}

void SqliteStatusStore::insertRows(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors) {
    status_rows::insert(m_db, rows, errors, replicaId());
}

SweepStep SqliteStatusStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    // A PENDING row belongs to a request that is still running (or to a process that died: the next
    // start makes it FAILED, and so new).
    static const sweep_rows::Table table{
        "requests", "rowid", "created_at", "updated_at",
        " AND json_extract(status, '$.apiStatus') <> 'API_OPERATION_STATUS_PENDING'"};
    return m_db.transaction([&] { return sweep_rows::batch(m_db, table, cutoff, after); });
}

} // namespace jobdeck
