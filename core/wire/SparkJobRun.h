#pragma once

#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// QUEUED (until the driver starts) -> RUNNING -> COMPLETED | FAILED | CANCELED; QUEUED can also end in
// CANCELED or FAILED.
enum class JobRunStatus { Queued, Running, Completed, Failed, Canceled };

// "SPARK_JOB_RUN_STATUS_QUEUED", "..._RUNNING", "..._COMPLETED", "..._FAILED", "..._CANCELED".
std::string_view jobRunStatusName(JobRunStatus s);
std::optional<JobRunStatus> jobRunStatusFromName(std::string_view name);
// The status without its prefix: "QUEUED", "RUNNING", "COMPLETED", "FAILED", "CANCELED".
std::string_view jobRunStatusWord(JobRunStatus s);
// QUEUED and RUNNING count against a job's MAX_CONCURRENT_RUNS and can be canceled.
bool isActive(JobRunStatus s);

// One run (apiResponse.describeJobRunApiResponse.sparkJobRun, showJobRunsApiResponse.sparkJobRuns[]).
// JSON field names are the member names; every field is always written, absent optionals as null.
// Required in from_json: jobRunId, jobName, status, queuedAt. Optional (absent or null): jobId (""),
// queueReason, idempotencyKey, argumentOverrides, arguments (empty), startedAt, endedAt, exitCode, message,
// submissionId (a Jobdeck extension: the cluster manager's id of a driver submitted in cluster deploy mode),
// cluster ("": a Jobdeck extension, the cluster the run was admitted to, kept with the run).
// argumentOverrides keeps the order of RUN JOB ... ARGUMENTS = (...) and is written as an array of
// {"name": "--date", "value": "2026-11-30"} objects.
struct SparkJobRun final {
    std::string jobRunId;
    std::string jobName;
    std::string jobId;
    JobRunStatus status = JobRunStatus::Queued;
    std::optional<std::string> queueReason; // only while QUEUED: why it waits
    std::optional<std::string> idempotencyKey;
    std::vector<std::pair<std::string, std::string>> argumentOverrides;
    std::vector<std::string> arguments; // the effective application arguments
    TimePoint queuedAt{};
    std::optional<TimePoint> startedAt;
    std::optional<TimePoint> endedAt;
    std::optional<int> exitCode;
    std::optional<std::string> message; // why it failed or was canceled
    // Cluster deploy mode: the cluster manager's submission id (a standalone master's driver id,
    // <namespace>:<driver pod> on Kubernetes) once spark-submit has reported it; null otherwise.
    std::optional<std::string> submissionId;
    // The cluster the run was admitted to: the job's cluster at RUN JOB, not moved by a later ALTER JOB.
    std::string cluster;

    bool isActive() const { return jobdeck::isActive(status); }
    bool operator==(const SparkJobRun&) const = default;
};

void to_json(nlohmann::json& j, const SparkJobRun& run);
void from_json(const nlohmann::json& j, SparkJobRun& run);

} // namespace jobdeck
