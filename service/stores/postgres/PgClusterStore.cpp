#include "service/stores/postgres/PgClusterStore.h"

#include "service/stores/ClusterRows.h"

namespace jobdeck {

std::optional<Cluster> PgClusterStore::findCluster(const std::string& projectUid, const std::string& name) {
    auto connection = m_connections.connection();
    return cluster_rows::find(*connection, projectUid, name);
}

std::vector<Cluster> PgClusterStore::listClusters(const std::string& projectUid) {
    auto connection = m_connections.connection();
    return cluster_rows::list(*connection, projectUid);
}

void PgClusterStore::insertCluster(const std::string& projectUid, const Cluster& cluster) {
    auto connection = m_connections.connection();
    cluster_rows::insert(*connection, projectUid, cluster);
}

void PgClusterStore::updateCluster(const std::string& projectUid, const Cluster& cluster) {
    auto connection = m_connections.connection();
    cluster_rows::update(*connection, projectUid, cluster);
}

void PgClusterStore::deleteCluster(const std::string& projectUid, const std::string& clusterId) {
    auto connection = m_connections.connection();
    cluster_rows::remove(*connection, projectUid, clusterId);
}

} // namespace jobdeck
