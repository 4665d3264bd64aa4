#include "service/stores/SqliteWriteKeyStore.h"

namespace jobdeck {

void SqliteWriteKeyStore::saveWriteKey(const std::string& projectUid, const WriteKey& key,
                                       TimePoint expiredBefore) {
    m_db.execute("DELETE FROM write_keys WHERE created_at < ?", formatTimestamp(expiredBefore));
    m_db.execute(
        "INSERT OR REPLACE INTO write_keys(project_uid, idempotency_key, statement_hash, request_id, "
        "created_at) VALUES (?, ?, ?, ?, ?)",
        projectUid, key.idempotencyKey, key.statementHash, key.requestId, formatTimestamp(key.at));
}

std::optional<WriteKeyStore::WriteKey> SqliteWriteKeyStore::findWriteKey(const std::string& projectUid,
                                                                         const std::string& idempotencyKey,
                                                                         TimePoint notBefore) {
    auto r = m_connections.freshReader();
    auto q = r->query("SELECT statement_hash, request_id, created_at FROM write_keys "
                      "WHERE project_uid = ? AND idempotency_key = ? AND created_at >= ?",
                      projectUid, idempotencyKey, formatTimestamp(notBefore));
    if (!q.step())
        return std::nullopt;
    return WriteKey{idempotencyKey, q.text(0), q.text(1), parseTimestamp(q.text(2)).value_or(notBefore)};
}

} // namespace jobdeck
