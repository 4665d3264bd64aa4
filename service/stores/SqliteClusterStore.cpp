#include "service/stores/SqliteClusterStore.h"

#include "service/stores/ClusterRows.h"

namespace jobdeck {

std::optional<Cluster> SqliteClusterStore::findCluster(const std::string& projectUid,
                                                       const std::string& name) {
    auto r = m_connections.reader();
    return cluster_rows::find(*r, projectUid, name);
}

std::vector<Cluster> SqliteClusterStore::listClusters(const std::string& projectUid) {
    auto r = m_connections.reader();
    return cluster_rows::list(*r, projectUid);
}

void SqliteClusterStore::insertCluster(const std::string& projectUid, const Cluster& cluster) {
    cluster_rows::insert(m_db, projectUid, cluster);
}

void SqliteClusterStore::updateCluster(const std::string& projectUid, const Cluster& cluster) {
    cluster_rows::update(m_db, projectUid, cluster);
}

void SqliteClusterStore::deleteCluster(const std::string& projectUid, const std::string& clusterId) {
    cluster_rows::remove(m_db, projectUid, clusterId);
}

} // namespace jobdeck
