#include "service/runs/RunManager.h"

#include "core/statements/ListLimit.h"
#include "core/statements/StatementRefusals.h"

#include "core/hudi/EffectiveConfig.h"
#include "core/parameters/ArgumentOverrides.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/policy/IdempotencyKey.h"
#include "core/policy/ReplicaMessages.h"
#include "core/policy/RunEndMessages.h"
#include "core/statements/NotFoundMessages.h"
#include "service/runs/ClusterRunTracker.h"
#include "service/runs/EventBus.h"
#include "service/runs/InternalFailure.h"
#include "service/runs/RequestContext.h"
#include "service/runs/RunAdmissions.h"
#include "service/runs/RunLauncher.h"
#include "service/runs/RunScheduler.h"
#include "service/runs/RunStatusEvent.h"
#include "service/runs/ServiceMetrics.h"
#include "service/runs/SparkSubmitCommand.h"
#include "service/runs/SubmissionOutput.h"
#include "service/stores/DatabaseError.h"
#include "service/stores/RandomIds.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>

namespace jobdeck {
namespace {

constexpr auto kTick = std::chrono::milliseconds(150);
// A driver seen gone without an exit status is failed only after this long: its monitor may be
// about to write the status.
constexpr auto kGoneGrace = std::chrono::seconds(3);
constexpr auto kRetentionInterval = std::chrono::minutes(10);
// Drivers started per tick at most: the runs claimed wait in "Starting the driver" until their tick's
// launches are recorded, and a cancel waits for the tick.
constexpr std::size_t kClaimsPerTick = 32;
// While RUN JOBs keep coming (one admitted less than kBurstQuiet ago) drivers are not started: a
// burst is admitted first, at the pace of commits, and the queue then drains at the pace of launches.
// A steady stream still starts a batch every kLongestDeferral.
constexpr auto kBurstQuiet = std::chrono::milliseconds(30);
constexpr auto kLongestDeferral = std::chrono::seconds(1);

// The status word of "Job run <id> is already <state>": the contract's status without its prefix.
std::string statusWord(JobRunStatus status) {
    const std::string_view name = jobRunStatusName(status);
    return std::string(name.substr(name.rfind('_') + 1));
}

std::string who(const RequestContext& context) {
    return "key " + context.principal.keyId + " (" + std::string(roleName(context.principal.role)) + ")";
}

// The run as answered: with the cluster it was admitted to, kept with the run.
nlohmann::json runJson(const RunRecord& record) {
    SparkJobRun run = record.run;
    run.cluster = record.cluster;
    maskRun(run);
    return nlohmann::json(run);
}

// The CANCELED message of a run whose driver ran on the host of a replica that is gone.
std::string signalName(int signal) {
    const char* name = ::sigabbrev_np(signal);
    return name ? std::string("SIG") + name : std::to_string(signal);
}

} // namespace

RunManager::RunManager(Stores& stores, EventBus& events, const RunOptions& options, ReplicaIdentity replica)
    : m_stores(stores)
    , m_events(events)
    , m_runs(stores.runs())
    // Absolute, because drivers and their monitors run in the run directory.
    , m_resolver(std::filesystem::absolute(options.dataDir).string(), options.s3Map)
    , m_dataDir(std::filesystem::absolute(options.dataDir).string())
    , m_cancelGrace(options.cancelGrace)
    , m_retentionDays(options.retentionDays)
    , m_maxLogBytes(options.maxLogBytes)
    , m_wakeup(m_dataDir + "/run-exits.fifo")
    , m_orphanedRunTimeout(options.orphanedRunTimeout)
    , m_leases(stores, std::move(replica), options.leaseTimeout) {
    const char* sparkHome = std::getenv("SPARK_HOME");
    m_useSparkSubmit = options.runner == "spark-submit" || (sparkHome && *sparkHome);
    m_sparkSubmit = options.sparkSubmit;
    if (sparkHome && *sparkHome && m_sparkSubmit == "spark-submit")
        m_sparkSubmit = (std::filesystem::path(sparkHome) / "bin" / "spark-submit").string();
    if (options.deployMode == "cluster")
        m_clusterMaster = options.sparkMaster;
    // Runs submitted earlier are followed whatever this process's deploy mode is.
    m_clusterRuns = std::make_unique<ClusterRunTracker>(
        m_runs, m_leases.self().id(), m_sparkSubmit, options.clusterStatusInterval, options.shutdownGrace,
        [this](const RunRecord& seen, JobRunStatus status, std::optional<std::string> message) {
            endClusterRun(seen, status, std::move(message));
        },
        [this] { return m_leases.current(); });
    m_admissions = std::make_unique<RunAdmissions>(stores, events, m_metrics, [this] { admitted(); });
}

RunManager::~RunManager() {
    stop();
}

void RunManager::start() {
    m_leases.claim(); // throws when another live jobdeckd has this replica id
    findDriversLeftRunning();
    {
        std::lock_guard lock(m_mutex);
        m_stopping = false;
    }
    m_thread = std::thread([this] { loop(); });
    m_clusterRuns->start();
    m_admissions->start();
}

void RunManager::stop() {
    m_admissions->stop(); // what was queued is admitted and answered first
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wakeup.poke();
    if (m_thread.joinable())
        m_thread.join();
    m_clusterRuns->stop();
}

void RunManager::loop() {
    std::unique_lock lock(m_mutex);
    std::string failing; // the error of the last tick, logged once while it repeats (a database outage)
    while (!m_stopping) {
        try {
            tick();
            if (!failing.empty())
                spdlog::info("run scheduler: working again");
            failing.clear();
        } catch (const std::exception& e) {
            if (failing != e.what())
                spdlog::error("run scheduler: {}", e.what());
            failing = e.what();
        }
        lock.unlock();
        if (m_burstSince) // during a burst each admission group pokes: look every kBurstQuiet only
            for (const auto until = Clock::now() + kBurstQuiet; Clock::now() < until && !stopping();)
                m_wakeup.wait(std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()) +
                              std::chrono::milliseconds(1));
        else
            m_wakeup.wait(kTick);
        lock.lock();
    }
}

void RunManager::tick() {
    m_leases.renew();
    if (!m_leases.current()) { // another replica may have taken its runs over: it waits until it renewed
        if (!m_lapseLogged)
            spdlog::warn("replica {}: its lease could not be renewed in time; it starts and follows no runs "
                         "until it renewed it",
                         m_leases.self().id());
        m_lapseLogged = true;
        return;
    }
    m_lapseLogged = false;
    m_tickSaves.emplace();
    struct SavesReset {
        std::optional<std::vector<RunRecord>>& saves;
        ~SavesReset() { saves.reset(); } // a tick that threw: what it saw is seen again next tick
    } reset{m_tickSaves};
    watchRunning();
    saveNow(std::exchange(*m_tickSaves, {})); // the slots ended runs held are free for schedule()
    schedule();
    saveNow(std::exchange(*m_tickSaves, {}));
    if (Clock::now() >= m_nextRetention) {
        m_nextRetention = Clock::now() + kRetentionInterval;
        applyRetention();
    }
}

// launch() records the run directory and starts the driver in one step of this thread, so a QUEUED
// run with a directory was being launched when an earlier service process ended. Its launch is
// taken over (true) or, when nothing was started, left to be scheduled again (false).
bool RunManager::takeOverLaunch(RunRecord& record) {
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
    save(record);
    rememberDriver(record);
    spdlog::info("job run {} of job {}: took over the driver (pid {}) an earlier launch started",
                 record.run.jobRunId, record.run.jobName, driver->pid);
    return true;
}

void RunManager::watchRunning() {
    const auto now = Clock::now();
    std::set<std::string> followed; // this replica's RUNNING runs
    for (auto record : m_runs.withStatus(JobRunStatus::Running)) {
        if (record.owner != m_leases.self().id()) {
            if (!record.owner.empty() && !m_leases.holds(record.owner))
                goneOwnersRun(record);
            continue; // another replica's
        }
        followed.insert(record.run.jobRunId);
        if (record.clusterMode && record.run.submissionId)
            continue; // submitted: ClusterRunTracker follows the driver
        rememberDriver(record);
        watchDriver(record, now);
    }
    stopStrayDrivers(followed, now);
}

// A RUNNING run whose driver (or submission client) this replica started.
void RunManager::watchDriver(RunRecord& record, Clock::time_point now) {
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
            endRun(record, record.cancelRequested ? JobRunStatus::Canceled : JobRunStatus::Failed,
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
            m_killAt[id] = now + m_cancelGrace;
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
void RunManager::goneOwnersRun(RunRecord& record) {
    if (!record.clusterMode || !record.run.submissionId) {
        const auto lease = m_leases.leaseOf(record.owner);
        if (record.cancelRequested) // asked while its replica was still there
            endRun(record, JobRunStatus::Canceled,
                   goneReplicaCancelMessage(record.canceledBy, record.owner, record.driverPid));
        else if (lease && m_orphanedRunTimeout.count() > 0 &&
                 lease->ageMs / 1000 >= m_orphanedRunTimeout.count())
            endRun(record, JobRunStatus::Failed,
                   orphanedRunMessage(record.owner, lease->host, m_orphanedRunTimeout.count()));
        return;
    }
    const bool taken = m_stores.unitOfWork().run([&] {
        return m_runs.takeOverRun(record.run.jobRunId, record.owner, m_leases.self().id(), m_leases.epoch(),
                                  m_leases.timeoutMs());
    });
    if (!taken)
        return;
    spdlog::info("job run {} of job {}: following {} on {}, taken over from replica {}", record.run.jobRunId,
                 record.run.jobName, *record.run.submissionId, record.sparkMaster, record.owner);
    m_clusterRuns->poke();
}

void RunManager::rememberDriver(const RunRecord& record) {
    if (record.driverPid <= 0)
        return;
    auto& driver = m_drivers[record.run.jobRunId];
    driver.pid = static_cast<pid_t>(record.driverPid);
    driver.startTicks = record.driverStartTicks;
    driver.logPath = record.logPath;
}

// At start: the drivers this data directory's runs started that still run (a driver outlives the
// service), so that those whose runs ended while this replica was down are stopped.
void RunManager::findDriversLeftRunning() {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(m_dataDir) / "runs", ec)) {
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
void RunManager::stopStrayDrivers(const std::set<std::string>& followed, Clock::time_point now) {
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

void RunManager::stopStrayDriver(const std::string& runId, Driver& driver, Clock::time_point now) {
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
                                                        : statusWord(run->run.status);
    ClusterRunTracker::appendToLog(
        driver.logPath, strayDriverStoppedLogLine(driver.pid, how, run ? run->run.message.value_or("") : ""));
    RunLauncher::signalGroup(driver.pid, SIGTERM);
    driver.killAt = now + m_cancelGrace;
    spdlog::warn("job run {}: its run ended {} while this replica was away; its driver (pid {}) is stopped",
                 runId, how, driver.pid);
}

void RunManager::schedule() {
    if (holdLaunchesBack())
        return;
    if (!queueHasWork())
        return; // nothing to write: the writer is left to admissions
    for (auto& [record, spec] : claimStarts())
        launch(record, spec);
}

// Whether a burst of admissions is under way and launches wait for it: for kLongestDeferral at most,
// then they go on for as long, so a steady stream of RUN JOBs still has its runs started.
bool RunManager::holdLaunchesBack() {
    const auto now = Clock::now();
    const bool burst = now - Clock::time_point(Clock::duration(m_lastAdmission.load())) < kBurstQuiet;
    if (!burst) {
        m_burstSince.reset();
        return false;
    }
    if (!m_burstSince || now - *m_burstSince >= 2 * kLongestDeferral)
        m_burstSince = now;
    return now - *m_burstSince < kLongestDeferral;
}

bool RunManager::stopping() {
    std::lock_guard lock(m_mutex);
    return m_stopping;
}

void RunManager::admitted() {
    m_lastAdmission = Clock::now().time_since_epoch().count();
    m_wakeup.poke();
}

// What claimStarts would do, read without a step: whether it has anything to write (a run to start,
// fail or take over, a waiting reason that changed). Planned again in the step, so a change between
// the two only moves the work to the next tick.
bool RunManager::queueHasWork() {
    auto queued = m_runs.queuedBriefly();
    if (queued.empty())
        return false;
    RunScheduler::InUse inUse = m_runs.runningPerCluster();
    bool launching = false; // a launch to take over or to fail
    std::erase_if(queued, [&](const RunRecord& brief) {
        if (brief.runDir.empty())
            return false;
        launching = launching || mayStart(brief);
        ++inUse[{brief.projectUid, brief.cluster}];
        return true;
    });
    if (launching)
        return true;
    std::map<std::string, const RunRecord*> byId;
    for (const auto& r : queued)
        byId[r.run.jobRunId] = &r;
    const auto plan = RunScheduler::plan(queued, std::move(inUse), clusterCapacity());
    const auto mine = [&](const std::string& id) { return mayStart(*byId[id]); };
    return std::any_of(plan.start.begin(), plan.start.end(), mine) ||
           std::any_of(plan.failing.begin(), plan.failing.end(),
                       [&](const auto& f) { return mine(f.first); }) ||
           std::any_of(plan.waiting.begin(), plan.waiting.end(), [&](const auto& w) {
               return byId[w.first]->run.queueReason != w.second && mine(w.first);
           });
}

std::function<std::optional<int>(const std::string&, const std::string&)> RunManager::clusterCapacity() {
    return [this](const std::string& project, const std::string& name) {
        const auto cluster = m_stores.clusters().findCluster(project, name);
        return cluster ? std::optional<int>(cluster->maxOcu) : std::nullopt;
    };
}

// Whether this replica may start or end a QUEUED run: one no replica has claimed, one it claimed
// itself, or one whose claimant's lease ran out.
bool RunManager::mayStart(const RunRecord& brief) const {
    return brief.owner.empty() || brief.owner == m_leases.self().id() || !m_leases.holds(brief.owner);
}

// In one step, so that replicas sharing the database never start more drivers than a cluster has slots
// for: plans the queue against the slots in use (RUNNING runs and runs being launched anywhere), claims
// the runs this replica starts now (at most kClaimsPerTick) and records their run directories, fails
// the runs that can never start, and writes the waiting runs' reasons.
std::vector<std::pair<RunRecord, LaunchSpec>> RunManager::claimStarts() {
    std::vector<std::pair<RunRecord, LaunchSpec>> starts;
    bool more = false;
    m_stores.unitOfWork().run([&] {
        starts.clear();
        auto queued = m_runs.queuedBriefly();
        RunScheduler::InUse inUse = m_runs.runningPerCluster();
        setAsideLaunching(queued, inUse);
        const auto plan = RunScheduler::plan(queued, std::move(inUse), clusterCapacity());
        std::map<std::string, const RunRecord*> byId;
        for (const auto& r : queued)
            byId[r.run.jobRunId] = &r;
        for (const auto& [id, message] : plan.failing)
            if (mayStart(*byId[id]))
                if (auto record = m_runs.find(byId[id]->projectUid, id))
                    endRun(*record, JobRunStatus::Failed, message);
        for (const auto& [id, reason] : plan.waiting)
            if (byId[id]->run.queueReason != reason && mayStart(*byId[id]))
                m_runs.setQueueReason(id, reason);
        for (const auto& id : plan.start) {
            if (!mayStart(*byId[id]))
                continue; // its claimant starts it
            if (starts.size() == kClaimsPerTick) {
                more = true;
                break;
            }
            auto record = m_runs.find(byId[id]->projectUid, id);
            if (!record)
                continue;
            if (auto spec = prepareLaunch(*record))
                starts.emplace_back(std::move(*record), std::move(*spec));
        }
    });
    if (more)
        m_wakeup.poke(); // the next tick starts the next ones at once
    return starts;
}

// Takes the runs being launched out of `queued`, counting their slots in `inUse`: those this replica
// launched before a restart are taken over (or planned again when nothing was started), those of a
// replica that is gone end FAILED, since they may have started on its host.
void RunManager::setAsideLaunching(std::vector<RunRecord>& queued, RunScheduler::InUse& inUse) {
    std::erase_if(queued, [&](const RunRecord& brief) {
        if (brief.runDir.empty())
            return false;
        if (brief.owner.empty() || brief.owner == m_leases.self().id()) {
            auto record = m_runs.find(brief.projectUid, brief.run.jobRunId);
            if (!record || !takeOverLaunch(*record))
                return !record;                         // nothing was started: planned again
            ++inUse[{brief.projectUid, brief.cluster}]; // launched, or being launched
            return true;
        }
        ++inUse[{brief.projectUid, brief.cluster}]; // being launched by another replica
        if (!m_leases.holds(brief.owner))
            if (auto record = m_runs.find(brief.projectUid, brief.run.jobRunId))
                endRun(*record, JobRunStatus::Failed, goneLauncherMessage(brief.owner));
        return true;
    });
}

// Resolves what the run's driver is started with and claims the run for this replica, recording its
// run directory (inside claimStarts' step); nullopt (the run FAILED) when it cannot start.
std::optional<LaunchSpec> RunManager::prepareLaunch(RunRecord& record) {
    const auto job = m_stores.jobs().findJob(record.projectUid, record.run.jobName);
    if (!job || job->jobId != record.run.jobId) {
        endRun(record, JobRunStatus::Failed, jobGoneBeforeStartMessage(record.run.jobName));
        return std::nullopt;
    }
    const auto classified = classifyParameters(job->parameters);
    if (classified.applicationPath < 0) {
        endRun(record, JobRunStatus::Failed, noApplicationPathMessage(job->name));
        return std::nullopt;
    }
    const std::string& applicationPath =
        job->parameters[static_cast<std::size_t>(classified.applicationPath)];
    const auto resolved = m_resolver.resolve(applicationPath);
    if (!resolved.error.empty()) {
        endRun(record, JobRunStatus::Failed, resolved.error);
        return std::nullopt;
    }
    const auto cluster = m_stores.clusters().findCluster(record.projectUid, record.cluster);

    DriverCommandInput input;
    input.type = job->type;
    input.jobConfiguration.assign(job->parameters.begin(),
                                  job->parameters.begin() + classified.applicationPath);
    input.applicationFile = resolved.localPath;
    input.arguments = record.run.arguments;
    input.runId = record.run.jobRunId;
    const auto effective =
        EffectiveConfig::resolve(cluster ? cluster->with : ConfigPairs{}, job->parameters,
                                 m_stores.projects().projectSettings(record.projectUid), record.run.jobRunId);
    for (const auto& [key, resolvedValue] : effective.spark)
        if (resolvedValue.source == Provenance::PlatformDefault ||
            resolvedValue.source == Provenance::Cluster)
            input.defaultSparkConfigs[key] = resolvedValue.value;
    input.managedSparkConfigs = EffectiveConfig::platformManagedSparkConfigs(record.run.jobRunId);
    for (const auto& [key, resolvedValue] : effective.hudi)
        input.hudiConfigs.emplace_back(key, resolvedValue.value);
    record.clusterMode = !m_clusterMaster.empty();
    record.sparkMaster = m_clusterMaster;
    const RunRecord seen = record;
    record.owner = m_leases.self().id();
    record.ownerEpoch = m_leases.epoch();
    // Recorded before the driver exists, so that a restart finds the driver through its directory.
    record.runDir = (std::filesystem::path(m_dataDir) / "runs" / record.run.jobRunId).string();
    record.logPath = record.runDir + "/driver.log";
    record.run.queueReason = startingDriverReason();
    if (!m_runs.updateIfOwner(record, seen, false))
        return std::nullopt; // claimed by another replica meanwhile
    return launchSpec(record, input, effective);
}

// What RunLauncher starts for the run: the driver itself, spark-submit in client mode, or spark-submit's
// submission client in cluster mode.
LaunchSpec RunManager::launchSpec(const RunRecord& record, const DriverCommandInput& input,
                                  const EffectiveConfig& effective) const {
    LaunchSpec spec;
    spec.runId = record.run.jobRunId;
    spec.runDir = record.runDir;
    spec.logPath = record.logPath;
    spec.argv = record.clusterMode ? SparkSubmitCommand::clusterSubmit(m_sparkSubmit, m_clusterMaster, input)
                : m_useSparkSubmit ? SparkSubmitCommand::sparkSubmit(m_sparkSubmit, input)
                                   : SparkSubmitCommand::local(input);
    spec.exitNotifyPath = m_wakeup.fifoPath();
    spec.extraEnv = {{"ONEHOUSE_JOB_RUN_ID", record.run.jobRunId}, {"HUDI_CONF_DIR", record.runDir}};
    if (!m_useSparkSubmit)
        for (auto& variable : SparkSubmitCommand::localEnvironment(input))
            spec.extraEnv.push_back(std::move(variable));
    spec.hudiDefaults = effective.hudiDefaultsConf();
    spec.maxLogBytes = m_maxLogBytes;
    return spec;
}

void RunManager::launch(RunRecord& record, const LaunchSpec& spec) {
    if (!m_leases.current())
        return; // claimed before a pause: started, if at all, once the lease is renewed (setAsideLaunching)
    const auto launched = RunLauncher::launch(spec);
    if (!launched.error.empty()) {
        endRun(record, JobRunStatus::Failed, driverNotStartedMessage(launched.error));
        return;
    }
    record.run.status = JobRunStatus::Running;
    record.run.queueReason.reset();
    record.run.startedAt = timestampNow();
    record.driverPid = launched.driverPid;
    record.driverStartTicks = launched.driverStartTicks;
    save(record);
    rememberDriver(record);
    spdlog::info("job run {} of job {} started ({} pid {})", record.run.jobRunId, record.run.jobName,
                 record.clusterMode ? "spark-submit" : "driver", launched.driverPid);
}

void RunManager::finish(RunRecord record, const ExitStatus& status,
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
    endRun(record, final, message);
}

// The submission client of a cluster-mode run ended: the run goes on in the cluster under the
// submission id it printed, or it was not submitted.
void RunManager::submitted(RunRecord record, const ExitStatus& status) {
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
        endRun(record, record.cancelRequested ? JobRunStatus::Canceled : JobRunStatus::Failed,
               record.cancelRequested ? canceledByMessage(record.canceledBy)
               : exitedWell           ? noSubmissionIdMessage(record.sparkMaster)
                                      : submissionFailedMessage(record.sparkMaster, how));
        return;
    }
    if (submissionIdIsTaken(record, *id)) {
        spdlog::warn(
            "job run {} of job {}: spark-submit's output names submission id {}, which another run has",
            record.run.jobRunId, record.run.jobName, *id);
        endRun(record, JobRunStatus::Failed, submissionIdTakenMessage(*id));
        return;
    }
    record.run.submissionId = *id;
    m_drivers.erase(record.run.jobRunId); // the submission client's work is done
    // Saved before the log says so. The unique index refuses an id any other run recorded, an ended
    // one or one that recorded it since the look above.
    try {
        if (saveNow({record}) == 0)
            return; // ended, or taken over, meanwhile: that end or that owner decides
    } catch (const DatabaseError& e) {
        if (!e.isConstraintViolation())
            throw;
        spdlog::warn("job run {} of job {}: spark-submit's output names submission id {}, which another "
                     "run recorded",
                     record.run.jobRunId, record.run.jobName, *id);
        record.run.submissionId.reset();
        endRun(record, JobRunStatus::Failed, submissionIdTakenMessage(*id));
        return;
    }
    ClusterRunTracker::appendToLog(
        record.logPath,
        "[jobdeckd: submitted to " + record.sparkMaster + " as " + *id +
            " (deploy mode cluster). The driver runs in the cluster: its own output stays with "
            "the cluster manager (a standalone worker's work/" +
            *id +
            "/stdout and stderr, the driver pod's log on Kubernetes) and is not available "
            "here. What spark-submit --status answers follows.]\n");
    spdlog::info("job run {} of job {} submitted to {} as {}", record.run.jobRunId, record.run.jobName,
                 record.sparkMaster, *id);
    m_clusterRuns->poke();
}

// The texts the run gave spark-submit (the job's options and their values, the application's path and
// arguments): what --verbose echoes, never read as the submission client's answer.
std::vector<std::string> RunManager::passedToSparkSubmit(const RunRecord& record) {
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
bool RunManager::submissionIdIsTaken(const RunRecord& record, const std::string& submissionId) {
    for (const auto& other : m_runs.withStatus(JobRunStatus::Running))
        if (other.run.submissionId == submissionId && other.run.jobRunId != record.run.jobRunId)
            return true;
    return false;
}

// ClusterRunTracker's final state for a submitted run, applied if the run is still the one it saw.
void RunManager::endClusterRun(const RunRecord& seen, JobRunStatus status,
                               std::optional<std::string> message) {
    std::lock_guard lock(m_mutex);
    auto record = m_runs.find(seen.projectUid, seen.run.jobRunId);
    if (!record || record->run.status != JobRunStatus::Running ||
        record->run.submissionId != seen.run.submissionId || record->owner != m_leases.self().id() ||
        !m_leases.current())
        return; // ended, or followed by another replica now
    if (record->cancelRequested) {
        status = JobRunStatus::Canceled;
        message = canceledByMessage(record->canceledBy);
    }
    endRun(*record, status, std::move(message));
}

void RunManager::endRun(RunRecord& record, JobRunStatus status, std::optional<std::string> message) {
    if (record.owner == m_leases.self().id())
        m_drivers.erase(record.run.jobRunId); // ended here: what is left of its process group is not a stray
    record.run.status = status;
    record.run.queueReason.reset();
    record.run.message = std::move(message);
    if (!record.run.endedAt)
        record.run.endedAt = timestampNow();
    save(record);
    spdlog::info("job run {} of job {} ended {}", record.run.jobRunId, record.run.jobName,
                 jobRunStatusName(status));
}

void RunManager::applyRetention() {
    const auto cutoff = std::chrono::system_clock::now() - std::chrono::hours(24) * m_retentionDays;
    for (const auto& record : m_runs.endedBefore(formatTimestamp(cutoff))) {
        if (!record.runDir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(record.runDir, ec);
        }
        m_runs.remove(record.run.jobRunId);
    }
    // Directories whose row went with a deleted Job.
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(m_dataDir) / "runs", ec)) {
        std::error_code statError;
        const auto written = fs::last_write_time(entry.path(), statError);
        if (statError ||
            written > fs::file_time_type::clock::now() - std::chrono::hours(24) * m_retentionDays)
            continue;
        if (!m_runs.exists(entry.path().filename().string()))
            fs::remove_all(entry.path(), statError);
    }
}

// Inside a tick the state is written with the tick's other changes (saveNow); otherwise at once.
void RunManager::save(const RunRecord& record) {
    if (m_tickSaves)
        m_tickSaves->push_back(record);
    else
        saveNow({record});
}

// The new states and their events in one commit (one fsync, and a reader never sees one without the
// other), then the event waiters are woken. Each row is read again in the step: a run another replica
// (or a cancel) ended meanwhile keeps that end, and a cancel asked meanwhile is kept.
int RunManager::saveNow(std::vector<RunRecord> records) {
    if (records.empty())
        return 0;
    int written = 0;
    m_stores.unitOfWork().run([&] {
        written = 0; // a step tried again starts over
        auto projects = std::make_shared<std::set<std::string>>();
        // Woken once the outermost step committed (a cancel's step may hold this one).
        m_stores.unitOfWork().onStepEnd([this, projects](bool committed) {
            if (committed)
                for (const auto& project : *projects)
                    m_events.wake(project);
        });
        for (auto& record : records) {
            const auto current = m_runs.find(record.projectUid, record.run.jobRunId);
            if (!current || !isActive(current->run.status))
                continue;
            if (current->cancelRequested && !record.cancelRequested) {
                record.cancelRequested = true;
                record.canceledBy = current->canceledBy;
            }
            // Written only while the run has the owner (and owner epoch) it was read with, and, as its
            // owner, only while this replica's lease has that epoch: a replica paused past its lease
            // never takes back a run another replica took over.
            const bool asOwner = record.owner == m_leases.self().id();
            if (current->owner != record.owner || current->ownerEpoch != record.ownerEpoch ||
                !m_runs.updateIfOwner(record, *current, asOwner)) {
                spdlog::info("job run {}: not written, its owner changed (now {})", record.run.jobRunId,
                             current->owner.empty() ? std::string("none") : current->owner);
                continue;
            }
            m_stores.events().appendEvent(record.projectUid, statusEvent(record));
            projects->insert(record.projectUid);
            ++written;
        }
    });
    return written;
}

ApiStatus RunManager::runJob(const RequestContext& context, const RunJobStatement& statement,
                             const AdmissionRecorder& recordWithAdmission) {
    return m_admissions->admit(context, statement, recordWithAdmission);
}

std::optional<RunRecord> RunManager::findRun(const std::string& projectUid, const std::string& jobName,
                                             const std::string& runId) {
    auto record = m_runs.find(projectUid, runId);
    if (!record || record->run.jobName != jobName)
        return std::nullopt;
    return record;
}

ApiStatus RunManager::describeJobRun(const RequestContext& context,
                                     const DescribeJobRunStatement& statement) {
    try {
        const auto record = findRun(context.principal.projectUid, statement.jobName, statement.runId);
        if (!record)
            return ApiStatus::failed(jobRunNotFoundMessage(statement.runId, statement.jobName));
        return ApiStatus::success({{"describeJobRunApiResponse", {{"sparkJobRun", runJson(*record)}}}});
    } catch (const std::exception& e) {
        return failedInternally(context, "DESCRIBE JOB_RUN", e);
    }
}

ApiStatus RunManager::cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement) {
    try {
        std::lock_guard lock(m_mutex);
        std::optional<RunRecord> asked; // the run whose cancel was recorded now, still to be acted on
        ApiStatus answer = m_stores.unitOfWork().run([&]() -> ApiStatus {
            asked.reset();
            auto record = findRun(context.principal.projectUid, statement.jobName, statement.runId);
            if (!record)
                return ApiStatus::failed(jobRunNotFoundMessage(statement.runId, statement.jobName));
            if (!isActive(record->run.status))
                return ApiStatus::failed(
                    runAlreadyEndedMessage(statement.runId, statusWord(record->run.status)));
            if (!record->cancelRequested) {
                record->cancelRequested = true;
                record->canceledBy = who(context);
                if (record->run.status == JobRunStatus::Queued && record->runDir.empty())
                    endRun(*record, JobRunStatus::Canceled, canceledByMessage(record->canceledBy));
                else // its owner stops the driver (or the one being started)
                    m_runs.update(*record);
                asked = std::move(record);
            }
            return ApiStatus::success({{"cancelJobRunApiResponse", {{"jobRunId", statement.runId}}}});
        });
        if (asked && isActive(asked->run.status))
            stopCanceled(*asked);
        return answer;
    } catch (const std::exception& e) {
        return failedInternally(context, "CANCEL JOB_RUN", e);
    }
}

// After a cancel of a RUNNING run (or one being started) was recorded: the driver gets TERM now when
// this replica started it; its own replica sends it otherwise (on its next tick). A client-mode driver
// of a replica that is gone cannot be reached from here: the run ends CANCELED saying so.
void RunManager::stopCanceled(RunRecord& record) {
    const std::string& self = m_leases.self().id();
    if (record.owner == self || record.owner.empty()) {
        if (record.run.status != JobRunStatus::Running)
            return; // being started on this replica: the tick that started it sees the cancel
        if (record.clusterMode) {
            m_clusterRuns->poke(); // it sends spark-submit --kill
        } else {
            RunLauncher::signalGroup(static_cast<pid_t>(record.driverPid), SIGTERM);
            m_killAt[record.run.jobRunId] = Clock::now() + m_cancelGrace;
        }
    } else if (!m_leases.holdsNow(record.owner) && !(record.clusterMode && record.run.submissionId)) {
        endRun(record, JobRunStatus::Canceled,
               goneReplicaCancelMessage(record.canceledBy, record.owner, record.driverPid));
    }
    m_wakeup.poke();
}

ApiStatus RunManager::showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement) {
    if (auto problem = listLimitProblem(statement.limit))
        return ApiStatus::failed(*problem);
    try {
        if (statement.jobName && !m_stores.jobs().findJob(context.principal.projectUid, *statement.jobName))
            return ApiStatus::failed(jobNotFoundMessage(*statement.jobName));
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& record : m_runs.list(context.principal.projectUid, statement.jobName,
                                              statement.activeOnly, statement.limit))
            runs.push_back(runJson(record));
        return ApiStatus::success({{"showJobRunsApiResponse", {{"sparkJobRuns", runs}}}});
    } catch (const std::exception& e) {
        return failedInternally(context, "SHOW JOB_RUNS", e);
    }
}

} // namespace jobdeck
