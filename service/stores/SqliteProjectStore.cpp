#include "service/stores/SqliteProjectStore.h"

#include "service/RandomIds.h"
#include <algorithm>
#include <nlohmann/json.hpp>

namespace jobdeck {

std::optional<Project> SqliteProjectStore::findProject(const std::string& projectUid) {
    std::string name;
    {
        auto r = m_connections.reader();
        auto q = r->query("SELECT name FROM projects WHERE uid = ?", projectUid);
        if (!q.step())
            return std::nullopt;
        name = q.text(0);
    }
    return Project{projectUid, name, projectSettings(projectUid), std::nullopt, {}};
}

std::optional<std::string> SqliteProjectStore::findProjectUidByName(const std::string& projectName) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT uid FROM projects WHERE name = ?", projectName);
    if (!q.step())
        return std::nullopt;
    return q.text(0);
}

ProjectSettings SqliteProjectStore::projectSettings(const std::string& projectUid) {
    // One statement, so the settings and the allow-list come from the same snapshot.
    auto r = m_connections.reader();
    auto q = r->query("SELECT hudi_configs_enabled, concurrent_runs_enabled, max_concurrent_runs_limit, "
                      "(SELECT json_group_array(entry) FROM (SELECT entry FROM project_allowlist "
                      "WHERE project_uid = p.uid ORDER BY entry)) FROM projects p WHERE uid = ?",
                      projectUid);
    if (!q.step())
        return ProjectSettings{};
    ProjectSettings settings;
    settings.hudiConfigsEnabled = q.int64(0) != 0;
    settings.concurrentRunsEnabled = q.int64(1) != 0;
    settings.maxConcurrentRunsLimit = q.integer(2);
    settings.hudiConfigAllowlist = nlohmann::json::parse(q.text(3)).get<std::vector<std::string>>();
    return settings;
}

void SqliteProjectStore::saveProjectSettings(const std::string& projectUid, const ProjectSettings& settings) {
    m_db.transaction([&] {
        m_db.execute("UPDATE projects SET hudi_configs_enabled = ?, concurrent_runs_enabled = ?, "
                     "max_concurrent_runs_limit = ? WHERE uid = ?",
                     settings.hudiConfigsEnabled, settings.concurrentRunsEnabled,
                     settings.maxConcurrentRunsLimit, projectUid);
        // Keep added_at of entries that stay.
        std::vector<std::string> existing;
        {
            auto q = m_db.query("SELECT entry FROM project_allowlist WHERE project_uid = ?", projectUid);
            while (q.step())
                existing.push_back(q.text(0));
        }
        for (const auto& entry : existing)
            if (std::find(settings.hudiConfigAllowlist.begin(), settings.hudiConfigAllowlist.end(), entry) ==
                settings.hudiConfigAllowlist.end())
                m_db.execute("DELETE FROM project_allowlist WHERE project_uid = ? AND entry = ?", projectUid,
                             entry);
        const std::string at = formatTimestamp(timestampNow());
        for (const auto& entry : settings.hudiConfigAllowlist)
            m_db.execute(
                "INSERT OR IGNORE INTO project_allowlist(project_uid, entry, added_at) VALUES (?, ?, ?)",
                projectUid, entry, at);
    });
}

std::string SqliteProjectStore::createProject(const std::string& projectName) {
    std::string uid = RandomIds::randomUuid();
    m_db.execute("INSERT INTO projects(uid, name, created_at) VALUES (?, ?, ?)", uid, projectName,
                 formatTimestamp(timestampNow()));
    return uid;
}

} // namespace jobdeck
