#include "core/policy/ClusterRules.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

namespace jobdeck {

std::optional<std::string> checkClusterType(std::string_view type) {
    if (equalsIgnoringAsciiCase(type, "spark"))
        return std::nullopt;
    return concat({"Cluster TYPE ", quoted(type), " is not supported; use TYPE = 'Spark'"});
}

std::optional<std::string> checkClusterOcu(std::int64_t maxOcu, std::int64_t minOcu) {
    if (maxOcu < 1 || maxOcu > kMaxOcuCeiling)
        return "MAX_OCU must be between 1 and " + std::to_string(kMaxOcuCeiling) + ", got " +
               std::to_string(maxOcu);
    if (minOcu < 0 || minOcu > kMaxOcuCeiling)
        return "MIN_OCU must be between 0 and " + std::to_string(kMaxOcuCeiling) + ", got " +
               std::to_string(minOcu);
    if (minOcu > maxOcu)
        return "MIN_OCU (" + std::to_string(minOcu) + ") must not be greater than MAX_OCU (" +
               std::to_string(maxOcu) + ")";
    return std::nullopt;
}

std::optional<std::string> checkClusterWith(const std::vector<std::pair<std::string, std::string>>& with) {
    for (const auto& [key, value] : with) {
        if (key.starts_with("spark.") && key.size() > 6)
            continue;
        if (HudiConfigPolicy::isHudiKey(key)) {
            if (HudiConfigPolicy::isReserved(key))
                return concat({"Cluster configuration ", quoted(key),
                               " is reserved for the platform and cannot be set (Onehouse manages it)"});
            continue;
        }
        return concat({"Cluster configuration ", quoted(key),
                       " is neither a Spark configuration (spark.*) nor a Hudi configuration (hoodie.*)"});
    }
    return std::nullopt;
}

std::string clusterInUseMessage(std::string_view cluster, const std::vector<std::string>& jobs) {
    std::string names;
    for (const auto& name : jobs)
        names += (names.empty() ? "" : ", ") + name;
    return "Cluster " + std::string(cluster) + " is used by " + (jobs.size() == 1 ? "Job " : "Jobs ") +
           names + "; delete them or move them to another cluster first";
}

} // namespace jobdeck
