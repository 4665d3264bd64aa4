#include "service/runs/DriverWatch.h"

#include "core/parameters/SecretMasking.h"
#include "core/policy/ReplicaMessages.h"
#include "core/policy/RunEndMessages.h"
#include "service/runs/ClusterRunTracker.h"
#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunLauncher.h"
#include "service/runs/RunWakeup.h"
#include "service/runs/RunWriter.h"
#include "service/runs/SubmissionOutput.h"
#include "service/stores/DatabaseError.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

namespace jobdeck {
namespace {

// A driver seen gone without an exit status is failed only after this long: its monitor may be
// about to write the status.
constexpr auto kGoneGrace = std::chrono::seconds(3);

std::string signalName(int signal) {
    const char* name = ::sigabbrev_np(signal);
    return name ? std::string("SIG") + name : std::to_string(signal);
}

} // namespace

DriverWatch::DriverWatch(Stores& stores, RunWriter& writer, ReplicaLeases& leases,
                         ClusterRunTracker& clusterRuns, RunWakeup& wakeup, Settings settings)
    : m_stores(stores)
    , m_runs(stores.runs())
    , m_writer(writer)
    , m_leases(leases)
    , m_clusterRuns(clusterRuns)
    , m_wakeup(wakeup)
    , m_settings(std::move(settings)) {}

// A run this replica ends as its owner: what is left of its process group is not a stray.
void DriverWatch::endOwnRun(RunRecord& record, JobRunStatus status, std::optional<std::string> message) {
    if (record.owner == m_leases.self().id())
        m_drivers.erase(record.run.jobRunId);
    m_writer.end(record, status, std::move(message), RunActor::Owner);
}

// launch() records the run directory and starts the driver in one step of this thread, so a QUEUED
// run with a directory was being launched when an earlier service process ended. Its launch is
// taken over (true) or, when nothing was started, left to be scheduled again (false).
bool DriverWatch::takeOverLaunch(RunRecord& record) {
    switch (RunLauncher::launchState(record.runDir)) {
    case LaunchState::NotLaunched:
        return false;
    case LaunchState::Launching: // its launcher is still before recording the driver: look again next tick
        return true;
    case LaunchState::Launched:
        break;
    }
    const auto driver = RunLauncher::readDriver(record.runDir);
    record.run.status = JobRunStatus::Running;
    record.run.queueReason.reset();
    record.run.startedAt = timestampNow();
    record.driverPid = driver->pid;
    record.driverStartTicks =
        driver->startTicks ? driver->startTicks : RunLauncher::processStartTicks(driver->pid).value_or(0);
    m_writer.save(record, RunActor::Owner);
    rememberDriver(record);
    spdlog::info("job run {} of job {}: took over the driver (pid {}) an earlier launch started",
                 record.run.jobRunId, record.run.jobName, driver->pid);
    return true;
}

void DriverWatch::watchRunning() {
    const auto now = Clock::now();
    const std::string& self = m_leases.self().id();
    // Other live replicas' runs are theirs to follow: only their owners are read.
    for (const std::string& owner : m_runs.ownersOfRunningRuns())
        if (owner != self && !m_leases.holds(owner))
            for (auto record : m_runs.runningOwnedBy(owner))
                goneOwnersRun(record);
    std::set<std::string> followed; // this replica's RUNNING runs
    for (auto record : m_runs.runningOwnedBy(self)) {
        followed.insert(record.run.jobRunId);
        if (record.clusterMode && record.run.submissionId)
            continue; // submitted: ClusterRunTracker follows the driver
        rememberDriver(record);
        watchDriver(record, now);
    }
    stopStrayDrivers(followed, now);
}

// A RUNNING run whose driver (or submission client) this replica started.
void DriverWatch::watchDriver(RunRecord& record, Clock::time_point now) {
    const std::string& id = record.run.jobRunId;
    const auto status = RunLauncher::readExitStatus(record.runDir);
    const bool groupAlive = RunLauncher::signalGroup(static_cast<pid_t>(record.driverPid), 0);
    // A canceled run ends once its whole process group is gone, not only its driver.
    if (status && !(record.cancelRequested && groupAlive)) {
        // The monitor wrote the file when the driver ended; after a restart that is long before now.
        struct stat info {};
        const auto endedAt =
            ::stat(RunLauncher::exitStatusPath(record.runDir).c_str(), &info) == 0
                ? std::chrono::system_clock::time_point(std::chrono::seconds(info.st_mtim.tv_sec) +
                                                        std::chrono::nanoseconds(info.st_mtim.tv_nsec))
                : std::chrono::system_clock::now();
        m_killAt.erase(id);
        m_goneSince.erase(id);
        if (record.clusterMode)
            submitted(std::move(record), *status);
        else
            finish(std::move(record), *status, endedAt);
        return;
    }
    if (!status && !groupAlive &&
        !RunLauncher::isAlive(static_cast<pid_t>(record.driverPid), record.driverStartTicks)) {
        const auto since = m_goneSince.try_emplace(id, now).first->second;
        if (now - since >= kGoneGrace) {
            m_goneSince.erase(id);
            m_killAt.erase(id);
            endOwnRun(record, record.cancelRequested ? JobRunStatus::Canceled : JobRunStatus::Failed,
                      record.cancelRequested ? canceledByMessage(record.canceledBy)
                                             : driverVanishedMessage(record.clusterMode, record.driverPid));
        }
        return;
    }
    // A cluster run is not stopped while it is being submitted: its driver is killed once submitted.
    if (record.cancelRequested && !record.clusterMode) {
        const auto kill = m_killAt.find(id);
        if (kill == m_killAt.end()) { // cancel asked before a restart, or through another replica
            RunLauncher::signalGroup(static_cast<pid_t>(record.driverPid), SIGTERM);
            m_killAt[id] = now + m_settings.cancelGrace;
        } else if (now >= kill->second) {
            RunLauncher::signalGroup(static_cast<pid_t>(record.driverPid), SIGKILL);
            kill->second = now + std::chrono::seconds(1);
        }
    }
}

// A RUNNING run of a replica whose lease ran out: one submitted to a cluster is followed from here on
// (everything needed is in its row), taken over in one step that does nothing if that replica renewed
// its lease meanwhile. A client-mode driver, or a submission client still submitting, runs on that
// replica's host, which this replica cannot watch: it stays with that replica, unless its cancel was
// asked, which then ends it, or the replica stays away for --orphaned-run-timeout, which ends it FAILED.
void DriverWatch::goneOwnersRun(RunRecord& record) {
    if (!record.clusterMode || !record.run.submissionId) {
        const auto lease = m_leases.leaseOf(record.owner);
        if (record.cancelRequested) // asked while its replica was still there
            m_writer.end(record, JobRunStatus::Canceled,
                         goneReplicaCancelMessage(record.canceledBy, record.owner, record.driverPid),
                         RunActor::Successor);
        else if (lease && m_settings.orphanedRunTimeout.count() > 0 &&
                 lease->ageMs / 1000 >= m_settings.orphanedRunTimeout.count())
            m_writer.end(record, JobRunStatus::Failed,
                         orphanedRunMessage(record.owner, lease->host, m_settings.orphanedRunTimeout.count()),
                         RunActor::Successor);
        return;
    }
    if (!m_writer.takeOver(record))
        return;
    spdlog::info("job run {} of job {}: following {} on {}, taken over from replica {}", record.run.jobRunId,
                 record.run.jobName, *record.run.submissionId, maskArgument(record.sparkMaster),
                 record.owner);
    m_clusterRuns.poke();
}

void DriverWatch::rememberDriver(const RunRecord& record) {
    if (record.driverPid <= 0)
        return;
    auto& driver = m_drivers[record.run.jobRunId];
    driver.pid = static_cast<pid_t>(record.driverPid);
    driver.startTicks = record.driverStartTicks;
    driver.logPath = record.logPath;
}

// At start: the drivers this data directory's runs started that still run (a driver outlives the
// service), so that those whose runs ended while this replica was down are stopped.
void DriverWatch::findDriversLeftRunning() {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(m_settings.dataDir) / "runs", ec)) {
        const std::string runDir = entry.path().string();
        const auto driver = RunLauncher::readDriver(runDir);
        if (!driver || RunLauncher::readExitStatus(runDir) ||
            !RunLauncher::isAlive(static_cast<pid_t>(driver->pid), driver->startTicks))
            continue;
        auto& known = m_drivers[entry.path().filename().string()];
        known.pid = static_cast<pid_t>(driver->pid);
        known.startTicks = driver->startTicks;
        known.logPath = runDir + "/driver.log";
    }
}

// The drivers this replica started whose runs are not its RUNNING runs any more: ended through another
// replica while this one was away (paused, cut off, down), e.g. canceled or ended after
// --orphaned-run-timeout. Their drivers run on outside any slot: they are stopped, the log says why.
void DriverWatch::stopStrayDrivers(const std::set<std::string>& followed, Clock::time_point now) {
    for (auto it = m_drivers.begin(); it != m_drivers.end();) {
        Driver& driver = it->second;
        const bool alive =
            RunLauncher::signalGroup(driver.pid, 0) || RunLauncher::isAlive(driver.pid, driver.startTicks);
        if (!alive) {
            it = m_drivers.erase(it);
            continue;
        }
        if (!followed.count(it->first))
            stopStrayDriver(it->first, driver, now);
        ++it;
    }
}

void DriverWatch::stopStrayDriver(const std::string& runId, Driver& driver, Clock::time_point now) {
    if (driver.killAt) {
        if (now >= *driver.killAt) {
            RunLauncher::signalGroup(driver.pid, SIGKILL);
            driver.killAt = now + std::chrono::seconds(1);
        }
        return;
    }
    const auto run = m_runs.findById(runId);
    if (run && isActive(run->run.status) && run->owner == m_leases.self().id())
        return; // being launched, or started since the tick read the runs
    const std::string how = !run                        ? std::string("and was removed")
                            : isActive(run->run.status) ? "with replica " + run->owner
                                                        : std::string(jobRunStatusWord(run->run.status));
    ClusterRunTracker::appendToLog(
        driver.logPath, strayDriverStoppedLogLine(driver.pid, how, run ? run->run.message.value_or("") : ""));
    RunLauncher::signalGroup(driver.pid, SIGTERM);
    driver.killAt = now + m_settings.cancelGrace;
    spdlog::warn("job run {}: its run ended {} while this replica was away; its driver (pid {}) is stopped",
                 runId, how, driver.pid);
}

void DriverWatch::launch(std::vector<std::pair<RunRecord, LaunchSpec>>& starts) {
    std::vector<StartedLaunch> started;
    started.reserve(starts.size());
    // Runs claimed before a pause are started, if at all, once the lease is renewed (setAsideLaunching).
    for (const auto& [record, spec] : starts) {
        if (!m_leases.current())
            break;
        started.push_back(RunLauncher::start(spec));
    }
    for (std::size_t i = 0; i < started.size(); ++i)
        launched(starts[i].first, RunLauncher::finish(started[i]));
}

void DriverWatch::launched(RunRecord& record, const LaunchResult& result) {
    if (!result.error.empty()) {
        endOwnRun(record, JobRunStatus::Failed, driverNotStartedMessage(result.error));
        return;
    }
    record.run.status = JobRunStatus::Running;
    record.run.queueReason.reset();
    record.run.startedAt = timestampNow();
    record.driverPid = result.driverPid;
    record.driverStartTicks = result.driverStartTicks;
    m_writer.save(record, RunActor::Owner);
    rememberDriver(record);
    spdlog::info("job run {} of job {} started ({} pid {})", record.run.jobRunId, record.run.jobName,
                 record.clusterMode ? "spark-submit" : "driver", result.driverPid);
}

void DriverWatch::finish(RunRecord record, const ExitStatus& status,
                         std::chrono::system_clock::time_point endedAt) {
    std::optional<std::string> message;
    JobRunStatus final = JobRunStatus::Failed;
    switch (status.kind) {
    case ExitStatus::Kind::Exited:
        record.run.exitCode = status.code;
        if (status.code == 0)
            final = JobRunStatus::Completed;
        else
            message = driverExitedMessage(status.code);
        break;
    case ExitStatus::Kind::Signaled:
        record.run.exitCode = 128 + status.code; // the shell's convention
        message = driverSignaledMessage(signalName(status.code));
        break;
    case ExitStatus::Kind::SpawnFailed:
        message = driverNotExecutedMessage(std::strerror(status.code));
        break;
    }
    if (record.cancelRequested) {
        final = JobRunStatus::Canceled;
        message = canceledByMessage(record.canceledBy);
    }
    record.run.endedAt = std::chrono::time_point_cast<std::chrono::milliseconds>(endedAt);
    endOwnRun(record, final, message);
}

// The submission client of a cluster-mode run ended: the run goes on in the cluster under the
// submission id it printed, or it was not submitted.
void DriverWatch::submitted(RunRecord record, const ExitStatus& status) {
    std::ifstream in(record.logPath, std::ios::binary);
    const std::string output{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const bool exitedWell = status.kind == ExitStatus::Kind::Exited && status.code == 0;
    const auto id =
        exitedWell ? SubmissionOutput::submissionId(output, passedToSparkSubmit(record)) : std::nullopt;
    if (!id) {
        const std::string how = status.kind == ExitStatus::Kind::Exited ? exitedWithCodeHow(status.code)
                                : status.kind == ExitStatus::Kind::Signaled
                                    ? stoppedBySignalHow(signalName(status.code))
                                    : notExecutedHow(std::strerror(status.code));
        endOwnRun(record, record.cancelRequested ? JobRunStatus::Canceled : JobRunStatus::Failed,
                  record.cancelRequested ? canceledByMessage(record.canceledBy)
                  : exitedWell           ? noSubmissionIdMessage(record.sparkMaster)
                                         : submissionFailedMessage(record.sparkMaster, how));
        return;
    }
    if (submissionIdIsTaken(record, *id)) {
        spdlog::warn(
            "job run {} of job {}: spark-submit's output names submission id {}, which another run has",
            record.run.jobRunId, record.run.jobName, *id);
        endOwnRun(record, JobRunStatus::Failed, submissionIdTakenMessage(*id));
        return;
    }
    record.run.submissionId = *id;
    m_drivers.erase(record.run.jobRunId); // the submission client's work is done
    // Saved before the log says so. The unique index refuses an id any other run recorded, an ended
    // one or one that recorded it since the look above.
    try {
        if (m_writer.saveNow({{record, RunActor::Owner}}) == 0)
            return; // ended, or taken over, meanwhile: that end or that owner decides
    } catch (const DatabaseError& e) {
        if (!e.isConstraintViolation())
            throw;
        spdlog::warn("job run {} of job {}: spark-submit's output names submission id {}, which another "
                     "run recorded",
                     record.run.jobRunId, record.run.jobName, *id);
        record.run.submissionId.reset();
        endOwnRun(record, JobRunStatus::Failed, submissionIdTakenMessage(*id));
        return;
    }
    ClusterRunTracker::appendToLog(
        record.logPath,
        "[jobdeckd: submitted to " + maskArgument(record.sparkMaster) + " as " + *id +
            " (deploy mode cluster). The driver runs in the cluster: its own output stays with "
            "the cluster manager (a standalone worker's work/" +
            *id +
            "/stdout and stderr, the driver pod's log on Kubernetes) and is not available "
            "here. What spark-submit --status answers follows.]\n");
    spdlog::info("job run {} of job {} submitted to {} as {}", record.run.jobRunId, record.run.jobName,
                 maskArgument(record.sparkMaster), *id);
    m_clusterRuns.poke();
}

// The texts the run gave spark-submit (the job's options and their values, the application's path and
// arguments): what --verbose echoes, never read as the submission client's answer.
std::vector<std::string> DriverWatch::passedToSparkSubmit(const RunRecord& record) {
    std::vector<std::string> texts = record.run.arguments;
    if (const auto job = m_stores.jobs().findJob(record.projectUid, record.run.jobName))
        texts.insert(texts.end(), job->parameters.begin(), job->parameters.end());
    if (const auto cluster = m_stores.clusters().findCluster(record.projectUid, record.cluster))
        for (const auto& [key, value] : cluster->with) {
            texts.push_back(key);
            texts.push_back(value);
        }
    return texts;
}

// Whether another run (of any project) recorded `submissionId`: a second run must never follow, or
// kill, that driver.
bool DriverWatch::submissionIdIsTaken(const RunRecord& record, const std::string& submissionId) {
    for (const auto& other : m_runs.withStatus(JobRunStatus::Running))
        if (other.run.submissionId == submissionId && other.run.jobRunId != record.run.jobRunId)
            return true;
    return false;
}

// ClusterRunTracker's final state for a submitted run, applied if the run is still the one it saw.
void DriverWatch::endClusterRun(const RunRecord& seen, JobRunStatus status,
                                std::optional<std::string> message) {
    auto record = m_runs.find(seen.projectUid, seen.run.jobRunId);
    if (!record || record->run.status != JobRunStatus::Running ||
        record->run.submissionId != seen.run.submissionId || record->owner != m_leases.self().id() ||
        !m_leases.current())
        return; // ended, or followed by another replica now
    if (record->cancelRequested) {
        status = JobRunStatus::Canceled;
        message = canceledByMessage(record->canceledBy);
    }
    endOwnRun(*record, status, std::move(message));
}

// After a cancel of a RUNNING run (or one being started) was recorded: the driver gets TERM now when
// this replica started it; its own replica sends it otherwise (on its next tick). A client-mode driver
// of a replica that is gone cannot be reached from here: the run ends CANCELED saying so.
void DriverWatch::stopCanceled(RunRecord& record) {
    const std::string& self = m_leases.self().id();
    if (record.owner == self || record.owner.empty()) {
        if (record.run.status != JobRunStatus::Running)
            return; // being started on this replica: the tick that started it sees the cancel
        if (record.clusterMode) {
            m_clusterRuns.poke(); // it sends spark-submit --kill
        } else {
            RunLauncher::signalGroup(static_cast<pid_t>(record.driverPid), SIGTERM);
            m_killAt[record.run.jobRunId] = Clock::now() + m_settings.cancelGrace;
        }
    } else if (!m_leases.holdsNow(record.owner) && !(record.clusterMode && record.run.submissionId)) {
        m_writer.end(record, JobRunStatus::Canceled,
                     goneReplicaCancelMessage(record.canceledBy, record.owner, record.driverPid),
                     RunActor::Successor);
    }
    m_wakeup.poke();
}

} // namespace jobdeck
