#include "core/policy/ConcurrentRuns.h"

#include <algorithm>

namespace jobdeck {

std::optional<MaxConcurrentRunsProblem> maxConcurrentRunsProblem(std::int64_t value,
                                                                 const ProjectSettings& settings) {
    if (value < 1 || value > kMaxConcurrentRunsCeiling)
        return MaxConcurrentRunsProblem{true, "MAX_CONCURRENT_RUNS must be between 1 and " +
                                                  std::to_string(kMaxConcurrentRunsCeiling) + ", got " +
                                                  std::to_string(value)};
    if (value == 1)
        return std::nullopt;
    if (!settings.concurrentRunsEnabled)
        return MaxConcurrentRunsProblem{
            false, "MAX_CONCURRENT_RUNS above 1 needs concurrent runs, which are not enabled for this "
                   "project. Contact Onehouse support to enable them."};
    if (value > settings.maxConcurrentRunsLimit)
        return MaxConcurrentRunsProblem{false, "MAX_CONCURRENT_RUNS " + std::to_string(value) +
                                                   " is above this project's limit of " +
                                                   std::to_string(settings.maxConcurrentRunsLimit) +
                                                   ". Contact Onehouse support to raise it."};
    return std::nullopt;
}

std::optional<std::string> maxConcurrentRunsLimitProblem(std::int64_t value) {
    if (value < 1 || value > kMaxConcurrentRunsCeiling)
        return "MAX_CONCURRENT_RUNS_LIMIT must be between 1 and " +
               std::to_string(kMaxConcurrentRunsCeiling) + ", got " + std::to_string(value);
    return std::nullopt;
}

namespace {

int maxConcurrentRunsAllowed(const ConcurrentRunsSettings& settings) {
    return settings.enabled ? std::max(1, settings.limit) : 1;
}

} // namespace

ConcurrentRunsSettings concurrentRunsSettings(const ProjectSettings& settings) {
    return {settings.concurrentRunsEnabled, settings.maxConcurrentRunsLimit};
}

int maxConcurrentRunsAllowed(const ProjectSettings& settings) {
    return maxConcurrentRunsAllowed(concurrentRunsSettings(settings));
}

RunLimit effectiveRunLimit(int jobMaxConcurrentRuns, const ConcurrentRunsSettings& settings) {
    RunLimit limit;
    limit.jobValue = std::max(1, jobMaxConcurrentRuns);
    limit.value = limit.jobValue;
    if (limit.value == 1)
        return limit;
    if (!settings.enabled) {
        limit.value = 1;
        limit.source = RunLimit::Source::ConcurrentRunsDisabled;
    } else if (limit.value > maxConcurrentRunsAllowed(settings)) {
        limit.value = maxConcurrentRunsAllowed(settings);
        limit.source = RunLimit::Source::ProjectLimit;
    }
    return limit;
}

RunLimit effectiveRunLimit(int jobMaxConcurrentRuns, const ProjectSettings& settings) {
    return effectiveRunLimit(jobMaxConcurrentRuns, concurrentRunsSettings(settings));
}

std::string runLimitReachedMessage(std::string_view jobId, int active, const RunLimit& limit) {
    return "Spark Job " + std::string(jobId) + " already has " + std::to_string(active) +
           " active run(s) (max " + std::to_string(limit.value) + ")";
}

std::optional<std::string> runLimitReason(const RunLimit& limit) {
    switch (limit.source) {
    case RunLimit::Source::Job:
        return std::nullopt;
    case RunLimit::Source::ConcurrentRunsDisabled:
        return "concurrent runs are not enabled for this project, so its MAX_CONCURRENT_RUNS of " +
               std::to_string(limit.jobValue) + " does not apply";
    case RunLimit::Source::ProjectLimit:
        return "this project's MAX_CONCURRENT_RUNS_LIMIT of " + std::to_string(limit.value) +
               " is below the Job's MAX_CONCURRENT_RUNS of " + std::to_string(limit.jobValue);
    }
    return std::nullopt;
}

std::string idempotencyKeyRequiredMessage(std::string_view jobName, int jobMaxConcurrentRuns) {
    return "Idempotency-Key header is required for Job " + std::string(jobName) +
           ": its max concurrent runs is " + std::to_string(jobMaxConcurrentRuns);
}

} // namespace jobdeck
