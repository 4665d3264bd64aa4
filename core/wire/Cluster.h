#pragma once

#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// A cluster (apiResponse.describeClusterApiResponse.cluster, showClustersApiResponse.clusters[]).
// JSON field names are the member names. Required in from_json: clusterId, name, maxOcu, minOcu,
// createdAt, updatedAt. Optional: type ("Spark"), sparkConfigs, hudiConfigs, with (empty), driversInUse (0;
// a Jobdeck extension: the drivers running or being started on the cluster now, against maxOcu).
// `with` keeps every WITH pair in the order given, as [{"key": "...", "value": "..."}]; sparkConfigs and
// hudiConfigs are the spark.* and hoodie.* ones among them (std::map: written sorted by key).
struct Cluster final {
    std::string clusterId;
    std::string name;
    std::string type = "Spark";
    int maxOcu = 1; // concurrent drivers; runs beyond it wait in QUEUED
    int minOcu = 1;
    std::map<std::string, std::string> sparkConfigs;
    std::map<std::string, std::string> hudiConfigs;
    std::vector<std::pair<std::string, std::string>> with;
    TimePoint createdAt{};
    TimePoint updatedAt{};
    int driversInUse = 0; // in the service's answers only: drivers running or being started now
    bool operator==(const Cluster&) const = default;
};

void to_json(nlohmann::json& j, const Cluster& c);
void from_json(const nlohmann::json& j, Cluster& c);

} // namespace jobdeck
