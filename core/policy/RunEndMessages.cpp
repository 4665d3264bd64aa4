#include "core/policy/RunEndMessages.h"

namespace jobdeck {

std::string jobGoneBeforeStartMessage(std::string_view jobName) {
    return "Job " + std::string(jobName) + " no longer exists";
}

std::string noApplicationPathMessage(std::string_view jobName) {
    return "Job " + std::string(jobName) + " has no application path";
}

std::string noSubmissionIdMessage(std::string_view sparkMaster) {
    return "spark-submit reported no submission id for the run at " + std::string(sparkMaster) +
           "; its output is in the run's log";
}

std::string submissionFailedMessage(std::string_view sparkMaster, std::string_view how) {
    return "spark-submit could not submit the run to " + std::string(sparkMaster) + ": it " +
           std::string(how) + "; its output is in the run's log";
}

std::string submissionIdTakenMessage(std::string_view submissionId) {
    return "spark-submit's output names the submission id " + std::string(submissionId) +
           ", which another run already has; this run is not followed in the cluster: look for its driver "
           "there before running it again";
}

} // namespace jobdeck
