#pragma once

#include "service/stores/WriteKeyStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The write_keys table (see PgSchema).
class PgWriteKeyStore final : public WriteKeyStore {
public:
    explicit PgWriteKeyStore(PgConnections& connections)
        : m_connections(connections) {}

    void saveWriteKey(const std::string& projectUid, const WriteKey& key, TimePoint expiredBefore) override;
    std::optional<WriteKey> findWriteKey(const std::string& projectUid, const std::string& idempotencyKey,
                                         TimePoint notBefore) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
