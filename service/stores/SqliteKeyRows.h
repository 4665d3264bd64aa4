#pragma once

#include "service/stores/KeyRows.h"
#include "service/stores/ProjectStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The api_keys and key_changes tables (see SqliteSchema).
class SqliteKeyRows final : public KeyRows {
public:
    SqliteKeyRows(SqliteConnections& connections, ProjectStore& projects)
        : m_connections(connections)
        , m_db(connections.writer())
        , m_projects(projects) {}

    std::int64_t generation() override;
    std::optional<Row> find(std::string_view projectUid, std::string_view apiKey) override;
    std::string insert(const NewKey& key) override;
    bool revoke(const std::string& apiKey) override;
    std::vector<Listed> list() override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
    ProjectStore& m_projects;
};

} // namespace jobdeck
