#include "service/stores/postgres/PgWriteKeyStore.h"

#include "service/stores/WriteKeyRows.h"

namespace jobdeck {

void PgWriteKeyStore::saveWriteKey(const std::string& projectUid, const WriteKey& key,
                                   TimePoint expiredBefore) {
    auto connection = m_connections.connection();
    write_key_rows::save(*connection, projectUid, key, expiredBefore);
}

std::optional<WriteKeyStore::WriteKey> PgWriteKeyStore::findWriteKey(const std::string& projectUid,
                                                                     const std::string& idempotencyKey,
                                                                     TimePoint notBefore) {
    auto connection = m_connections.freshConnection();
    return write_key_rows::find(*connection, projectUid, idempotencyKey, notBefore);
}

} // namespace jobdeck
