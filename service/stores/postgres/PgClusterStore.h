#pragma once

#include "service/stores/ClusterStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The clusters table (see PgSchema); every call joins the step under way on this thread, if any.
class PgClusterStore final : public ClusterStore {
public:
    explicit PgClusterStore(PgConnections& connections)
        : m_connections(connections) {}

    std::optional<Cluster> findCluster(const std::string& projectUid, const std::string& name) override;
    std::vector<Cluster> listClusters(const std::string& projectUid) override;
    void insertCluster(const std::string& projectUid, const Cluster& cluster) override;
    void updateCluster(const std::string& projectUid, const Cluster& cluster) override;
    void deleteCluster(const std::string& projectUid, const std::string& clusterId) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
