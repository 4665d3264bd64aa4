#pragma once

#include "core/policy/AuditText.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Timestamp.h"
#include "service/stores/ChunkedInsert.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>
#include <vector>

// The SQL of the audit table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::audit_rows {

using chunked_insert::RowErrors;

// Multi-row INSERTs, on the step under way on `db`, if any.
template <SqlConnection Db> void insert(Db& db, const std::vector<AuditEntry>& audit, RowErrors errors) {
    static const auto auditSql = chunked_insert::chunkStatements(
        "INSERT INTO audit(at, project_uid, key_id, role, statement, outcome, error_message, request_id, "
        "headers) VALUES ",
        0, 9, [](int) { return "?,?,?,?,?,?,?,?,?"; }, "");
    // Entries made in the same millisecond (most of them, under load) share one formatted time.
    std::vector<std::string> times;
    times.reserve(audit.size());
    for (std::size_t i = 0; i < audit.size(); ++i) {
        const auto at = std::chrono::floor<std::chrono::milliseconds>(audit[i].at);
        times.push_back(i > 0 && at == std::chrono::floor<std::chrono::milliseconds>(audit[i - 1].at)
                            ? times.back()
                            : formatTimestamp(at));
    }
    // A statement or error message over the audit's limit is stored cut (core/policy/AuditText.h): one
    // request stores a few KiB, whatever its body held.
    // Computed once per row: a chunk that fails binds its rows again one by one.
    std::vector<std::optional<std::string>> statements(audit.size());
    std::vector<std::optional<std::string>> errorMessages(audit.size());
    for (std::size_t i = 0; i < audit.size(); ++i) {
        statements[i] = auditedTextReplacement(audit[i].statement);
        if (audit[i].errorMessage)
            errorMessages[i] = auditedTextReplacement(*audit[i].errorMessage);
    }
    std::vector<std::string> headers;
    headers.reserve(audit.size());
    // Never throws on a byte that is not UTF-8: one entry's header must not lose the group.
    for (const auto& entry : audit)
        headers.push_back(entry.headers.empty()
                              ? "{}"
                              : nlohmann::json(entry.headers)
                                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    chunked_insert::insertChunked(
        db, audit.size(), auditSql, 0, 9, errors == RowErrors::Skip, [](auto&) {},
        [&](auto& q, int first, std::size_t i) {
            const AuditEntry& entry = audit[i];
            q.bindStatic(first, times[i])
                .bindStatic(first + 1, entry.projectUid)
                .bindStatic(first + 2, entry.keyId)
                .bindStatic(first + 3, entry.role)
                .bindStatic(first + 4, statements[i] ? *statements[i] : entry.statement)
                .bindStatic(first + 5, apiOperationStatusName(entry.outcome))
                .bindStatic(first + 7, entry.requestId)
                .bindStatic(first + 8, headers[i]);
            if (entry.errorMessage)
                q.bindStatic(first + 6, errorMessages[i] ? *errorMessages[i] : *entry.errorMessage);
            else
                q.bind(first + 6, nullptr);
        });
}

template <SqlConnection Db> std::vector<AuditEntry> recent(Db& db, const std::string& projectUid, int limit) {
    auto q =
        db.query("SELECT seq, at, project_uid, key_id, role, statement, outcome, error_message, request_id, "
                 "headers FROM audit WHERE project_uid = ? ORDER BY seq DESC LIMIT ?",
                 projectUid, limit);
    std::vector<AuditEntry> entries;
    while (q.step()) {
        AuditEntry e;
        e.seq = q.int64(0);
        e.at = q.timestamp(1);
        e.projectUid = q.text(2);
        e.keyId = q.text(3);
        e.role = q.text(4);
        e.statement = q.text(5);
        e.outcome = apiOperationStatusFromName(q.text(6)).value_or(ApiOperationStatus::Failed);
        e.errorMessage = q.optionalText(7);
        e.requestId = q.text(8);
        const nlohmann::json headers = nlohmann::json::parse(q.text(9));
        e.headers = headers.get<std::map<std::string, std::string>>();
        entries.push_back(std::move(e));
    }
    return entries;
}

} // namespace jobdeck::audit_rows
