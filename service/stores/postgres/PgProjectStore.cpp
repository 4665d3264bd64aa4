#include "service/stores/postgres/PgProjectStore.h"

#include "service/RandomIds.h"
#include "service/stores/ProjectRows.h"

namespace jobdeck {

std::optional<Project> PgProjectStore::findProject(const std::string& projectUid) {
    std::optional<std::string> name;
    {
        auto connection = m_connections.connection();
        name = project_rows::findName(*connection, projectUid);
    }
    if (!name)
        return std::nullopt;
    return Project{projectUid, *name, projectSettings(projectUid), std::nullopt, {}};
}

std::optional<std::string> PgProjectStore::findProjectUidByName(const std::string& projectName) {
    auto connection = m_connections.connection();
    return project_rows::findUidByName(*connection, projectName);
}

ProjectSettings PgProjectStore::projectSettings(const std::string& projectUid) {
    auto connection = m_connections.connection();
    return project_rows::settings(*connection, projectUid,
                                  "(SELECT coalesce(json_agg(entry ORDER BY entry), '[]'::json) "
                                  "FROM project_allowlist WHERE project_uid = p.uid)");
}

void PgProjectStore::saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) {
    m_connections.run([&] {
        auto connection = m_connections.connection();
        project_rows::saveSettings(*connection, projectUid, settings);
    });
}

std::string PgProjectStore::createProject(const std::string& projectName) {
    std::string uid = RandomIds::randomUuid();
    auto connection = m_connections.connection();
    project_rows::create(*connection, uid, projectName);
    return uid;
}

} // namespace jobdeck
