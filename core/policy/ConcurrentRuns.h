#pragma once

#include "core/policy/ProjectSettings.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// A Job's MAX_CONCURRENT_RUNS (CONTRACT §4, seed 001): the rules for setting it, the limit RUN JOB
// admits against, and their messages. The service refuses with these texts; the console uses the same
// functions to show the reason before anything is sent.

// Far beyond any project's limit, and well inside int.
inline constexpr std::int64_t kMaxConcurrentRunsCeiling = 1000;

struct MaxConcurrentRunsProblem final {
    // Outside 1..kMaxConcurrentRunsCeiling: the statement itself is wrong (INVALID); otherwise the
    // project does not allow the value (FAILED).
    bool outOfRange = false;
    std::string message;
};

// Why a Job cannot be set to `value` in a project with `settings`, or nullopt when it can.
std::optional<MaxConcurrentRunsProblem> maxConcurrentRunsProblem(std::int64_t value,
                                                                 const ProjectSettings& settings);

// Why a project's MAX_CONCURRENT_RUNS_LIMIT cannot be `value` (an INVALID statement), or nullopt.
std::optional<std::string> maxConcurrentRunsLimitProblem(std::int64_t value);

// The highest MAX_CONCURRENT_RUNS the project allows a Job to be set to (1 while concurrent runs are off).
int maxConcurrentRunsAllowed(const ProjectSettings& settings);

// What of a project's settings bounds its Jobs' runs: all RUN JOB's admission reads of them, with the
// Job's row.
struct ConcurrentRunsSettings final {
    bool enabled = false; // the project's concurrent runs
    int limit = 1;        // its MAX_CONCURRENT_RUNS_LIMIT
};
ConcurrentRunsSettings concurrentRunsSettings(const ProjectSettings& settings);

// The limit RUN JOB admits against: the Job's MAX_CONCURRENT_RUNS, lowered to the project's limit, and 1
// while the project's concurrent runs are off (a Job set before an admin narrowed them keeps its value
// but not the runs).
struct RunLimit final {
    enum class Source { Job, ConcurrentRunsDisabled, ProjectLimit };
    int value = 1;
    Source source = Source::Job;
    int jobValue = 1;
};
RunLimit effectiveRunLimit(int jobMaxConcurrentRuns, const ConcurrentRunsSettings& settings);
RunLimit effectiveRunLimit(int jobMaxConcurrentRuns, const ProjectSettings& settings);

// RUN JOB refused at the limit: `Spark Job <jobId> already has <N> active run(s) (max <N>)`, seed 001's
// text to the letter (orchestrators match it): the FAILED status's errorMessage.
std::string runLimitReachedMessage(std::string_view jobId, int active, const RunLimit& limit);
// When the project's setting and not the Job's is what applied, which one (the status's errorReason,
// beside the message); nullopt when the Job's own MAX_CONCURRENT_RUNS applied.
std::optional<std::string> runLimitReason(const RunLimit& limit);

// RUN JOB without an Idempotency-Key for a Job whose MAX_CONCURRENT_RUNS is above 1.
std::string idempotencyKeyRequiredMessage(std::string_view jobName, int jobMaxConcurrentRuns);

} // namespace jobdeck
