#pragma once

#include "service/stores/ProjectStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The projects and project_allowlist tables (see SqliteSchema).
class SqliteProjectStore final : public ProjectStore {
public:
    explicit SqliteProjectStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

    std::optional<Project> findProject(const std::string& projectUid) override;
    std::optional<std::string> findProjectUidByName(const std::string& projectName) override;
    std::string createProject(const std::string& projectName) override;
    ProjectSettings projectSettings(const std::string& projectUid) override;
    void saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
