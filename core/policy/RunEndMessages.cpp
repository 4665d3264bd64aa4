#include "core/policy/RunEndMessages.h"

#include "core/parameters/SecretMasking.h"

namespace jobdeck {

std::string jobGoneBeforeStartMessage(std::string_view jobName) {
    return "Job " + std::string(jobName) + " no longer exists";
}

std::string noApplicationPathMessage(std::string_view jobName) {
    return "Job " + std::string(jobName) + " has no application path";
}

std::string noSubmissionIdMessage(std::string_view sparkMaster) {
    return "spark-submit reported no submission id for the run at " + maskArgument(sparkMaster) +
           "; its output is in the run's log";
}

std::string submissionFailedMessage(std::string_view sparkMaster, std::string_view how) {
    return "spark-submit could not submit the run to " + maskArgument(sparkMaster) + ": it " +
           std::string(how) + "; its output is in the run's log";
}

std::string exitedWithCodeHow(int exitCode) {
    return "exited with code " + std::to_string(exitCode);
}

std::string stoppedBySignalHow(std::string_view signalName) {
    return "was stopped by signal " + std::string(signalName);
}

std::string notExecutedHow(std::string_view reason) {
    return "could not be executed: " + std::string(reason);
}

std::string submissionIdTakenMessage(std::string_view submissionId) {
    return "spark-submit's output names the submission id " + std::string(submissionId) +
           ", which another run already has; this run is not followed in the cluster: look for its driver "
           "there before running it again";
}

std::string canceledByMessage(std::string_view who) {
    return "Canceled by " + std::string(who);
}

std::string goneReplicaCancelMessage(std::string_view who, std::string_view replicaId,
                                     std::int64_t driverPid) {
    return canceledByMessage(who) + ". The service replica " + std::string(replicaId) +
           " that started it is gone: its driver (pid " + std::to_string(driverPid) +
           " on that replica's host) was not signalled";
}

std::string driverExitedMessage(int exitCode) {
    return "The driver exited with code " + std::to_string(exitCode);
}

std::string driverSignaledMessage(std::string_view signalName) {
    return "The driver was stopped by signal " + std::string(signalName);
}

std::string driverNotExecutedMessage(std::string_view reason) {
    return "Cannot execute the driver: " + std::string(reason);
}

std::string driverNotStartedMessage(std::string_view problem) {
    return "Cannot start the driver: " + std::string(problem);
}

std::string driverVanishedMessage(bool submissionClient, std::int64_t pid) {
    return std::string(submissionClient ? "spark-submit" : "The driver") + " (pid " + std::to_string(pid) +
           ") ended without recording an exit status; it was stopped outside the service's control";
}

std::string runDirectoryNotCreatedProblem(std::string_view runDir, std::string_view reason) {
    return "Cannot create run directory " + std::string(runDir) + ": " + std::string(reason);
}

std::string fileNotWrittenProblem(std::string_view path) {
    return "Cannot write " + std::string(path);
}

std::string launchNotLockedProblem(std::string_view lockPath, std::string_view reason) {
    return "Cannot lock " + std::string(lockPath) + ": " + std::string(reason);
}

std::string logNotOpenedProblem(std::string_view logPath, std::string_view reason) {
    return "Cannot open log " + std::string(logPath) + ": " + std::string(reason);
}

std::string launchNotPreparedProblem(std::string_view reason) {
    return "Cannot prepare the driver: " + std::string(reason);
}

std::string nothingToRunProblem() {
    return "Nothing to run";
}

std::string programNotInPathProblem(std::string_view program) {
    return "Cannot find " + std::string(program) + " in PATH";
}

std::string monitorNotSpawnedProblem(std::string_view reason) {
    return "Cannot start the driver monitor: " + std::string(reason);
}

std::string runMonitorMissingProblem(std::string_view program) {
    return "Cannot find " + std::string(program) +
           " beside jobdeckd or in ../libexec/jobdeck beside it: reinstall jobdeckd";
}

std::string monitorNotStartedProblem() {
    return "The driver monitor did not start";
}

std::string programNotExecutedProblem(std::string_view program, std::string_view reason) {
    return "Cannot execute " + std::string(program) + ": " + std::string(reason);
}

std::string commandNotRunProblem(std::string_view program, std::string_view reason) {
    return "Cannot run " + std::string(program) + ": " + std::string(reason);
}

std::string commandStoppedForShutdownProblem(std::string_view program) {
    return std::string(program) + " was stopped: jobdeckd is shutting down";
}

std::string commandTimedOutProblem(std::string_view program, std::int64_t seconds) {
    return std::string(program) + " did not answer within " + std::to_string(seconds) + " s";
}

std::string commandSignaledProblem(std::string_view program, int signal) {
    return std::string(program) + " was stopped by signal " + std::to_string(signal);
}

std::string goneLauncherMessage(std::string_view replicaId) {
    return "The service replica " + std::string(replicaId) +
           " that was starting this run stopped before it recorded the driver; the run may have started on "
           "that replica's host (or in the cluster): check there before running it again";
}

std::string clusterDriverFailedMessage(std::string_view id, std::string_view state) {
    return "The driver " + std::string(id) + " failed in the cluster (" + std::string(state) + ")";
}

std::string clusterDriverErrorMessage(std::string_view id, std::string_view state, std::string_view reason) {
    return "The cluster could not run the driver " + std::string(id) + " (" + std::string(state) +
           "): " + std::string(reason);
}

std::string clusterDriverKilledMessage(std::string_view id, std::string_view state) {
    return "The driver " + std::string(id) + " was killed in the cluster (" + std::string(state) +
           "), not through this service";
}

std::string clusterDriverLostMessage(std::string_view sparkMaster, std::string_view id, bool notFound,
                                     int answers) {
    return "The cluster manager at " + maskArgument(sparkMaster) +
           (notFound ? " does not know the driver " + std::string(id)
                     : " lost track of the driver " + std::string(id) + " (UNKNOWN)") +
           " (" + std::to_string(answers) + " answers in a row); its outcome cannot be known";
}

std::string waitingForSchedulerReason() {
    return "Waiting for the scheduler";
}

std::string startingDriverReason() {
    return "Starting the driver";
}

std::string waitingForDriverSlotReason(std::string_view cluster, int inUse, int capacity) {
    return "Waiting for a driver slot on cluster " + std::string(cluster) + " (" + std::to_string(inUse) +
           " of " + std::to_string(capacity) + " in use)";
}

} // namespace jobdeck
