#include "core/statements/StatementRefusals.h"

#include "core/text/AsciiText.h"

namespace jobdeck {

std::string jobExistsMessage(std::string_view jobName) {
    return "Job " + std::string(jobName) + " already exists";
}

std::string clusterExistsMessage(std::string_view clusterName) {
    return "Cluster " + std::string(clusterName) + " already exists";
}

std::string jobHasActiveRunsMessage(std::string_view jobName, int activeRuns) {
    return "Job " + std::string(jobName) + " has " + std::to_string(activeRuns) +
           " active run(s); cancel them or wait for them to finish before deleting it";
}

std::string allowlistEntryMissingMessage(std::string_view entry) {
    return "HUDI_CONFIG_ALLOWLIST has no entry " + quoted(entry) + "; nothing was removed";
}

std::string alterJobNeedsAClauseMessage() {
    return "ALTER JOB needs SET PARAMETERS, SET CLUSTER or SET MAX_CONCURRENT_RUNS";
}

std::string alterClusterNeedsAClauseMessage() {
    return "ALTER CLUSTER needs SET MAX_OCU, SET MIN_OCU or WITH";
}

std::string unparsableStatementMessage() {
    return "The statement could not be parsed";
}

std::string runAlreadyEndedMessage(std::string_view runId, std::string_view statusWord) {
    return "Job run " + std::string(runId) + " is already " + std::string(statusWord);
}

std::string runsUnavailableMessage() {
    return "Runs are not available on this service";
}

std::string internalErrorMessage() {
    return "Internal error while executing the statement";
}

std::string requestNotRecordedMessage() {
    return "The request could not be recorded";
}

std::string requestInterruptedByRestartMessage() {
    return "The service restarted before this request finished; use SHOW or DESCRIBE to see whether its "
           "statement took effect";
}

} // namespace jobdeck
