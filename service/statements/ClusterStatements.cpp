// StatementExecutor: CREATE / ALTER / DELETE / DESCRIBE CLUSTER and SHOW CLUSTERS.
#include "service/statements/StatementExecutor.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ClusterRules.h"
#include "core/statements/NotFoundMessages.h"
#include "core/statements/StatementRefusals.h"
#include "core/wire/Cluster.h"
#include "core/wire/ProjectEvent.h"
#include "service/stores/RandomIds.h"
#include "service/stores/RunStore.h"
#include "service/stores/Stores.h"

#include <algorithm>
#include <map>

namespace jobdeck {

namespace {

nlohmann::json clusterJson(Cluster cluster) {
    maskCluster(cluster);
    return cluster;
}

nlohmann::json clusterRef(const Cluster& cluster) {
    return {{"clusterId", cluster.clusterId}, {"name", cluster.name}};
}

} // namespace

ApiStatus StatementExecutor::createCluster(const RequestContext& context,
                                           const CreateClusterStatement& statement) {
    if (auto problem = checkClusterType(statement.type))
        return ApiStatus::invalid(*problem);
    if (auto problem = checkClusterOcu(statement.maxOcu, statement.minOcu))
        return ApiStatus::invalid(*problem);
    if (auto problem = checkClusterWith(statement.with))
        return ApiStatus::failed(*problem);
    const std::string& project = context.principal.projectUid;
    if (m_stores.clusters().findCluster(project, statement.name))
        return ApiStatus::failed(clusterExistsMessage(statement.name));
    if (const auto masked = unmaskPairs(statement.with, {}).unresolved) // a **** copied from DESCRIBE
        return ApiStatus::failed(masked->message(UnresolvedMask::Holder::Cluster));

    Cluster cluster;
    cluster.clusterId = RandomIds::randomUuid();
    cluster.name = statement.name;
    cluster.type = "Spark";
    cluster.maxOcu = static_cast<int>(statement.maxOcu);
    cluster.minOcu = static_cast<int>(statement.minOcu);
    cluster.with = statement.with;
    cluster.createdAt = cluster.updatedAt = timestampNow();
    m_stores.clusters().insertCluster(project, cluster);
    recordProjectEvent(context, event_type::kClustersChanged);
    return ApiStatus::success({{"createClusterApiResponse", clusterRef(cluster)}});
}

ApiStatus StatementExecutor::alterCluster(const RequestContext& context,
                                          const AlterClusterStatement& statement) {
    if (!statement.maxOcu && !statement.minOcu && statement.with.empty())
        return ApiStatus::invalid(alterClusterNeedsAClauseMessage());
    if (auto problem = checkClusterWith(statement.with))
        return ApiStatus::failed(*problem);
    const std::string& project = context.principal.projectUid;
    auto cluster = m_stores.clusters().findClusterForUpdate(project, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    const std::int64_t maxOcu = statement.maxOcu.value_or(cluster->maxOcu);
    const std::int64_t minOcu = statement.minOcu.value_or(cluster->minOcu);
    if (auto problem = checkClusterOcu(maxOcu, minOcu))
        return ApiStatus::failed(*problem);
    // A **** sent back (DESCRIBE shows secrets so) keeps the stored secret.
    auto with = unmaskPairs(statement.with, cluster->with);
    if (with.unresolved)
        return ApiStatus::failed(with.unresolved->message(UnresolvedMask::Holder::Cluster));
    cluster->maxOcu = static_cast<int>(maxOcu);
    cluster->minOcu = static_cast<int>(minOcu);
    // WITH on ALTER sets the given keys: an existing key takes the new value in place, a new one is added.
    for (const auto& pair : with.pairs) {
        const auto it = std::find_if(cluster->with.begin(), cluster->with.end(),
                                     [&](const auto& existing) { return existing.first == pair.first; });
        if (it != cluster->with.end())
            it->second = pair.second;
        else
            cluster->with.push_back(pair);
    }
    cluster->updatedAt = timestampNow();
    m_stores.clusters().updateCluster(project, *cluster);
    recordProjectEvent(context, event_type::kClustersChanged);
    return ApiStatus::success({{"alterClusterApiResponse", clusterRef(*cluster)}});
}

ApiStatus StatementExecutor::deleteCluster(const RequestContext& context,
                                           const DeleteClusterStatement& statement) {
    const std::string& project = context.principal.projectUid;
    const auto cluster = m_stores.clusters().findClusterForUpdate(project, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    if (const auto jobs = m_stores.jobs().jobNamesOnCluster(project, statement.name); !jobs.empty())
        return ApiStatus::failed(clusterInUseMessage(statement.name, jobs));
    m_stores.clusters().deleteCluster(project, cluster->clusterId);
    recordProjectEvent(context, event_type::kClustersChanged);
    return ApiStatus::success({{"deleteClusterApiResponse", clusterRef(*cluster)}});
}

ApiStatus StatementExecutor::describeCluster(const RequestContext& context,
                                             const DescribeClusterStatement& statement) {
    auto cluster = m_stores.clusters().findCluster(context.principal.projectUid, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    cluster->driversInUse = m_stores.runs().driversInUse(context.principal.projectUid)[cluster->name];
    return ApiStatus::success({{"describeClusterApiResponse", {{"cluster", clusterJson(*cluster)}}}});
}

ApiStatus StatementExecutor::showClusters(const RequestContext& context) {
    nlohmann::json clusters = nlohmann::json::array();
    auto inUse = m_stores.runs().driversInUse(context.principal.projectUid);
    for (auto& cluster : m_stores.clusters().listClusters(context.principal.projectUid)) {
        cluster.driversInUse = inUse[cluster.name];
        clusters.push_back(clusterJson(std::move(cluster)));
    }
    return ApiStatus::success({{"showClustersApiResponse", {{"clusters", clusters}}}});
}

} // namespace jobdeck
