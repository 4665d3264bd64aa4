#pragma once

#include "core/hudi/HudiConfigStatus.h"
#include "core/statements/JobType.h"
#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// JobType (core/statements/Statement.h) on the wire: "JAR" | "PYTHON", exactly (the statement parser deals
// with the user's spelling).
std::string_view jobTypeName(JobType t);
std::optional<JobType> jobTypeFromName(std::string_view name);
// The same for a wire field's value; an unknown name throws as the wire readers do (core/wire/Timestamp.h).
JobType jobTypeFromWire(const std::string& name, std::string_view object, std::string_view field);

// A Job as DESCRIBE JOB / SHOW JOBS answer it (apiResponse.describeJobApiResponse.sparkJob).
// JSON field names are the member names. Required in from_json: jobId, name, type, cluster, parameters,
// createdAt, updatedAt. Optional (default when absent or null): applicationPath (""), arguments,
// sparkConfigs, hudiConfigs, hudiConfigsStatus, hudiConfigsStatusReasons, misplacedHudiConfigs (empty),
// maxConcurrentRuns (1), activeRuns (0). Unknown fields are ignored. Configurations are std::map, so JSON
// objects come out sorted by key; the order the user wrote them in is kept in `parameters`.
struct SparkJob final {
    std::string jobId;
    std::string name;
    JobType type = JobType::Jar;
    std::string cluster;
    std::vector<std::string> parameters; // as stored (secret values masked on the wire)
    std::string applicationPath;
    std::vector<std::string> arguments; // what follows the application path
    std::map<std::string, std::string> sparkConfigs;
    std::map<std::string, std::string> hudiConfigs;
    int maxConcurrentRuns = 1;
    int activeRuns = 0;
    TimePoint createdAt{};
    TimePoint updatedAt{};
    // For every key of hudiConfigs: whether runs get it. Written as the HudiConfigStatus names.
    std::map<std::string, HudiConfigStatus> hudiConfigsStatus;
    // DESCRIBE JOB only (SHOW JOBS leaves it out): for every key of hudiConfigsStatus, why it has that status
    // and what would make it apply (core's explainHudiConfig). Written only when not empty.
    std::map<std::string, std::string> hudiConfigsStatusReasons;
    // Extension for the console: "key=value" tokens of hoodie.* keys found after the application path,
    // which the application receives as arguments and which are therefore not in hudiConfigs.
    std::vector<std::string> misplacedHudiConfigs;
    bool operator==(const SparkJob&) const = default;
};

void to_json(nlohmann::json& j, const SparkJob& job);
void from_json(const nlohmann::json& j, SparkJob& job);

} // namespace jobdeck
