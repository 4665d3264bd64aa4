#include "service/stores/SqliteAuditStore.h"

#include "service/stores/SqliteSweep.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace jobdeck {

using namespace sqlite_chunked_insert;

std::int64_t SqliteAuditStore::appendAudit(const AuditEntry& entry) {
    return m_db.transaction([&] {
        m_deferred.flush(); // joins this transaction
        insertRows({entry}, RowErrors::Throw);
        return m_db.lastInsertRowId();
    });
}

void SqliteAuditStore::deferAudit(AuditEntry entry) {
    m_deferred.addAudit(std::move(entry));
}

void SqliteAuditStore::insertRows(const std::vector<AuditEntry>& audit, RowErrors errors) {
    static const auto auditSql = chunkStatements(
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
    std::vector<std::string> headers;
    headers.reserve(audit.size());
    // Never throws on a byte that is not UTF-8: one entry's header must not lose the group.
    for (const auto& entry : audit)
        headers.push_back(entry.headers.empty()
                              ? "{}"
                              : nlohmann::json(entry.headers)
                                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    insertChunked(
        m_db, audit.size(), auditSql, 0, 9, errors == RowErrors::Skip, [](SqliteDatabase::Query&) {},
        [&](SqliteDatabase::Query& q, int first, std::size_t i) {
            const AuditEntry& entry = audit[i];
            q.bindStatic(first, times[i])
                .bindStatic(first + 1, entry.projectUid)
                .bindStatic(first + 2, entry.keyId)
                .bindStatic(first + 3, entry.role)
                .bindStatic(first + 4, entry.statement)
                .bindStatic(first + 5, apiOperationStatusName(entry.outcome))
                .bindStatic(first + 7, entry.requestId)
                .bindStatic(first + 8, headers[i]);
            if (entry.errorMessage)
                q.bindStatic(first + 6, *entry.errorMessage);
            else
                q.bind(first + 6, nullptr);
        });
}

std::vector<AuditEntry> SqliteAuditStore::recentAudit(const std::string& projectUid, int limit) {
    m_deferred.flush();
    auto r = m_connections.freshReader(); // a snapshot taken before the flush would miss what it wrote
    auto q =
        r->query("SELECT seq, at, project_uid, key_id, role, statement, outcome, error_message, request_id, "
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
        e.headers = nlohmann::json::parse(q.text(9)).get<std::map<std::string, std::string>>();
        entries.push_back(std::move(e));
    }
    return entries;
}

SweepStep SqliteAuditStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    static const SqliteSweep::Table table{"audit", "seq", "at", "at", ""};
    return SqliteSweep::batch(m_db, table, cutoff, after);
}

} // namespace jobdeck
