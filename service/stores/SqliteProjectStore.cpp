#include "service/stores/SqliteProjectStore.h"

#include "service/RandomIds.h"
#include "service/stores/ProjectRows.h"

namespace jobdeck {

std::optional<Project> SqliteProjectStore::findProject(const std::string& projectUid) {
    std::optional<std::string> name;
    {
        auto r = m_connections.reader();
        name = project_rows::findName(*r, projectUid);
    }
    if (!name)
        return std::nullopt;
    return Project{projectUid, *name, projectSettings(projectUid), std::nullopt, {}};
}

std::optional<std::string> SqliteProjectStore::findProjectUidByName(const std::string& projectName) {
    auto r = m_connections.reader();
    return project_rows::findUidByName(*r, projectName);
}

ProjectSettings SqliteProjectStore::projectSettings(const std::string& projectUid) {
    auto r = m_connections.reader();
    return project_rows::settings(*r, projectUid,
                                  "(SELECT json_group_array(entry) FROM (SELECT entry FROM project_allowlist "
                                  "WHERE project_uid = p.uid ORDER BY entry))");
}

void SqliteProjectStore::saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) {
    m_db.transaction([&] { project_rows::saveSettings(m_db, projectUid, settings); });
}

std::string SqliteProjectStore::createProject(const std::string& projectName) {
    std::string uid = RandomIds::randomUuid();
    project_rows::create(m_db, uid, projectName);
    return uid;
}

} // namespace jobdeck
