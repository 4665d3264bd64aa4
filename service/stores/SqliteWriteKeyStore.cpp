#include "service/stores/SqliteWriteKeyStore.h"

#include "service/stores/WriteKeyRows.h"

namespace jobdeck {

void SqliteWriteKeyStore::saveWriteKey(const std::string& projectUid, const WriteKey& key,
                                       TimePoint expiredBefore) {
    write_key_rows::save(m_db, projectUid, key, expiredBefore);
}

std::optional<WriteKeyStore::WriteKey> SqliteWriteKeyStore::findWriteKey(const std::string& projectUid,
                                                                         const std::string& idempotencyKey,
                                                                         TimePoint notBefore) {
    auto r = m_connections.freshReader();
    return write_key_rows::find(*r, projectUid, idempotencyKey, notBefore);
}

} // namespace jobdeck
