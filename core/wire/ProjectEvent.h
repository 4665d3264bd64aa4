#pragma once

#include "core/wire/SparkJobRun.h"
#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// The event types GET /v1/events reports. `type` stays a string on the wire and in the struct so a
// client ignores types it does not know instead of failing on them.
namespace event_type {
inline constexpr std::string_view kRunStatusChanged = "RUN_STATUS_CHANGED"; // jobRunId and status set
inline constexpr std::string_view kJobCreated = "JOB_CREATED";
inline constexpr std::string_view kJobAltered = "JOB_ALTERED";
inline constexpr std::string_view kJobDeleted = "JOB_DELETED";
// Not about a job (jobName is empty): the project's settings or one of its clusters changed.
inline constexpr std::string_view kProjectAltered = "PROJECT_ALTERED";
inline constexpr std::string_view kClustersChanged = "CLUSTERS_CHANGED";
} // namespace event_type

// One event: {"seq", "type", "jobName", "jobRunId", "status", "at"}; every field is always written,
// jobRunId and status as null when the event is not about a run.
// Required in from_json: seq, type, at. Optional: jobName (""), jobRunId, status (a
// SPARK_JOB_RUN_STATUS_* name).
struct ProjectEvent final {
    std::int64_t seq = 0; // increasing per project
    std::string type;
    std::string jobName;
    std::optional<std::string> jobRunId;
    std::optional<JobRunStatus> status; // the run's new status
    TimePoint at{};
    bool operator==(const ProjectEvent&) const = default;
};

void to_json(nlohmann::json& j, const ProjectEvent& e);
void from_json(const nlohmann::json& j, ProjectEvent& e);

// The answer of GET /v1/events?after=<seq>&wait=<s>: {"events": [...], "next": <seq>, "reload": false}.
// `next` is the `after` to ask with next time. `reload: true` means the client's `after` is older than
// the kept history (events were dropped): it must reload its state with SHOW/DESCRIBE, then continue
// from `next`. Required in from_json: next. Optional: events (empty), reload (false).
struct EventsPage final {
    std::vector<ProjectEvent> events;
    std::int64_t next = 0;
    bool reload = false;
    bool operator==(const EventsPage&) const = default;
};

void to_json(nlohmann::json& j, const EventsPage& page);
void from_json(const nlohmann::json& j, EventsPage& page);

} // namespace jobdeck
