#pragma once

#include "service/stores/SqliteConnections.h"
#include "service/stores/WriteKeyStore.h"

namespace jobdeck {

// The write_keys table (see SqliteSchema).
class SqliteWriteKeyStore final : public WriteKeyStore {
public:
    explicit SqliteWriteKeyStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

    void saveWriteKey(const std::string& projectUid, const WriteKey& key, TimePoint expiredBefore) override;
    std::optional<WriteKey> findWriteKey(const std::string& projectUid, const std::string& idempotencyKey,
                                         TimePoint notBefore) override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
