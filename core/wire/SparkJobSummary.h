#pragma once

#include "core/wire/SparkJob.h"
#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <string>

namespace jobdeck {

// What the console's Jobs list shows of a job, as SHOW JOBS SUMMARY answers it
// (apiResponse.showJobsSummaryApiResponse.jobs). On the wire a summary is an array of its fields in
// this order, [name, type, cluster, maxConcurrentRuns, activeRuns, updatedAt], so that 100,000 of them
// stay a few MB (docs/wire-format.md). All fields are required; extra items are ignored.
struct SparkJobSummary final {
    std::string name;
    JobType type = JobType::Jar;
    std::string cluster;
    int maxConcurrentRuns = 1;
    int activeRuns = 0;
    TimePoint updatedAt{};
    bool operator==(const SparkJobSummary&) const = default;
};

SparkJobSummary summaryOf(const SparkJob& job);

void to_json(nlohmann::json& j, const SparkJobSummary& summary);
void from_json(const nlohmann::json& j, SparkJobSummary& summary);

} // namespace jobdeck
