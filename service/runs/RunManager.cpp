#include "service/runs/RunManager.h"

#include "core/parameters/SecretMasking.h"
#include "service/runs/ClusterRunTracker.h"
#include "service/runs/DriverWatch.h"
#include "service/runs/LaunchPacing.h"
#include "service/runs/RunAdmissions.h"
#include "service/runs/RunClaims.h"
#include "service/runs/RunRetention.h"
#include "service/runs/RunSecrets.h"
#include "service/runs/RunStatements.h"
#include "service/runs/RunWriter.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

namespace jobdeck {
namespace {

// How often the scheduler looks when nothing woke it: driver exits and admissions wake it at once.
constexpr auto kTick = std::chrono::milliseconds(150);

RunClaims::Settings claimSettings(const RunOptions& options, const std::string& dataDir) {
    RunClaims::Settings settings;
    settings.dataDir = dataDir;
    const char* sparkHome = std::getenv("SPARK_HOME");
    settings.useSparkSubmit = options.runner == "spark-submit" || (sparkHome && *sparkHome);
    settings.sparkSubmit = options.sparkSubmit;
    if (sparkHome && *sparkHome && settings.sparkSubmit == "spark-submit")
        settings.sparkSubmit = (std::filesystem::path(sparkHome) / "bin" / "spark-submit").string();
    if (options.deployMode == "cluster")
        settings.clusterMaster = options.sparkMaster;
    settings.maxLogBytes = options.maxLogBytes;
    return settings;
}

} // namespace

RunManager::RunManager(Stores& stores, EventBus& events, const RunOptions& options, ReplicaIdentity replica)
    : m_runs(stores.runs())
    , m_wakeup(std::filesystem::absolute(options.dataDir).string() + "/run-exits.fifo")
    , m_leases(stores, std::move(replica), options.leaseTimeout) {
    // Absolute, because drivers and their monitors run in the run directory.
    const std::string dataDir = std::filesystem::absolute(options.dataDir).string();
    auto settings = claimSettings(options, dataDir);
    m_writer = std::make_unique<RunWriter>(stores, events, m_leases);
    // Runs submitted earlier are followed whatever this process's deploy mode is.
    m_clusterRuns = std::make_unique<ClusterRunTracker>(
        m_runs, m_leases.self().id(), settings.sparkSubmit, options.clusterStatusInterval,
        options.shutdownGrace,
        [this, allStores = &stores](const RunRecord& seen, JobRunStatus status,
                                    std::optional<std::string> message) {
            // The cluster manager's reason may quote what the driver was given.
            if (message)
                scrubSecrets(*message, runSecretValuesOf(*allStores, seen));
            std::lock_guard lock(m_mutex);
            m_drivers->endClusterRun(seen, status, std::move(message));
        },
        [this] { return m_leases.current(); });
    m_drivers = std::make_unique<DriverWatch>(
        stores, *m_writer, m_leases, *m_clusterRuns, m_wakeup,
        DriverWatch::Settings{dataDir, options.cancelGrace, options.orphanedRunTimeout});
    m_claims =
        std::make_unique<RunClaims>(stores, *m_writer, m_leases, *m_drivers, m_wakeup,
                                    ApplicationPathResolver(dataDir, options.s3Map), std::move(settings));
    m_retention = std::make_unique<RunRetention>(m_runs, dataDir, options.retentionDays);
    m_statements = std::make_unique<RunStatements>(
        stores, *m_writer, m_mutex, [this](RunRecord& record) { m_drivers->stopCanceled(record); });
    // A burst of admissions holds launches back on every replica sharing the database.
    m_admissions = std::make_unique<RunAdmissions>(stores, events, m_metrics, [this, &stores] {
        m_claims->admitted();
        stores.announceAdmissions();
    });
}

RunManager::~RunManager() {
    stop();
}

void RunManager::start() {
    m_leases.claim(); // throws when another live jobdeckd has this replica id
    m_drivers->findDriversLeftRunning();
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
        if (m_claims->burstUnderWay()) // each admission group pokes: look every kBurstQuiet only
            for (const auto until = std::chrono::steady_clock::now() + LaunchPacing::kBurstQuiet;
                 std::chrono::steady_clock::now() < until && !stopping();)
                m_wakeup.wait(std::chrono::duration_cast<std::chrono::milliseconds>(
                                  until - std::chrono::steady_clock::now()) +
                              std::chrono::milliseconds(1));
        else
            m_wakeup.wait(kTick);
        lock.lock();
    }
}

bool RunManager::stopping() {
    std::lock_guard lock(m_mutex);
    return m_stopping;
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
    // The tick's changes are written together: one step after watching, one after scheduling.
    m_writer->beginTick();
    struct TickEnd {
        RunWriter& writer;
        ~TickEnd() { writer.endTick(); } // a tick that threw: what it saw is seen again next tick
    } tickEnd{*m_writer};
    m_drivers->watchRunning();
    m_writer->flush(); // the slots ended runs held are free for schedule()
    m_claims->schedule();
    m_writer->flush();
    m_retention->sweepWhenDue();
}

void RunManager::admittedElsewhere() {
    m_claims->admitted();
}

ApiStatus RunManager::runJob(const RequestContext& context, const RunJobStatement& statement,
                             const AdmissionRecorder& recordWithAdmission) {
    return m_admissions->admit(context, statement, recordWithAdmission);
}

ApiStatus RunManager::describeJobRun(const RequestContext& context,
                                     const DescribeJobRunStatement& statement) {
    return m_statements->describeJobRun(context, statement);
}

ApiStatus RunManager::cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement) {
    return m_statements->cancelJobRun(context, statement);
}

ApiStatus RunManager::showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement) {
    return m_statements->showJobRuns(context, statement);
}

std::optional<RunRecord> RunManager::findRun(const std::string& projectUid, const std::string& jobName,
                                             const std::string& runId) {
    return m_statements->findRun(projectUid, jobName, runId);
}

} // namespace jobdeck
