#include "service/stores/postgres/PgKeyRows.h"

#include "service/stores/KeyRowQueries.h"

namespace jobdeck {

std::int64_t PgKeyRows::generation() {
    auto connection = m_connections.connection();
    return key_rows::generation(*connection);
}

std::optional<KeyRows::Row> PgKeyRows::find(std::string_view projectUid, std::string_view apiKey) {
    auto connection = m_connections.connection();
    return key_rows::find(*connection, projectUid, apiKey);
}

std::string PgKeyRows::insert(const NewKey& key) {
    return m_connections.run([&] {
        auto connection = m_connections.connection();
        return key_rows::insert(*connection, m_projects, key);
    });
}

bool PgKeyRows::revoke(const std::string& apiKey) {
    auto connection = m_connections.connection();
    return key_rows::revoke(*connection, apiKey);
}

std::vector<KeyRows::Listed> PgKeyRows::list() {
    auto connection = m_connections.connection();
    return key_rows::list(*connection);
}

} // namespace jobdeck
