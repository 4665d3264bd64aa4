#pragma once

#include "service/stores/ClusterStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The clusters table (see SqliteSchema); writes join the writer's transaction on this thread, if any.
class SqliteClusterStore final : public ClusterStore {
public:
    explicit SqliteClusterStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

    std::optional<Cluster> findCluster(const std::string& projectUid, const std::string& name) override;
    std::vector<Cluster> listClusters(const std::string& projectUid) override;
    void insertCluster(const std::string& projectUid, const Cluster& cluster) override;
    void updateCluster(const std::string& projectUid, const Cluster& cluster) override;
    void deleteCluster(const std::string& projectUid, const std::string& clusterId) override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
