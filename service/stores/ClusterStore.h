#pragma once

#include "core/wire/Cluster.h"

#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// Clusters by project.
class ClusterStore {
public:
    virtual ~ClusterStore() = default;
    // Inside a step the cluster's row is held until the step ends against its deletion (a key share lock
    // where the backend locks rows), not against a claim's planning of its slots (CREATE JOB on it does
    // not wait for a claim).
    virtual std::optional<Cluster> findCluster(const std::string& projectUid, const std::string& name) = 0;
    // The cluster read to be changed or deleted in the same step (ALTER, DROP CLUSTER): held as a writer
    // holds it, so two changes take turns (ProjectStore::projectSettingsForUpdate).
    virtual std::optional<Cluster> findClusterForUpdate(const std::string& projectUid,
                                                        const std::string& name) = 0;
    // The cluster as last committed, holding nothing and waiting for nothing even inside a step: for a
    // claim that must not wait for a cluster another replica's claim holds.
    virtual std::optional<Cluster> findClusterAsCommitted(const std::string& projectUid,
                                                          const std::string& name) = 0;
    virtual std::vector<Cluster> listClusters(const std::string& projectUid) = 0; // by name
    virtual void insertCluster(const std::string& projectUid, const Cluster& cluster) = 0;
    virtual void updateCluster(const std::string& projectUid, const Cluster& cluster) = 0; // by clusterId
    virtual void deleteCluster(const std::string& projectUid, const std::string& clusterId) = 0;
};

} // namespace jobdeck
