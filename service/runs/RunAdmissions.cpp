#include "service/runs/RunAdmissions.h"

#include "core/parameters/ArgumentOverrides.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/policy/IdempotencyKey.h"
#include "core/policy/RunEndMessages.h"
#include "core/statements/NotFoundMessages.h"
#include "service/runs/EventBus.h"
#include "service/runs/InternalFailure.h"
#include "service/runs/RequestContext.h"
#include "service/runs/RunStatusEvent.h"
#include "service/stores/RandomIds.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <utility>

namespace jobdeck {

// One RUN JOB between admit() and its answer; lives on the stack of the thread that waits in admit().
struct RunAdmissions::Pending {
    Pending(const RequestContext& c, const RunJobStatement& s,
            const RunStatementHandler::AdmissionRecorder& r)
        : context(c)
        , statement(s)
        , record(r) {}

    const RequestContext& context;
    const RunJobStatement& statement;
    const RunStatementHandler::AdmissionRecorder& record;
    ApiStatus status;
    std::optional<ServiceMetrics::AdmissionRefusal> refusal;
    bool created = false;
    bool done = false; // answered: admit() may return (guarded by m_mutex)
};

RunAdmissions::RunAdmissions(Stores& stores, EventBus& events, const std::atomic<ServiceMetrics*>& metrics,
                             std::function<void()> onAdmitted)
    : m_stores(stores)
    , m_events(events)
    , m_metrics(metrics)
    , m_onAdmitted(std::move(onAdmitted)) {}

RunAdmissions::~RunAdmissions() {
    stop();
}

void RunAdmissions::start() {
    std::lock_guard lock(m_mutex);
    if (m_running)
        return;
    m_stopping = false;
    m_running = true;
    m_thread = std::thread([this] { loop(); });
}

void RunAdmissions::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_queued.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

ApiStatus RunAdmissions::admit(const RequestContext& context, const RunJobStatement& statement,
                               const RunStatementHandler::AdmissionRecorder& record) {
    if (const std::optional<std::string>& key = context.idempotencyKey)
        if (auto problem = idempotencyKeyHeaderProblem(*key))
            return ApiStatus::failed(*problem);
    Pending pending(context, statement, record);
    std::unique_lock lock(m_mutex);
    // A step under way on this thread holds the writer the admission thread would wait for. Where steps
    // run at once, each admission is a step of its own on the caller's thread: it holds only its job's
    // row, so admissions of other jobs never wait behind it in a batch.
    if (!m_running || m_stores.unitOfWork().inStepOnThisThread() ||
        m_stores.unitOfWork().stepsRunConcurrently()) {
        lock.unlock();
        admitBatch({&pending});
        return pending.status;
    }
    m_queue.push_back(&pending);
    m_queued.notify_one();
    m_answered.wait(lock, [&pending] { return pending.done; });
    return pending.status;
}

void RunAdmissions::loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_queued.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty()) { // stopping, and everything queued was answered
            m_running = false;
            return;
        }
        const auto end = m_queue.begin() + static_cast<std::ptrdiff_t>(std::min(m_queue.size(), kBatchLimit));
        const std::vector<Pending*> batch(m_queue.begin(), end);
        m_queue.erase(m_queue.begin(), end);
        lock.unlock();
        admitBatch(batch);
        lock.lock();
        for (Pending* pending : batch)
            pending->done = true;
        m_answered.notify_all();
    }
}

// All of the batch in one step; when that step fails, each admission in a step of its own.
void RunAdmissions::admitBatch(const std::vector<Pending*>& batch) {
    if (batch.size() == 1) {
        admitAlone(*batch.front());
    } else {
        try {
            m_stores.unitOfWork().run([&] {
                for (Pending* pending : batch)
                    admitOne(*pending);
            });
        } catch (const std::exception& e) {
            spdlog::warn("RUN JOB: a batch of {} admissions failed ({}); admitting each on its own",
                         batch.size(), e.what());
            for (Pending* pending : batch)
                admitAlone(*pending);
        }
    }
    answered(batch);
}

// An active run of the job may get the Idempotency-Key after the admission read it free
// (RunStore::insertLater): decided again, the admission answers with that run as a repeated request is
// answered.
void RunAdmissions::admitAlone(Pending& pending) {
    try {
        m_stores.unitOfWork().runDecidingAgainOnConflict([&] { admitOne(pending); });
    } catch (const std::exception& e) {
        refuseInternally(pending, e);
    }
}

void RunAdmissions::refuseInternally(Pending& pending, const std::exception& e) {
    pending.created = false;
    pending.refusal.reset();
    pending.status = failedInternally(pending.context, "RUN JOB (starting the run)", e);
}

void RunAdmissions::admitOne(Pending& pending) {
    pending.created = false;
    pending.refusal.reset();
    pending.status = admission(pending);
    if (pending.record)
        pending.record(pending.status);
}

// One admission inside the step under way: the checks of CONTRACT §4 in their order, then the QUEUED
// run and its event.
ApiStatus RunAdmissions::admission(Pending& pending) {
    const std::string& project = pending.context.principal.projectUid;
    const std::optional<std::string>& key = pending.context.idempotencyKey;
    const RunJobStatement& statement = pending.statement;
    // The job's row is held until the step ends: its active runs, read once it was held, and the insert
    // below cannot interleave with another admission of it; the project's settings are held shared.
    const auto toRun = m_stores.jobs().findJobToRun(project, statement.name, key);
    if (!toRun)
        return ApiStatus::failed(jobNotFoundMessage(statement.name));
    const SparkJob& job = toRun->job;
    if (job.maxConcurrentRuns > 1 && !key) {
        pending.refusal = ServiceMetrics::AdmissionRefusal::IdempotencyKeyRequired;
        return ApiStatus::failed(idempotencyKeyRequiredMessage(job.name, job.maxConcurrentRuns));
    }
    const RunStore::ActiveRunsOfJob& activeRuns = toRun->activeRuns;
    if (activeRuns.withKey)
        return keyedAnswer(pending, *activeRuns.withKey);
    const RunLimit limit = effectiveRunLimit(job.maxConcurrentRuns, toRun->concurrentRuns);
    const int active = activeRuns.count;
    if (active >= limit.value) {
        pending.refusal = ServiceMetrics::AdmissionRefusal::MaxConcurrentRuns;
        ApiStatus refused = ApiStatus::failed(runLimitReachedMessage(job.jobId, active, limit));
        refused.errorReason = runLimitReason(limit);
        return refused;
    }
    const auto classified = classifyParameters(job.parameters);
    auto overridden = applyArgumentOverrides(classified.applicationArguments, statement.arguments, job.name);
    if (overridden.error)
        return ApiStatus::failed(*overridden.error);

    RunRecord record;
    record.projectUid = project;
    record.cluster = job.cluster;
    record.run.jobRunId = RandomIds::randomUuid();
    record.run.jobName = job.name;
    record.run.jobId = job.jobId;
    record.run.status = JobRunStatus::Queued;
    record.run.queueReason = waitingForSchedulerReason();
    record.run.idempotencyKey = key;
    record.run.argumentOverrides = statement.arguments;
    record.run.arguments = std::move(overridden.effective);
    record.run.queuedAt = timestampNow();
    m_stores.runs().insertLater(record);
    m_stores.events().recordEvent(project, statusEvent(record));
    pending.created = true;
    return ApiStatus::success({{"runJobApiResponse", {{"jobRunId", record.run.jobRunId}}}});
}

// A RUN JOB whose Idempotency-Key an active run of the job has (CONTRACT §4): that run's id when the
// arguments are the same, a conflict when they differ.
ApiStatus RunAdmissions::keyedAnswer(Pending& pending, const RunRecord& existing) {
    if (existing.run.argumentOverrides != pending.statement.arguments) {
        pending.refusal = ServiceMetrics::AdmissionRefusal::IdempotencyKeyConflict;
        return ApiStatus::failed(runKeyConflictMessage(*pending.context.idempotencyKey));
    }
    return ApiStatus::success({{"runJobApiResponse", {{"jobRunId", existing.run.jobRunId}}}});
}

// After the commit: the event waiters of each project woken once, the scheduler told, refusals counted.
void RunAdmissions::answered(const std::vector<Pending*>& batch) {
    std::set<std::string> projects;
    ServiceMetrics* metrics = m_metrics.load();
    for (const Pending* pending : batch) {
        if (pending->created)
            projects.insert(pending->context.principal.projectUid);
        if (pending->refusal && metrics)
            metrics->countAdmissionRefusal(*pending->refusal);
    }
    for (const std::string& project : projects)
        m_events.wake(project);
    if (!projects.empty() && m_onAdmitted)
        m_onAdmitted();
}

} // namespace jobdeck
