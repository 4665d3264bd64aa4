#include "service/stores/SqliteClusterStore.h"

#include <nlohmann/json.hpp>

namespace jobdeck {

namespace {

constexpr const char* clusterColumns =
    "cluster_id, name, type, max_ocu, min_ocu, with_pairs, created_at, updated_at";

Cluster readCluster(const SqliteDatabase::Query& q) {
    Cluster c;
    c.clusterId = q.text(0);
    c.name = q.text(1);
    c.type = q.text(2);
    c.maxOcu = q.integer(3);
    c.minOcu = q.integer(4);
    c.with = nlohmann::json::parse(q.text(5)).get<std::vector<std::pair<std::string, std::string>>>();
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

} // namespace

std::optional<Cluster> SqliteClusterStore::findCluster(const std::string& projectUid,
                                                       const std::string& name) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + clusterColumns +
                          " FROM clusters WHERE project_uid = ? AND name = ?",
                      projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readCluster(q);
}

std::vector<Cluster> SqliteClusterStore::listClusters(const std::string& projectUid) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + clusterColumns +
                          " FROM clusters WHERE project_uid = ? ORDER BY name",
                      projectUid);
    std::vector<Cluster> clusters;
    while (q.step())
        clusters.push_back(readCluster(q));
    return clusters;
}

void SqliteClusterStore::insertCluster(const std::string& projectUid, const Cluster& cluster) {
    m_db.execute("INSERT INTO clusters(cluster_id, project_uid, name, type, max_ocu, min_ocu, with_pairs, "
                 "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 cluster.clusterId, projectUid, cluster.name, cluster.type, cluster.maxOcu, cluster.minOcu,
                 nlohmann::json(cluster.with).dump(), formatTimestamp(cluster.createdAt),
                 formatTimestamp(cluster.updatedAt));
}

void SqliteClusterStore::updateCluster(const std::string& projectUid, const Cluster& cluster) {
    m_db.execute("UPDATE clusters SET type = ?, max_ocu = ?, min_ocu = ?, with_pairs = ?, updated_at = ? "
                 "WHERE cluster_id = ? AND project_uid = ?",
                 cluster.type, cluster.maxOcu, cluster.minOcu, nlohmann::json(cluster.with).dump(),
                 formatTimestamp(cluster.updatedAt), cluster.clusterId, projectUid);
}

void SqliteClusterStore::deleteCluster(const std::string& projectUid, const std::string& clusterId) {
    m_db.execute("DELETE FROM clusters WHERE cluster_id = ? AND project_uid = ?", clusterId, projectUid);
}

} // namespace jobdeck
