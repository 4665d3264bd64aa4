#pragma once

#include "service/stores/SqlConnection.h"
#include "service/stores/WriteKeyStore.h"

#include <optional>
#include <string>

// The SQL of the write_keys table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::write_key_rows {

template <SqlConnection Db>
void save(Db& db, const std::string& projectUid, const WriteKeyStore::WriteKey& key,
          TimePoint expiredBefore) {
    db.execute("DELETE FROM write_keys WHERE created_at < ?", formatTimestamp(expiredBefore));
    db.execute("INSERT INTO write_keys(project_uid, idempotency_key, statement_hash, request_id, created_at) "
               "VALUES (?, ?, ?, ?, ?) ON CONFLICT (project_uid, idempotency_key) DO UPDATE SET "
               "statement_hash = excluded.statement_hash, request_id = excluded.request_id, "
               "created_at = excluded.created_at",
               projectUid, key.idempotencyKey, key.statementHash, key.requestId, formatTimestamp(key.at));
}

template <SqlConnection Db>
std::optional<WriteKeyStore::WriteKey> find(Db& db, const std::string& projectUid,
                                            const std::string& idempotencyKey, TimePoint notBefore) {
    auto q = db.query("SELECT statement_hash, request_id, created_at FROM write_keys "
                      "WHERE project_uid = ? AND idempotency_key = ? AND created_at >= ?",
                      projectUid, idempotencyKey, formatTimestamp(notBefore));
    if (!q.step())
        return std::nullopt;
    return WriteKeyStore::WriteKey{idempotencyKey, q.text(0), q.text(1),
                                   parseTimestamp(q.text(2)).value_or(notBefore)};
}

} // namespace jobdeck::write_key_rows
