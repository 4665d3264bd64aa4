#include "service/stores/SqliteStatusStore.h"

#include "service/stores/SqliteSweep.h"

#include <nlohmann/json.hpp>

namespace jobdeck {

using namespace sqlite_chunked_insert;

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

int SqliteStatusStore::failUnfinishedRequests(const std::string& message) {
    return m_db.execute("UPDATE requests SET status = ?, updated_at = ? "
                        "WHERE json_extract(status, '$.apiStatus') = ?",
                        nlohmann::json(ApiStatus::failed(message)).dump(), formatTimestamp(timestampNow()),
                        apiOperationStatusName(ApiOperationStatus::Pending));
}

std::optional<ApiStatus> SqliteStatusStore::findRequestStatus(const std::string& projectUid,
                                                              const std::string& requestId) {
    m_deferred.flush();
    return findCommittedRequestStatus(projectUid, requestId);
}

std::optional<ApiStatus> SqliteStatusStore::findCommittedRequestStatus(const std::string& projectUid,
                                                                       const std::string& requestId,
                                                                       TimePoint* writtenAt) {
    const std::string notBefore = formatTimestamp(timestampNow() - m_statusRetention.load());
    auto r = m_connections.freshReader();
    auto q = r->query("SELECT status, updated_at FROM requests WHERE request_id = ? AND project_uid = ? AND "
                      "updated_at >= ?",
                      requestId, projectUid, notBefore);
    if (!q.step())
        return std::nullopt;
    if (writtenAt)
        *writtenAt = q.timestamp(1);
    return nlohmann::json::parse(q.text(0)).get<ApiStatus>();
}

void SqliteStatusStore::setStatusRetention(std::chrono::seconds retention) {
    m_statusRetention = retention;
}

void SqliteStatusStore::insertRows(const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors) {
    // PENDING rows first: one never replaces a status, so the order of the two does not matter.
    static const auto pendingSql = chunkStatements(
        "INSERT INTO requests(request_id, project_uid, status, created_at, updated_at) VALUES ", 2, 2,
        [](int first) {
            return "?" + std::to_string(first) + ",?" + std::to_string(first + 1) + ",?2,?1,?1";
        },
        " ON CONFLICT(request_id) DO NOTHING");
    static const auto statusSql = chunkStatements(
        "INSERT INTO requests(request_id, project_uid, status, created_at, updated_at) VALUES ", 1, 3,
        [](int first) {
            return "?" + std::to_string(first) + ",?" + std::to_string(first + 1) + ",?" +
                   std::to_string(first + 2) + ",?1,?1";
        },
        " ON CONFLICT(request_id) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at "
        "WHERE requests.project_uid = excluded.project_uid");
    std::vector<const DeferredWrites::StatusRow*> pending;
    std::vector<const DeferredWrites::StatusRow*> done;
    for (const auto& row : rows)
        (row.status ? done : pending).push_back(&row);
    const std::string at = formatTimestamp(timestampNow()); // the group's time
    static const std::string pendingText = nlohmann::json(ApiStatus::pending()).dump();
    insertChunked(
        m_db, pending.size(), pendingSql, 2, 2, errors == RowErrors::Skip,
        [&](SqliteDatabase::Query& q) { q.bindStatic(1, at).bindStatic(2, pendingText); },
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            q.bindStatic(first, pending[i]->requestId).bindStatic(first + 1, pending[i]->projectUid);
        });
    insertChunked(
        m_db, done.size(), statusSql, 1, 3, errors == RowErrors::Skip,
        [&](SqliteDatabase::Query& q) { q.bindStatic(1, at); },
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            q.bindStatic(first, done[i]->requestId)
                .bindStatic(first + 1, done[i]->projectUid)
                .bindStatic(first + 2, done[i]->status->text());
        });
}

SweepStep SqliteStatusStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    // A PENDING row belongs to a request that is still running (or to a process that died: the next
    // start makes it FAILED, and so new).
    static const SqliteSweep::Table table{
        "requests", "rowid", "created_at", "updated_at",
        " AND json_extract(status, '$.apiStatus') <> 'API_OPERATION_STATUS_PENDING'"};
    return SqliteSweep::batch(m_db, table, cutoff, after);
}

} // namespace jobdeck
