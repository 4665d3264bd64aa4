#include "service/runs/RunClaims.h"

#include "core/hudi/EffectiveConfig.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ReplicaMessages.h"
#include "core/policy/RunEndMessages.h"
#include "service/runs/DriverWatch.h"
#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunLauncher.h"
#include "service/runs/RunWakeup.h"
#include "service/runs/RunWriter.h"
#include "service/runs/SparkSubmitCommand.h"
#include "service/stores/Stores.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <utility>

namespace jobdeck {
namespace {

// Drivers started per tick at most: the runs claimed wait in "Starting the driver" until their tick's
// launches are recorded, and a cancel waits for the tick.
constexpr std::size_t kClaimsPerTick = 32;

} // namespace

// Inside a claim step, a cluster's row is held from its first read on (findCluster locks it where rows
// are locked), and jobs and projects are read as committed: a second read would decide nothing new.
class RunClaims::SharedReads final {
public:
    explicit SharedReads(Stores& stores)
        : m_stores(stores) {}

    const std::optional<Cluster>& cluster(const std::string& projectUid, const std::string& name) {
        auto [it, added] = m_clusters.try_emplace({projectUid, name});
        if (added)
            it->second = m_stores.clusters().findCluster(projectUid, name);
        return it->second;
    }
    // Neither held nor waited for: whether a cluster this step does not plan exists.
    bool clusterExists(const std::string& projectUid, const std::string& name) {
        auto [it, added] = m_committedClusters.try_emplace({projectUid, name}, false);
        if (added)
            it->second = m_stores.clusters().findClusterAsCommitted(projectUid, name).has_value();
        return it->second;
    }
    const std::optional<SparkJob>& job(const std::string& projectUid, const std::string& name) {
        auto [it, added] = m_jobs.try_emplace({projectUid, name});
        if (added)
            it->second = m_stores.jobs().findJobAsCommitted(projectUid, name);
        return it->second;
    }
    const ProjectSettings& projectSettings(const std::string& projectUid) {
        auto it = m_projects.find(projectUid);
        if (it == m_projects.end())
            it = m_projects.emplace(projectUid, m_stores.projects().projectSettingsAsCommitted(projectUid))
                     .first;
        return it->second;
    }

private:
    using Key = std::pair<std::string, std::string>; // project uid, name
    Stores& m_stores;
    std::map<Key, std::optional<Cluster>> m_clusters;
    std::map<Key, bool> m_committedClusters;
    std::map<Key, std::optional<SparkJob>> m_jobs;
    std::map<std::string, ProjectSettings> m_projects;
};

RunClaims::RunClaims(Stores& stores, RunWriter& writer, const ReplicaLeases& leases, DriverWatch& drivers,
                     RunWakeup& wakeup, ApplicationPathResolver resolver, Settings settings)
    : m_stores(stores)
    , m_runs(stores.runs())
    , m_writer(writer)
    , m_leases(leases)
    , m_drivers(drivers)
    , m_wakeup(wakeup)
    , m_resolver(std::move(resolver))
    , m_settings(std::move(settings)) {}

void RunClaims::admitted() {
    m_pacing.admitted(LaunchPacing::Clock::now());
    m_wakeup.poke();
}

void RunClaims::schedule() {
    if (m_pacing.holdBack(LaunchPacing::Clock::now()))
        return;
    // After a tick that claimed as many as it may, the queue surely has work: it is not read twice.
    if (!m_claimedToTheLimit && !queueHasWork())
        return; // nothing to write: the writer is left to admissions
    auto starts = claimStarts();
    m_drivers.launch(starts);
}

// What claimStarts would do, read without a step: whether it has anything to write (a run to start,
// fail or take over, a waiting reason that changed). Planned again in the step, so a change between
// the two only moves the work to the next tick. What it decides on is in the database, except whether
// another replica's lease still holds: a look that found nothing to write, and did not rest on such a
// lease, holds while nothing is committed (the change stamp, read before the queue, stays), so an idle
// tick reads the stamp alone.
bool RunClaims::queueHasWork() {
    const std::uint64_t stamp = m_stores.changeStamp().current();
    if (m_nothingToWriteAt == stamp)
        return false;
    bool restsOnLeases = false;
    const bool work = countsShowWork(restsOnLeases);
    m_nothingToWriteAt = work || restsOnLeases ? std::nullopt : std::optional(stamp);
    return work;
}

// The queue is read as counts (RunStore::queuedCounts): a long queue waiting for driver slots costs a
// look one grouped count, not a read of every run. `restsOnLeases`: a run being launched by another
// replica was left to it.
bool RunClaims::countsShowWork(bool& restsOnLeases) {
    const auto queued = m_runs.queuedCounts();
    if (queued.empty())
        return false;
    RunScheduler::InUse inUse;
    for (const auto& counted : queued) {
        if (!counted.launching)
            continue;
        if (mayStart(counted.owner))
            return true; // a launch to take over or to fail
        restsOnLeases = true;
        inUse[{counted.projectUid, counted.cluster}] += counted.count;
    }
    for (const auto& [cluster, running] : m_runs.runningPerCluster())
        inUse[cluster] += running;
    SharedReads reads(m_stores);
    return RunScheduler::changesAny(queued, inUse, clusterCapacity(reads));
}

RunScheduler::Capacity RunClaims::clusterCapacity(SharedReads& reads) {
    return [&reads](const std::string& project, const std::string& name) {
        const auto& cluster = reads.cluster(project, name);
        return cluster ? std::optional<int>(cluster->maxOcu) : std::nullopt;
    };
}

// Whether this replica may start or end a QUEUED run claimed by `claimant`: one no replica has claimed,
// one it claimed itself, or one whose claimant's lease ran out.
bool RunClaims::mayStart(const std::string& claimant) const {
    return claimant.empty() || claimant == m_leases.self().id() || !m_leases.holds(claimant);
}

// In one step, so that replicas sharing the database never start more drivers than a cluster has slots
// for: plans the queue against the slots in use (RUNNING runs and runs being launched anywhere), claims
// the runs this replica starts now (at most kClaimsPerTick) and records their run directories, fails
// the runs that can never start, and writes the waiting runs' reasons.
std::vector<std::pair<RunRecord, LaunchSpec>> RunClaims::claimStarts() {
    std::vector<std::pair<RunRecord, LaunchSpec>> starts;
    bool more = false;
    m_claimedToTheLimit = false;
    m_stores.unitOfWork().run([&] {
        starts.clear();
        SharedReads reads(m_stores);
        const auto mine = planClaims(reads, more);
        auto records = m_runs.findEach(mine);
        for (const auto& [projectUid, id] : mine)
            if (const auto it = records.find(id); it != records.end())
                if (auto spec = prepareLaunch(it->second, reads))
                    starts.emplace_back(std::move(it->second), std::move(*spec));
    });
    m_claimedToTheLimit = more;
    if (more)
        m_wakeup.poke(); // the next tick starts the next ones at once
    return starts;
}

// Inside claimStarts' step: the queue's counts say which clusters have queued runs; of each cluster this
// step plans, only the oldest runs it has free slots for are read (so a claim reads what it may start,
// not the whole queue), and the runs of a cluster that is gone, to fail them. RunScheduler::plan decides
// on those; the runs left waiting are given their reason in one write per cluster. Returns the runs this
// tick claims (project, id), oldest first; `more`: it could have claimed more.
std::vector<std::pair<std::string, std::string>> RunClaims::planClaims(SharedReads& reads, bool& more) {
    more = false;
    // The clusters first: what is read after their rows are held includes every claim of their runs
    // another replica committed, so no slot is counted free that such a claim took.
    const auto clusters = m_runs.clustersWithQueue();
    const auto counted = m_runs.queuedCounts();
    RunScheduler::InUse inUse = m_runs.runningPerCluster();
    std::vector<RunStore::QueuedRun> planned = setAsideLaunching(counted, inUse);
    const auto capacity = clusterCapacity(reads); // of the clusters this step holds, and of gone ones
    // A cluster this step does not plan (another replica's step holds it, or its first queued run came
    // after the clusters were read) is never read where it would be waited for: only whether it exists.
    const auto notPlannedHere = [&](const RunScheduler::InUse::key_type& key) {
        return !clusters.claimed.contains(key) &&
               (clusters.held.contains(key) || reads.clusterExists(key.first, key.second));
    };
    // A launch planned again waits for a tick that claims its cluster, unless the cluster is gone.
    std::erase_if(planned, [&](const RunStore::QueuedRun& q) {
        return notPlannedHere({q.run.projectUid, q.run.cluster});
    });
    std::map<RunScheduler::InUse::key_type, int> waiting; // queued runs per cluster, beyond its free slots
    for (const auto& c : counted)
        if (!c.launching)
            waiting[{c.projectUid, c.cluster}] += c.count;
    for (auto& [key, queued] : waiting) {
        const auto& [projectUid, cluster] = key;
        if (notPlannedHere(key)) {
            queued = 0; // planned by another replica now, or by the next tick
            continue;
        }
        const auto slots = capacity(projectUid, cluster);
        if (!slots) { // gone: every run on it fails
            std::ranges::move(m_runs.queuedOn(projectUid, cluster, queued), std::back_inserter(planned));
            queued = 0;
            continue;
        }
        const int free = std::max(0, *slots - inUse[key]);
        if (free > 0)
            std::ranges::move(m_runs.queuedOn(projectUid, cluster, std::min<int>(free, kClaimsPerTick + 1)),
                              std::back_inserter(planned));
        queued -= free;
    }
    std::ranges::sort(planned, {}, &RunStore::QueuedRun::position);
    std::vector<RunRecord> queue;
    queue.reserve(planned.size());
    for (auto& q : planned)
        queue.push_back(std::move(q.run));
    const auto plan = RunScheduler::plan(queue, inUse, capacity);
    // The runs past each cluster's free slots wait, all with one reason: one write per cluster, only
    // where the counts show a run without it.
    for (const auto& change : RunScheduler::reasonChanges(counted, waiting, inUse, capacity))
        m_runs.setWaitingReason(change.cluster.first, change.cluster.second, change.skip, change.reason);
    return applyPlan(plan, queue, more);
}

// Fails the runs the plan fails and returns those this replica claims now: at most kClaimsPerTick
// (`more`: the plan starts more), leaving any another replica claimed to it.
std::vector<std::pair<std::string, std::string>>
RunClaims::applyPlan(const RunScheduler::Plan& plan, const std::vector<RunRecord>& queue, bool& more) {
    std::map<std::string, const RunRecord*> byId;
    for (const auto& r : queue)
        byId[r.run.jobRunId] = &r;
    for (const auto& [id, message] : plan.failing)
        if (mayStart(byId[id]->owner))
            if (auto record = m_runs.find(byId[id]->projectUid, id))
                m_writer.end(*record, JobRunStatus::Failed, message, RunActor::Claimant);
    std::vector<std::pair<std::string, std::string>> mine; // in plan order
    for (const auto& id : plan.start) {
        if (!mayStart(byId[id]->owner))
            continue; // its claimant starts it
        if (mine.size() == kClaimsPerTick) {
            more = true;
            break;
        }
        mine.emplace_back(byId[id]->projectUid, id);
    }
    return mine;
}

// The runs being launched: those this replica launched before a restart are taken over (or, when
// nothing was started, returned to be planned again), those of a replica that is gone end FAILED, since
// they may have started on its host; each one still launching takes a slot in `inUse`. Read run by run
// only when the counts show one this replica may take over or fail; else they are counted.
std::vector<RunStore::QueuedRun>
RunClaims::setAsideLaunching(const std::vector<RunStore::QueuedCount>& counted, RunScheduler::InUse& inUse) {
    const bool toSettle = std::ranges::any_of(
        counted, [&](const RunStore::QueuedCount& c) { return c.launching && mayStart(c.owner); });
    if (!toSettle) {
        for (const auto& c : counted)
            if (c.launching)
                inUse[{c.projectUid, c.cluster}] += c.count;
        return {};
    }
    auto launching = m_runs.queuedLaunching();
    std::erase_if(launching, [&](const RunStore::QueuedRun& queued) {
        const RunRecord& brief = queued.run;
        if (brief.owner.empty() || brief.owner == m_leases.self().id()) {
            auto record = m_runs.find(brief.projectUid, brief.run.jobRunId);
            if (!record || !m_drivers.takeOverLaunch(*record))
                return !record;                         // nothing was started: planned again
            ++inUse[{brief.projectUid, brief.cluster}]; // launched, or being launched
            return true;
        }
        ++inUse[{brief.projectUid, brief.cluster}]; // being launched by another replica
        if (!m_leases.holds(brief.owner))
            if (auto record = m_runs.find(brief.projectUid, brief.run.jobRunId))
                m_writer.end(*record, JobRunStatus::Failed, goneLauncherMessage(brief.owner),
                             RunActor::Successor);
        return true;
    });
    return launching;
}

// Resolves what the run's driver is started with and claims the run for this replica, recording its
// run directory (inside claimStarts' step); nullopt (the run FAILED) when it cannot start.
std::optional<LaunchSpec> RunClaims::prepareLaunch(RunRecord& record, SharedReads& reads) {
    const RunActor by = claimingActor(record);
    // Read as committed: the claim decides on the run's row and its cluster's (held), not on the job
    // or the project, so admissions of the job and ALTERs do not wait for this step. A DROP JOB is
    // refused while the run is active; an ALTER committed meanwhile applies from the next run.
    const auto& job = reads.job(record.projectUid, record.run.jobName);
    if (!job || job->jobId != record.run.jobId) {
        m_writer.end(record, JobRunStatus::Failed, jobGoneBeforeStartMessage(record.run.jobName), by);
        return std::nullopt;
    }
    const auto classified = classifyParameters(job->parameters);
    if (classified.applicationPath < 0) {
        m_writer.end(record, JobRunStatus::Failed, noApplicationPathMessage(job->name), by);
        return std::nullopt;
    }
    const std::string& applicationPath =
        job->parameters[static_cast<std::size_t>(classified.applicationPath)];
    const auto resolved = m_resolver.resolve(applicationPath);
    if (!resolved.error.empty()) {
        m_writer.end(record, JobRunStatus::Failed, resolved.error, by);
        return std::nullopt;
    }
    const auto& cluster = reads.cluster(record.projectUid, record.cluster);

    DriverCommandInput input;
    input.type = job->type;
    input.jobConfiguration.assign(job->parameters.begin(),
                                  job->parameters.begin() + classified.applicationPath);
    input.applicationFile = resolved.localPath;
    input.arguments = record.run.arguments;
    input.runId = record.run.jobRunId;
    const auto effective =
        EffectiveConfig::resolve(cluster ? cluster->with : ConfigPairs{}, job->parameters,
                                 reads.projectSettings(record.projectUid), record.run.jobRunId);
    for (const auto& [key, resolvedValue] : effective.spark)
        if (resolvedValue.source == Provenance::PlatformDefault ||
            resolvedValue.source == Provenance::Cluster)
            input.defaultSparkConfigs[key] = resolvedValue.value;
    input.managedSparkConfigs = EffectiveConfig::platformManagedSparkConfigs(record.run.jobRunId);
    for (const auto& [key, resolvedValue] : effective.hudi)
        input.hudiConfigs.emplace_back(key, resolvedValue.value);
    record.clusterMode = !m_settings.clusterMaster.empty();
    record.sparkMaster = m_settings.clusterMaster;
    record.launchSecrets =
        runSecretValues(job->parameters, record.run.arguments, cluster ? cluster->with : ConfigPairs{});
    const RunRecord seen = record;
    record.owner = m_leases.self().id();
    record.ownerEpoch = m_leases.epoch();
    // Recorded before the driver exists, so that a restart finds the driver through its directory.
    record.runDir = (std::filesystem::path(m_settings.dataDir) / "runs" / record.run.jobRunId).string();
    record.logPath = record.runDir + "/driver.log";
    record.run.queueReason = startingDriverReason();
    if (!m_writer.claim(record, seen))
        return std::nullopt; // claimed by another replica meanwhile
    return launchSpec(record, input, effective);
}

// What RunLauncher starts for the run: the driver itself, spark-submit in client mode, or spark-submit's
// submission client in cluster mode.
LaunchSpec RunClaims::launchSpec(const RunRecord& record, const DriverCommandInput& input,
                                 const EffectiveConfig& effective) const {
    LaunchSpec spec;
    spec.runId = record.run.jobRunId;
    spec.runDir = record.runDir;
    spec.logPath = record.logPath;
    spec.argv = record.clusterMode          ? SparkSubmitCommand::clusterSubmit(m_settings.sparkSubmit,
                                                                                m_settings.clusterMaster, input)
                : m_settings.useSparkSubmit ? SparkSubmitCommand::sparkSubmit(m_settings.sparkSubmit, input)
                                            : SparkSubmitCommand::local(input);
    spec.exitNotifyPath = m_wakeup.fifoPath();
    spec.extraEnv = {{"ONEHOUSE_JOB_RUN_ID", record.run.jobRunId}, {"HUDI_CONF_DIR", record.runDir}};
    if (!m_settings.useSparkSubmit)
        for (auto& variable : SparkSubmitCommand::localEnvironment(input))
            spec.extraEnv.push_back(std::move(variable));
    spec.hudiDefaults = effective.hudiDefaultsConf();
    spec.maxLogBytes = m_settings.maxLogBytes;
    return spec;
}

} // namespace jobdeck
