#include "service/runs/ClusterRunTracker.h"

#include "core/parameters/SecretMasking.h"
#include "core/policy/RunEndMessages.h"
#include "core/wire/Timestamp.h"
#include "service/runs/SparkSubmitCommand.h"

#include <spdlog/spdlog.h>

#include <fstream>
#include <set>

namespace jobdeck {
namespace {

using Kind = DriverStatus::Kind;

// One spark-submit --status or --kill; a JVM on a busy host, hence the generous limit.
constexpr auto kCommandTimeout = std::chrono::seconds(60);
constexpr std::size_t kMaxOutputBytes = std::size_t{1} << 20;
// A kill the cluster manager did not act on is sent again after this long.
constexpr auto kKillRepeat = std::chrono::seconds(30);

std::string firstLine(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

// The cluster's reason, without the REST server's "Exception from the cluster:" heading.
std::string clusterReason(const std::string& message) {
    const std::string heading = "Exception from the cluster:\n";
    return firstLine(message.rfind(heading, 0) == 0 ? message.substr(heading.size()) : message);
}

// What a changed answer adds to the run's log: a heading line, then spark-submit's output.
void appendAnswer(const RunRecord& record, const std::string& what, const std::string& output) {
    std::string text = "[jobdeckd: " + formatTimestamp(timestampNow()) + " " + what + "]\n" + output;
    if (!output.empty() && output.back() != '\n')
        text += '\n';
    ClusterRunTracker::appendToLog(record.logPath, text);
}

std::string answerName(const DriverStatus& status, const CommandResult& result) {
    switch (status.kind) {
    case Kind::NotFound:
        return "submission not found";
    case Kind::Unreadable:
        if (!status.message.empty())
            return status.message;
        return result.error.empty()
                   ? "no driver state in the answer (exit code " + std::to_string(result.exitCode) + ")"
                   : result.error;
    default:
        return "driver state " + status.state;
    }
}

} // namespace

ClusterRunTracker::ClusterRunTracker(RunStore& runs, std::string replicaId, std::string sparkSubmit,
                                     std::chrono::seconds interval, std::chrono::seconds shutdownGrace,
                                     EndRun end, std::function<bool()> mayFollow)
    : m_runs(runs)
    , m_replicaId(std::move(replicaId))
    , m_sparkSubmit(std::move(sparkSubmit))
    , m_interval(interval)
    , m_shutdownGrace(shutdownGrace)
    , m_end(std::move(end))
    , m_mayFollow(std::move(mayFollow)) {}

ClusterRunTracker::~ClusterRunTracker() {
    stop();
}

void ClusterRunTracker::start() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = false;
    }
    m_commandStop.stopBy(std::chrono::steady_clock::time_point::max());
    m_thread = std::thread([this] { loop(); });
    for (int i = 0; i < kParallelCommands; ++i)
        m_workers.emplace_back([this] { work(); });
}

void ClusterRunTracker::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_queue.clear();
    }
    // A spark-submit under way gets the grace to answer; one that hangs is killed then.
    m_commandStop.stopBy(std::chrono::steady_clock::now() + m_shutdownGrace);
    m_wake.notify_all();
    m_queued.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    for (auto& worker : m_workers)
        worker.join();
    m_workers.clear();
    m_asking.clear();
}

void ClusterRunTracker::poke() {
    {
        std::lock_guard lock(m_mutex);
        m_poked = true;
    }
    m_wake.notify_all();
}

void ClusterRunTracker::loop() {
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_poked = false;
        lock.unlock();
        try {
            followAll();
        } catch (const std::exception& e) {
            spdlog::error("cluster run tracker: {}", e.what());
        }
        lock.lock();
        m_wake.wait_for(lock, m_interval, [this] { return m_stopping || m_poked; });
    }
}

void ClusterRunTracker::work() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_queued.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_stopping)
            return;
        const RunRecord record = std::move(m_queue.front());
        m_queue.pop_front();
        Followed& followed = m_followed[record.run.jobRunId];
        lock.unlock();
        try {
            follow(record, followed);
        } catch (const std::exception& e) {
            spdlog::error("cluster run tracker: job run {}: {}", record.run.jobRunId, e.what());
        }
        lock.lock();
        m_asking.erase(record.run.jobRunId);
    }
}

void ClusterRunTracker::followAll() {
    if (!m_mayFollow())
        return; // the lease may have run out: another replica may be following these runs now
    std::set<std::string> running;
    for (auto& record : m_runs.withStatus(JobRunStatus::Running)) {
        if (!record.clusterMode || !record.run.submissionId)
            continue; // not submitted yet: DriverWatch watches its spark-submit
        if (!record.owner.empty() && record.owner != m_replicaId)
            continue; // another replica follows it
        running.insert(record.run.jobRunId);
        std::lock_guard lock(m_mutex);
        if (m_stopping)
            return;
        // A run whose last question is still queued or unanswered is not asked again meanwhile.
        if (m_asking.insert(record.run.jobRunId).second)
            m_queue.push_back(std::move(record));
    }
    m_queued.notify_all();
    std::lock_guard lock(m_mutex);
    std::erase_if(m_followed, [&](const auto& entry) {
        return !running.count(entry.first) && !m_asking.count(entry.first);
    });
}

void ClusterRunTracker::follow(const RunRecord& record, Followed& followed) {
    if (record.cancelRequested &&
        (!followed.killSentAt || std::chrono::steady_clock::now() - *followed.killSentAt >= kKillRepeat))
        sendKill(record, followed);
    const std::string& id = *record.run.submissionId;
    const auto result =
        CapturedCommand::run(SparkSubmitCommand::clusterStatus(m_sparkSubmit, record.sparkMaster, id),
                             kCommandTimeout, kMaxOutputBytes, &m_commandStop);
    if (result.stopped)
        return; // the service shuts down: the next one asks again
    const DriverStatus status = SubmissionOutput::driverStatus(result.output, id);
    const std::string answer = answerName(status, result);
    if (answer != followed.lastAnswer) {
        followed.lastAnswer = answer;
        appendAnswer(record, "spark-submit --status " + id + ": " + answer, result.output);
        if (status.kind == Kind::Unreadable) {
            std::string shown = answer; // spark-submit's own error line may quote what the run was given
            scrubSecrets(shown, record.launchSecrets);
            spdlog::warn("job run {}: spark-submit --status {} --master {}: {}", record.run.jobRunId, id,
                         maskArgument(record.sparkMaster), shown);
        }
    }
    if (auto end = outcome(record, status, followed))
        m_end(record, end->first, std::move(end->second));
}

void ClusterRunTracker::sendKill(const RunRecord& record, Followed& followed) {
    const std::string& id = *record.run.submissionId;
    const auto result =
        CapturedCommand::run(SparkSubmitCommand::clusterKill(m_sparkSubmit, record.sparkMaster, id),
                             kCommandTimeout, kMaxOutputBytes, &m_commandStop);
    followed.killSentAt = std::chrono::steady_clock::now();
    appendAnswer(record, "spark-submit --kill " + id + " (canceled by " + record.canceledBy + ")",
                 result.error.empty() ? result.output : result.output + result.error + "\n");
    spdlog::info("job run {}: asked {} to kill {}", record.run.jobRunId, maskArgument(record.sparkMaster),
                 id);
}

std::optional<std::pair<JobRunStatus, std::optional<std::string>>>
ClusterRunTracker::outcome(const RunRecord& record, const DriverStatus& status, Followed& followed) const {
    const std::string& id = *record.run.submissionId;
    const bool lost = status.kind == Kind::NotFound || status.kind == Kind::Unknown;
    followed.lostAnswers = lost ? followed.lostAnswers + 1 : 0;
    switch (status.kind) {
    case Kind::Active:
    case Kind::Unreadable: // the cluster manager may be unreachable for a while: ask again
        return std::nullopt;
    case Kind::Finished:
        return std::pair{JobRunStatus::Completed, std::optional<std::string>()};
    case Kind::Failed:
        return std::pair{JobRunStatus::Failed, std::optional(clusterDriverFailedMessage(id, status.state))};
    case Kind::Error:
        return std::pair{JobRunStatus::Failed, std::optional(clusterDriverErrorMessage(
                                                   id, status.state, clusterReason(status.message)))};
    case Kind::Killed:
        return std::pair{JobRunStatus::Canceled, std::optional(clusterDriverKilledMessage(id, status.state))};
    case Kind::NotFound:
    case Kind::Unknown:
        if (followed.lostAnswers < kLostAfter)
            return std::nullopt;
        return std::pair{JobRunStatus::Failed,
                         std::optional(clusterDriverLostMessage(record.sparkMaster, id,
                                                                status.kind == Kind::NotFound, kLostAfter))};
    }
    return std::nullopt;
}

void ClusterRunTracker::appendToLog(const std::string& logPath, const std::string& text) {
    std::ofstream log(logPath, std::ios::app | std::ios::binary);
    log << text;
}

} // namespace jobdeck
