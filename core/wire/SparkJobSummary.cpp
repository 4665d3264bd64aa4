#include "core/wire/SparkJobSummary.h"

#include "core/wire/WireFields.h"

#include <array>

namespace jobdeck {

namespace {

constexpr std::string_view kObject = "sparkJobSummary";
// The fields' names in their order on the wire (used in messages).
constexpr std::array<const char*, 6> kFields = {"name",       "type",     "cluster", "maxConcurrentRuns",
                                                "activeRuns", "updatedAt"};

template <class T> T field(const nlohmann::json& j, std::size_t i) {
    if (i >= j.size() || j[i].is_null())
        wire::throwMissing(kObject, kFields[i]);
    return wire::convert<T>(j[i], kObject, kFields[i]);
}

} // namespace

SparkJobSummary summaryOf(const SparkJob& job) {
    return {job.name, job.type, job.cluster, job.maxConcurrentRuns, job.activeRuns, job.updatedAt};
}

void to_json(nlohmann::json& j, const SparkJobSummary& summary) {
    j = nlohmann::json::array({summary.name, jobTypeName(summary.type), summary.cluster,
                               summary.maxConcurrentRuns, summary.activeRuns,
                               formatTimestamp(summary.updatedAt)});
}

void from_json(const nlohmann::json& j, SparkJobSummary& summary) {
    if (!j.is_array())
        throw nlohmann::json::type_error::create(
            302, std::string(kObject) + " must be a JSON array, got " + j.type_name(), nullptr);
    SparkJobSummary r;
    r.name = field<std::string>(j, 0);
    r.type = jobTypeFromWire(field<std::string>(j, 1), kObject, kFields[1]);
    r.cluster = field<std::string>(j, 2);
    r.maxConcurrentRuns = field<int>(j, 3);
    r.activeRuns = field<int>(j, 4);
    r.updatedAt = field<TimePoint>(j, 5);
    summary = std::move(r);
}

} // namespace jobdeck
