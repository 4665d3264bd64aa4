#pragma once

#include "core/policy/ProjectSettings.h"
#include "core/wire/Project.h"
#include "core/wire/Timestamp.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

// The SQL of the projects and project_allowlist tables, the same on both backends (`?` parameters), over
// either backend's connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::project_rows {

template <SqlConnection Db> std::optional<std::string> findName(Db& db, const std::string& projectUid) {
    auto q = db.query("SELECT name FROM projects WHERE uid = ?", projectUid);
    return q.step() ? std::optional<std::string>(q.text(0)) : std::nullopt;
}

template <SqlConnection Db> std::optional<std::string> findUidByName(Db& db, const std::string& projectName) {
    auto q = db.query("SELECT uid FROM projects WHERE name = ?", projectName);
    return q.step() ? std::optional<std::string>(q.text(0)) : std::nullopt;
}

// `allowlistJson` is the backend's SQL for the project `p`'s allow-list as a JSON array sorted by
// entry: one statement, so the settings and the allow-list come from the same snapshot. `lock`: the
// backend's locking clause for the project's row (" FOR KEY SHARE OF p"), or empty.
template <SqlConnection Db>
ProjectSettings settings(Db& db, const std::string& projectUid, const std::string& allowlistJson,
                         const std::string& lock = {}) {
    auto q = db.query("SELECT hudi_configs_enabled, concurrent_runs_enabled, max_concurrent_runs_limit, " +
                          allowlistJson + " FROM projects p WHERE uid = ?" + lock,
                      projectUid);
    if (!q.step())
        return ProjectSettings{};
    ProjectSettings settings;
    settings.hudiConfigsEnabled = q.int64(0) != 0;
    settings.concurrentRunsEnabled = q.int64(1) != 0;
    settings.maxConcurrentRunsLimit = q.integer(2);
    const nlohmann::json allowlist = nlohmann::json::parse(q.text(3));
    settings.hudiConfigAllowlist = allowlist.get<std::vector<std::string>>();
    return settings;
}

// Holds the project's row until the caller's step ends. `lock`: the backend's clause (" FOR UPDATE"), or
// empty (nothing to do).
template <SqlConnection Db> void lockRow(Db& db, const std::string& projectUid, const std::string& lock) {
    if (!lock.empty())
        db.query("SELECT 1 FROM projects WHERE uid = ?" + lock, projectUid).step();
}

// Inside the caller's step. `lock`: the backend's clause that holds the project's row against those who
// decide on its settings (" FOR UPDATE"), or empty.
template <SqlConnection Db>
void saveSettings(Db& db, const std::string& projectUid, const ProjectSettings& settings,
                  const std::string& lock = {}) {
    lockRow(db, projectUid, lock);
    db.execute("UPDATE projects SET hudi_configs_enabled = ?, concurrent_runs_enabled = ?, "
               "max_concurrent_runs_limit = ? WHERE uid = ?",
               settings.hudiConfigsEnabled, settings.concurrentRunsEnabled, settings.maxConcurrentRunsLimit,
               projectUid);
    // Keep added_at of entries that stay.
    std::vector<std::string> existing;
    {
        auto q = db.query("SELECT entry FROM project_allowlist WHERE project_uid = ?", projectUid);
        while (q.step())
            existing.push_back(q.text(0));
    }
    const auto& wanted = settings.hudiConfigAllowlist;
    for (const auto& entry : existing)
        if (std::find(wanted.begin(), wanted.end(), entry) == wanted.end())
            db.execute("DELETE FROM project_allowlist WHERE project_uid = ? AND entry = ?", projectUid,
                       entry);
    const std::string at = formatTimestamp(timestampNow());
    for (const auto& entry : wanted)
        db.execute("INSERT INTO project_allowlist(project_uid, entry, added_at) VALUES (?, ?, ?) "
                   "ON CONFLICT DO NOTHING",
                   projectUid, entry, at);
}

template <SqlConnection Db>
void create(Db& db, const std::string& projectUid, const std::string& projectName) {
    db.execute("INSERT INTO projects(uid, name, created_at) VALUES (?, ?, ?)", projectUid, projectName,
               formatTimestamp(timestampNow()));
}

} // namespace jobdeck::project_rows
