#pragma once

#include "core/wire/Cluster.h"
#include "core/wire/Timestamp.h"
#include "service/stores/ProjectFilter.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

// The SQL of the clusters table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::cluster_rows {

inline constexpr const char* selectColumns =
    "SELECT cluster_id, name, type, max_ocu, min_ocu, with_pairs, created_at, updated_at FROM clusters ";

template <SqlRow Row> Cluster readCluster(const Row& q) {
    Cluster c;
    c.clusterId = q.text(0);
    c.name = q.text(1);
    c.type = q.text(2);
    c.maxOcu = q.integer(3);
    c.minOcu = q.integer(4);
    const nlohmann::json with = nlohmann::json::parse(q.text(5));
    c.with = with.get<std::vector<std::pair<std::string, std::string>>>();
    for (const auto& [key, value] : c.with) {
        if (key.starts_with("spark."))
            c.sparkConfigs[key] = value;
        else if (key.starts_with("hoodie."))
            c.hudiConfigs[key] = value;
    }
    c.createdAt = q.timestamp(6);
    c.updatedAt = q.timestamp(7);
    return c;
}

// `lock`: the backend's locking clause for the cluster's row (" FOR SHARE"), or empty.
template <SqlConnection Db>
std::optional<Cluster> find(Db& db, const std::string& projectUid, const std::string& name,
                            const std::string& lock = {}) {
    auto q =
        db.query(std::string(selectColumns) + "WHERE project_uid = ? AND name = ?" + lock, projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readCluster(q);
}

template <SqlConnection Db> std::vector<Cluster> list(Db& db, const std::string& projectUid) {
    auto q = db.query(std::string(selectColumns) + "WHERE project_uid = ? ORDER BY name", projectUid);
    std::vector<Cluster> clusters;
    while (q.step())
        clusters.push_back(readCluster(q));
    return clusters;
}

template <SqlConnection Db> void insert(Db& db, const std::string& projectUid, const Cluster& cluster) {
    db.execute("INSERT INTO clusters(cluster_id, project_uid, name, type, max_ocu, min_ocu, with_pairs, "
               "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               cluster.clusterId, projectUid, cluster.name, cluster.type, cluster.maxOcu, cluster.minOcu,
               nlohmann::json(cluster.with).dump(), formatTimestamp(cluster.createdAt),
               formatTimestamp(cluster.updatedAt));
}

template <SqlConnection Db> void update(Db& db, const std::string& projectUid, const Cluster& cluster) {
    db.execute(std::string("UPDATE clusters SET type = ?, max_ocu = ?, min_ocu = ?, with_pairs = ?, "
                           "updated_at = ? WHERE cluster_id = ? AND ") +
                   kOfProject,
               cluster.type, cluster.maxOcu, cluster.minOcu, nlohmann::json(cluster.with).dump(),
               formatTimestamp(cluster.updatedAt), cluster.clusterId, projectUid);
}

template <SqlConnection Db> void remove(Db& db, const std::string& projectUid, const std::string& clusterId) {
    db.execute(std::string("DELETE FROM clusters WHERE cluster_id = ? AND ") + kOfProject, clusterId,
               projectUid);
}

} // namespace jobdeck::cluster_rows
