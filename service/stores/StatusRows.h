#pragma once

#include "core/policy/AuditText.h"
#include "core/wire/Timestamp.h"
#include "service/stores/ChunkedInsert.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// The SQL of the requests table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::status_rows {

using chunked_insert::RowErrors;

// Multi-row INSERTs, on the step under way on `db`, if any.
// PENDING rows carry `replica`, the replica that acknowledged them (see failUnfinished).
template <SqlConnection Db>
void insert(Db& db, const std::vector<DeferredWrites::StatusRow>& rows, RowErrors errors,
            const std::string& replica) {
    // PENDING rows first: one never replaces a status, so the order of the two does not matter.
    static const auto pendingSql = chunked_insert::chunkStatements(
        "INSERT INTO requests(request_id, project_uid, status, created_at, updated_at, replica) VALUES ", 3,
        2,
        [](int first) {
            return "?" + std::to_string(first) + ",?" + std::to_string(first + 1) + ",?2,?1,?1,?3";
        },
        " ON CONFLICT(request_id) DO NOTHING");
    static const auto statusSql = chunked_insert::chunkStatements(
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
    chunked_insert::insertChunked(
        db, pending.size(), pendingSql, 3, 2, errors == RowErrors::Skip,
        [&](auto& q) { q.bindStatic(1, at).bindStatic(2, pendingText).bindStatic(3, replica); },
        [&](auto& q, int first, std::size_t i) {
            q.bindStatic(first, pending[i]->requestId).bindStatic(first + 1, pending[i]->projectUid);
        });
    // An error message that echoes a long input is stored cut as the audit's text is (the answer that
    // carried it was whole); computed once per row, as a chunk that fails binds its rows again.
    std::vector<std::optional<std::string>> cutTexts(done.size());
    for (std::size_t i = 0; i < done.size(); ++i)
        if (const auto& message = done[i]->status->errorMessage();
            message && message->size() > kAuditedTextLimit) {
            nlohmann::json status = nlohmann::json::parse(done[i]->status->text());
            status["errorMessage"] = auditedTextReplacement(*message).value_or(*message);
            cutTexts[i] = status.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
    chunked_insert::insertChunked(
        db, done.size(), statusSql, 1, 3, errors == RowErrors::Skip, [&](auto& q) { q.bindStatic(1, at); },
        [&](auto& q, int first, std::size_t i) {
            q.bindStatic(first, done[i]->requestId)
                .bindStatic(first + 1, done[i]->projectUid)
                .bindStatic(first + 2, cutTexts[i] ? *cutTexts[i] : done[i]->status->text());
        });
}

// The request's status if it was written at or after `notBefore` (ISO text).
template <SqlConnection Db>
std::optional<ApiStatus> findCommitted(Db& db, const std::string& projectUid, const std::string& requestId,
                                       const std::string& notBefore, TimePoint* writtenAt) {
    auto q = db.query("SELECT status, updated_at FROM requests WHERE request_id = ? AND project_uid = ? AND "
                      "updated_at >= ?",
                      requestId, projectUid, notBefore);
    if (!q.step())
        return std::nullopt;
    if (writtenAt)
        *writtenAt = q.timestamp(1);
    const nlohmann::json status = nlohmann::json::parse(q.text(0));
    return status.get<ApiStatus>();
}

// The PENDING requests `replica` acknowledged, and those no replica is recorded for when
// `withUnrecorded`. `apiStatusOf` is the backend's SQL for the apiStatus field of the row's status JSON.
template <SqlConnection Db>
int failUnfinished(Db& db, const std::string& message, const std::string& apiStatusOf,
                   const std::string& replica, bool withUnrecorded) {
    return db.execute("UPDATE requests SET status = ?, updated_at = ? WHERE " + apiStatusOf +
                          " = ? AND (replica = ?" + (withUnrecorded ? " OR replica IS NULL)" : ")"),
                      nlohmann::json(ApiStatus::failed(message)).dump(), formatTimestamp(timestampNow()),
                      apiOperationStatusName(ApiOperationStatus::Pending), replica);
}

} // namespace jobdeck::status_rows
