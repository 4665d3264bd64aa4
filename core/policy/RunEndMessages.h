#pragma once

#include <string>
#include <string_view>

namespace jobdeck {

// Why a run ended as it did, in the words its `message` field carries (DESCRIBE JOB_RUN, SHOW JOB_RUNS).

// The run's job was deleted (or replaced under its name) before the run started.
std::string jobGoneBeforeStartMessage(std::string_view jobName);
// The run's job has no application path, so there is nothing to start.
std::string noApplicationPathMessage(std::string_view jobName);
// Cluster deploy mode: spark-submit exited well but its client's answer named no submission id.
std::string noSubmissionIdMessage(std::string_view sparkMaster);
// Cluster deploy mode: spark-submit could not submit; `how` says how it ended ("exited with code 1").
std::string submissionFailedMessage(std::string_view sparkMaster, std::string_view how);
// Cluster deploy mode: the submission id read from spark-submit's output is another run's, so this run
// is not followed (nor is the other run's driver ever signalled for it).
std::string submissionIdTakenMessage(std::string_view submissionId);

} // namespace jobdeck
