#include "core/wire/Cluster.h"

#include "core/wire/WireFields.h"

namespace jobdeck {

void to_json(nlohmann::json& j, const Cluster& c) {
    j = nlohmann::json{
        {"clusterId", c.clusterId},
        {"name", c.name},
        {"type", c.type},
        {"maxOcu", c.maxOcu},
        {"minOcu", c.minOcu},
        {"sparkConfigs", c.sparkConfigs},
        {"hudiConfigs", c.hudiConfigs},
        {"with", wire::pairsToJson(c.with, "key")},
        {"createdAt", formatTimestamp(c.createdAt)},
        {"updatedAt", formatTimestamp(c.updatedAt)},
        {"driversInUse", c.driversInUse},
    };
}

void from_json(const nlohmann::json& j, Cluster& c) {
    constexpr std::string_view object = "cluster";
    using StringMap = std::map<std::string, std::string>;
    wire::requireObject(j, object);
    Cluster r;
    r.clusterId = wire::required<std::string>(j, object, "clusterId");
    r.name = wire::required<std::string>(j, object, "name");
    r.type = wire::optional<std::string>(j, object, "type").value_or("Spark");
    r.maxOcu = wire::required<int>(j, object, "maxOcu");
    r.minOcu = wire::required<int>(j, object, "minOcu");
    r.sparkConfigs = wire::optional<StringMap>(j, object, "sparkConfigs").value_or(StringMap{});
    r.hudiConfigs = wire::optional<StringMap>(j, object, "hudiConfigs").value_or(StringMap{});
    r.with = wire::optionalPairs(j, object, "with", "key");
    r.createdAt = wire::required<TimePoint>(j, object, "createdAt");
    r.updatedAt = wire::required<TimePoint>(j, object, "updatedAt");
    r.driversInUse = wire::optional<int>(j, object, "driversInUse").value_or(0);
    c = std::move(r);
}

} // namespace jobdeck
