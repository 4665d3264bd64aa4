// StatementExecutor: CREATE / ALTER / DELETE / DESCRIBE CLUSTER and SHOW CLUSTERS.
#include "service/StatementExecutor.h"

#include "core/Cluster.h"
#include "core/HudiConfigPolicy.h"
#include "core/NotFoundMessages.h"
#include "core/SecretMasking.h"
#include "service/Storage.h"

#include <algorithm>
#include <cctype>

namespace jobdeck {

namespace {

// Far beyond any real cluster, and well inside int.
constexpr std::int64_t maxOcuLimit = 10000;

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

// The problem with MAX_OCU / MIN_OCU values, if any.
std::optional<std::string> checkOcu(std::int64_t maxOcu, std::int64_t minOcu) {
    if (maxOcu < 1 || maxOcu > maxOcuLimit)
        return "MAX_OCU must be between 1 and " + std::to_string(maxOcuLimit) + ", got " +
               std::to_string(maxOcu);
    if (minOcu < 0 || minOcu > maxOcuLimit)
        return "MIN_OCU must be between 0 and " + std::to_string(maxOcuLimit) + ", got " +
               std::to_string(minOcu);
    if (minOcu > maxOcu)
        return "MIN_OCU (" + std::to_string(minOcu) + ") must not be greater than MAX_OCU (" +
               std::to_string(maxOcu) + ")";
    return std::nullopt;
}

// WITH pairs become run defaults: spark.* Spark configurations, hoodie.* Hudi configurations (never the
// platform's reserved ones). Anything else would silently do nothing, so it is refused.
std::optional<std::string> checkWith(const std::vector<std::pair<std::string, std::string>>& with) {
    for (const auto& [key, value] : with) {
        if (key.starts_with("spark.") && key.size() > 6)
            continue;
        if (key.starts_with("hoodie.") && key.size() > 7) {
            if (HudiConfigPolicy::isReserved(key))
                return "Cluster configuration '" + key +
                       "' is reserved for the platform and cannot be set (Onehouse manages it)";
            continue;
        }
        return "Cluster configuration '" + key +
               "' is neither a Spark configuration (spark.*) nor a Hudi configuration (hoodie.*)";
    }
    return std::nullopt;
}

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
    if (lower(statement.type) != "spark")
        return ApiStatus::invalid("Cluster TYPE '" + statement.type +
                                  "' is not supported; use TYPE = 'Spark'");
    if (auto problem = checkOcu(statement.maxOcu, statement.minOcu))
        return ApiStatus::invalid(*problem);
    if (auto problem = checkWith(statement.with))
        return ApiStatus::failed(*problem);
    const std::string& project = context.principal.projectUid;
    if (m_storage.findCluster(project, statement.name))
        return ApiStatus::failed("Cluster " + statement.name + " already exists");

    Cluster cluster;
    cluster.clusterId = Storage::randomUuid();
    cluster.name = statement.name;
    cluster.type = "Spark";
    cluster.maxOcu = static_cast<int>(statement.maxOcu);
    cluster.minOcu = static_cast<int>(statement.minOcu);
    cluster.with = statement.with;
    cluster.createdAt = cluster.updatedAt = timestampNow();
    m_storage.insertCluster(project, cluster);
    return ApiStatus::success({{"createClusterApiResponse", clusterRef(cluster)}});
}

ApiStatus StatementExecutor::alterCluster(const RequestContext& context,
                                          const AlterClusterStatement& statement) {
    if (!statement.maxOcu && !statement.minOcu && statement.with.empty())
        return ApiStatus::invalid("ALTER CLUSTER needs SET MAX_OCU, SET MIN_OCU or WITH");
    if (auto problem = checkWith(statement.with))
        return ApiStatus::failed(*problem);
    const std::string& project = context.principal.projectUid;
    auto cluster = m_storage.findCluster(project, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    const std::int64_t maxOcu = statement.maxOcu.value_or(cluster->maxOcu);
    const std::int64_t minOcu = statement.minOcu.value_or(cluster->minOcu);
    if (auto problem = checkOcu(maxOcu, minOcu))
        return ApiStatus::failed(*problem);
    cluster->maxOcu = static_cast<int>(maxOcu);
    cluster->minOcu = static_cast<int>(minOcu);
    // WITH on ALTER sets the given keys: an existing key takes the new value in place, a new one is added.
    for (const auto& pair : statement.with) {
        const auto it = std::find_if(cluster->with.begin(), cluster->with.end(),
                                     [&](const auto& existing) { return existing.first == pair.first; });
        if (it != cluster->with.end())
            it->second = pair.second;
        else
            cluster->with.push_back(pair);
    }
    cluster->updatedAt = timestampNow();
    m_storage.updateCluster(project, *cluster);
    return ApiStatus::success({{"alterClusterApiResponse", clusterRef(*cluster)}});
}

ApiStatus StatementExecutor::deleteCluster(const RequestContext& context,
                                           const DeleteClusterStatement& statement) {
    const std::string& project = context.principal.projectUid;
    const auto cluster = m_storage.findCluster(project, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    if (const auto jobs = m_storage.jobNamesOnCluster(project, statement.name); !jobs.empty()) {
        std::string names;
        for (const auto& name : jobs)
            names += (names.empty() ? "" : ", ") + name;
        return ApiStatus::failed("Cluster " + statement.name + " is used by " +
                                 (jobs.size() == 1 ? "Job " : "Jobs ") + names +
                                 "; delete them or move them to another cluster first");
    }
    m_storage.deleteCluster(project, cluster->clusterId);
    return ApiStatus::success({{"deleteClusterApiResponse", clusterRef(*cluster)}});
}

ApiStatus StatementExecutor::describeCluster(const RequestContext& context,
                                             const DescribeClusterStatement& statement) {
    auto cluster = m_storage.findCluster(context.principal.projectUid, statement.name);
    if (!cluster)
        return ApiStatus::failed(clusterNotFoundMessage(statement.name));
    return ApiStatus::success({{"describeClusterApiResponse", {{"cluster", clusterJson(*cluster)}}}});
}

ApiStatus StatementExecutor::showClusters(const RequestContext& context) {
    nlohmann::json clusters = nlohmann::json::array();
    for (auto& cluster : m_storage.listClusters(context.principal.projectUid))
        clusters.push_back(clusterJson(std::move(cluster)));
    return ApiStatus::success({{"showClustersApiResponse", {{"clusters", clusters}}}});
}

} // namespace jobdeck
