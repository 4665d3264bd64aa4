#pragma once

#include "core/wire/Timestamp.h"
#include "service/stores/KeyRows.h"
#include "service/stores/ProjectStore.h"
#include "service/stores/SqlConnection.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck::key_rows {

// The SQL of KeyRows, the same on both backends (`?` parameters), over either backend's connection.

template <SqlConnection Connection> std::int64_t generation(Connection& connection) {
    auto q = connection.query("SELECT generation FROM key_changes WHERE id = 1");
    return q.step() ? q.int64(0) : 0;
}

template <SqlConnection Connection>
std::optional<KeyRows::Row> find(Connection& connection, std::string_view projectUid,
                                 std::string_view apiKey) {
    auto q =
        connection.query("SELECT k.role, k.salt, k.secret_hash, k.revoked, p.name, k.key FROM api_keys k "
                         "JOIN projects p ON p.uid = k.project_uid WHERE k.key = ? AND k.project_uid = ?",
                         apiKey, projectUid);
    if (!q.step())
        return std::nullopt;
    return KeyRows::Row{q.text(0), q.blob(1), q.blob(2), q.int64(3) != 0, q.text(4), q.text(5)};
}

// Inside the caller's step: finds or creates the project, then stores the key.
template <SqlConnection Connection>
std::string insert(Connection& connection, ProjectStore& projects, const KeyRows::NewKey& key) {
    std::string projectUid;
    if (auto uid = projects.findProjectUidByName(key.projectName))
        projectUid = *uid;
    else
        projectUid = projects.createProject(key.projectName);
    connection
        .prepare("INSERT INTO api_keys(project_uid, key, role, salt, secret_hash, created_at) "
                 "VALUES (?, ?, ?, ?, ?, ?)")
        .bind(1, projectUid)
        .bind(2, key.apiKey)
        .bind(3, key.role)
        .bindBlob(4, key.salt.data(), key.salt.size())
        .bindBlob(5, key.secretHash.data(), key.secretHash.size())
        .bind(6, formatTimestamp(timestampNow()))
        .run();
    return projectUid;
}

template <SqlConnection Connection> bool revoke(Connection& connection, const std::string& apiKey) {
    return connection.execute("UPDATE api_keys SET revoked = 1 WHERE key = ?", apiKey) > 0;
}

template <SqlConnection Connection> std::vector<KeyRows::Listed> list(Connection& connection) {
    auto q = connection.query("SELECT p.name, p.uid, k.key, k.role, k.created_at, k.revoked FROM api_keys k "
                              "JOIN projects p ON p.uid = k.project_uid ORDER BY p.name, k.id");
    std::vector<KeyRows::Listed> keys;
    while (q.step())
        keys.push_back({q.text(0), q.text(1), q.text(2), q.text(3), q.text(4), q.int64(5) != 0});
    return keys;
}

} // namespace jobdeck::key_rows
