#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace jobdeck {

// Why a run ended as it did, in the words its `message` field carries (DESCRIBE JOB_RUN, SHOW JOB_RUNS).

// The run's job was deleted (or replaced under its name) before the run started.
std::string jobGoneBeforeStartMessage(std::string_view jobName);
// The run's job has no application path, so there is nothing to start.
std::string noApplicationPathMessage(std::string_view jobName);
// Cluster deploy mode: spark-submit exited well but its client's answer named no submission id. The
// messages naming the master show it as maskArgument does (a URL's password as ****): they are a run's.
std::string noSubmissionIdMessage(std::string_view sparkMaster);
// Cluster deploy mode: spark-submit could not submit; `how` says how it ended, one of the three below.
std::string submissionFailedMessage(std::string_view sparkMaster, std::string_view how);
std::string exitedWithCodeHow(int exitCode);                 // "exited with code 1"
std::string stoppedBySignalHow(std::string_view signalName); // "was stopped by signal SIGKILL"
std::string notExecutedHow(std::string_view reason);         // "could not be executed: <strerror>"
// Cluster deploy mode: the submission id read from spark-submit's output is another run's, so this run
// is not followed (nor is the other run's driver ever signalled for it).
std::string submissionIdTakenMessage(std::string_view submissionId);

// A cancel ended the run; `who` names the key that asked ("key <id> (operator)").
std::string canceledByMessage(std::string_view who);
// A cancel ended a client-mode run whose replica is gone: its driver, on that replica's host, could not
// be signalled from here.
std::string goneReplicaCancelMessage(std::string_view who, std::string_view replicaId,
                                     std::int64_t driverPid);

// How the driver (client mode) ended: its exit code, the signal that stopped it ("SIGKILL"), or why it
// could not be executed (strerror's text).
std::string driverExitedMessage(int exitCode);
std::string driverSignaledMessage(std::string_view signalName);
std::string driverNotExecutedMessage(std::string_view reason);
// The launcher could not start the driver; `problem` is one of the launch problems below.
std::string driverNotStartedMessage(std::string_view problem);
// The driver (or spark-submit's submission client) is gone and wrote no exit status.
std::string driverVanishedMessage(bool submissionClient, std::int64_t pid);

// Why a launch failed before the driver ran, as driverNotStartedMessage() carries it.
std::string runDirectoryNotCreatedProblem(std::string_view runDir, std::string_view reason);
std::string fileNotWrittenProblem(std::string_view path);
std::string launchNotLockedProblem(std::string_view lockPath, std::string_view reason);
std::string logNotOpenedProblem(std::string_view logPath, std::string_view reason);
std::string launchNotPreparedProblem(std::string_view reason);
std::string nothingToRunProblem();
std::string programNotInPathProblem(std::string_view program);
std::string monitorNotSpawnedProblem(std::string_view reason);
// The driver monitor program (jobdeck-run-monitor) is not where jobdeckd looks for it.
std::string runMonitorMissingProblem(std::string_view program);
std::string monitorNotStartedProblem();
std::string programNotExecutedProblem(std::string_view program, std::string_view reason);
// A command of the service's own (spark-submit --status or --kill) could not be run.
std::string commandNotRunProblem(std::string_view program, std::string_view reason);
std::string commandStoppedForShutdownProblem(std::string_view program);
std::string commandTimedOutProblem(std::string_view program, std::int64_t seconds);
std::string commandSignaledProblem(std::string_view program, int signal);

// A replica that was launching the run is gone before it recorded the driver: it may have started.
std::string goneLauncherMessage(std::string_view replicaId);

// Cluster deploy mode: how the cluster manager says submission `id` ended. `state` is its driver state
// (FAILED, ERROR, KILLED); `reason` the cluster's first line of explanation.
std::string clusterDriverFailedMessage(std::string_view id, std::string_view state);
std::string clusterDriverErrorMessage(std::string_view id, std::string_view state, std::string_view reason);
std::string clusterDriverKilledMessage(std::string_view id, std::string_view state);
// The cluster manager at `sparkMaster` answered `answers` times in a row that it does not know the
// driver (`notFound`) or that its state is UNKNOWN.
std::string clusterDriverLostMessage(std::string_view sparkMaster, std::string_view id, bool notFound,
                                     int answers);

// Why a QUEUED run is not running yet (its queueReason field).
std::string waitingForSchedulerReason();
std::string startingDriverReason();
std::string waitingForDriverSlotReason(std::string_view cluster, int inUse, int capacity);

} // namespace jobdeck
