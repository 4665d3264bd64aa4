#include "service/stores/SqliteKeyRows.h"

#include "service/stores/KeyRowQueries.h"

namespace jobdeck {

std::int64_t SqliteKeyRows::generation() {
    auto r = m_connections.reader();
    return key_rows::generation(*r);
}

std::optional<KeyRows::Row> SqliteKeyRows::find(std::string_view projectUid, std::string_view apiKey) {
    auto r = m_connections.reader();
    return key_rows::find(*r, projectUid, apiKey);
}

std::string SqliteKeyRows::insert(const NewKey& key) {
    return m_db.transaction([&] { return key_rows::insert(m_db, m_projects, key); });
}

bool SqliteKeyRows::revoke(const std::string& apiKey) {
    return key_rows::revoke(m_db, apiKey);
}

std::vector<KeyRows::Listed> SqliteKeyRows::list() {
    auto r = m_connections.reader();
    return key_rows::list(*r);
}

} // namespace jobdeck
