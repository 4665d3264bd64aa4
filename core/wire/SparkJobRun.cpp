#include "core/wire/SparkJobRun.h"

#include "core/wire/WireFields.h"

namespace jobdeck {

std::string_view jobRunStatusName(JobRunStatus s) {
    switch (s) {
    case JobRunStatus::Queued:
        return "SPARK_JOB_RUN_STATUS_QUEUED";
    case JobRunStatus::Running:
        return "SPARK_JOB_RUN_STATUS_RUNNING";
    case JobRunStatus::Completed:
        return "SPARK_JOB_RUN_STATUS_COMPLETED";
    case JobRunStatus::Failed:
        return "SPARK_JOB_RUN_STATUS_FAILED";
    case JobRunStatus::Canceled:
        return "SPARK_JOB_RUN_STATUS_CANCELED";
    }
    return "SPARK_JOB_RUN_STATUS_FAILED";
}

std::string_view jobRunStatusWord(JobRunStatus s) {
    const std::string_view name = jobRunStatusName(s);
    return name.substr(name.rfind('_') + 1);
}

std::optional<JobRunStatus> jobRunStatusFromName(std::string_view name) {
    for (auto s : {JobRunStatus::Queued, JobRunStatus::Running, JobRunStatus::Completed, JobRunStatus::Failed,
                   JobRunStatus::Canceled})
        if (jobRunStatusName(s) == name)
            return s;
    return std::nullopt;
}

bool isActive(JobRunStatus s) {
    return s == JobRunStatus::Queued || s == JobRunStatus::Running;
}

void to_json(nlohmann::json& j, const SparkJobRun& run) {
    j = nlohmann::json{
        {"jobRunId", run.jobRunId},
        {"jobName", run.jobName},
        {"jobId", run.jobId},
        {"status", jobRunStatusName(run.status)},
        {"argumentOverrides", wire::pairsToJson(run.argumentOverrides, "name")},
        {"arguments", run.arguments},
        {"queuedAt", formatTimestamp(run.queuedAt)},
        {"cluster", run.cluster},
    };
    wire::put(j, "queueReason", run.queueReason);
    wire::put(j, "idempotencyKey", run.idempotencyKey);
    wire::put(j, "startedAt", run.startedAt);
    wire::put(j, "endedAt", run.endedAt);
    wire::put(j, "exitCode", run.exitCode);
    wire::put(j, "message", run.message);
    wire::put(j, "submissionId", run.submissionId);
}

void from_json(const nlohmann::json& j, SparkJobRun& run) {
    constexpr std::string_view object = "sparkJobRun";
    wire::requireObject(j, object);
    SparkJobRun r;
    r.jobRunId = wire::required<std::string>(j, object, "jobRunId");
    r.jobName = wire::required<std::string>(j, object, "jobName");
    r.jobId = wire::optional<std::string>(j, object, "jobId").value_or("");
    const auto status = wire::required<std::string>(j, object, "status");
    const auto s = jobRunStatusFromName(status);
    if (!s)
        wire::throwUnknownValue(object, "status", status);
    r.status = *s;
    r.queueReason = wire::optional<std::string>(j, object, "queueReason");
    r.idempotencyKey = wire::optional<std::string>(j, object, "idempotencyKey");
    r.argumentOverrides = wire::optionalPairs(j, object, "argumentOverrides", "name");
    r.arguments =
        wire::optional<std::vector<std::string>>(j, object, "arguments").value_or(std::vector<std::string>{});
    r.queuedAt = wire::required<TimePoint>(j, object, "queuedAt");
    r.startedAt = wire::optional<TimePoint>(j, object, "startedAt");
    r.endedAt = wire::optional<TimePoint>(j, object, "endedAt");
    r.exitCode = wire::optional<int>(j, object, "exitCode");
    r.message = wire::optional<std::string>(j, object, "message");
    r.submissionId = wire::optional<std::string>(j, object, "submissionId");
    r.cluster = wire::optional<std::string>(j, object, "cluster").value_or("");
    run = std::move(r);
}

} // namespace jobdeck
