#pragma once

#include <string>
#include <string_view>

namespace jobdeck {

// What the service answers (errorMessage) when it refuses a statement that parsed, beside the
// not-found messages (NotFoundMessages.h) and the role refusals (RolePolicy).

std::string jobExistsMessage(std::string_view jobName);         // Job <name> already exists
std::string clusterExistsMessage(std::string_view clusterName); // Cluster <name> already exists
// DELETE JOB of a job with active runs.
std::string jobHasActiveRunsMessage(std::string_view jobName, int activeRuns);
// ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST of an entry the list does not have.
std::string allowlistEntryMissingMessage(std::string_view entry);
// ALTER JOB / ALTER CLUSTER without any clause.
std::string alterJobNeedsAClauseMessage();
std::string alterClusterNeedsAClauseMessage();
// A statement the parser refused without a message of its own.
std::string unparsableStatementMessage();
// CANCEL JOB_RUN of a run that already ended; `statusWord` is COMPLETED, FAILED or CANCELED.
std::string runAlreadyEndedMessage(std::string_view runId, std::string_view statusWord);
// A run statement on a service started without runs (tools that serve statements only).
std::string runsUnavailableMessage();
// An unexpected failure while a statement ran (the log has the details).
std::string internalErrorMessage();
// The request's PENDING status could not be written, so it was not run.
std::string requestNotRecordedMessage();
// The final status of a request that was still PENDING when the service stopped.
std::string requestInterruptedByRestartMessage();

} // namespace jobdeck
