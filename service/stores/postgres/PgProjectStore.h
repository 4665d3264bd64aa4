#pragma once

#include "service/stores/ProjectStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The projects and project_allowlist tables (see PgSchema).
class PgProjectStore final : public ProjectStore {
public:
    explicit PgProjectStore(PgConnections& connections)
        : m_connections(connections) {}

    std::optional<Project> findProject(const std::string& projectUid) override;
    std::optional<std::string> findProjectUidByName(const std::string& projectName) override;
    std::string createProject(const std::string& projectName) override;
    ProjectSettings projectSettings(const std::string& projectUid) override;
    void saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
