#pragma once

#include "core/statements/Statement.h"
#include "core/wire/ApiStatus.h"
#include "service/runs/RunStatementHandler.h"
#include "service/runs/ServiceMetrics.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace jobdeck {

class EventBus;
class Stores;
struct RunRecord;
struct RequestContext;

// RUN JOB admission (CONTRACT §4, docs/runs.md) with group commit: admit() queues the admission and
// waits; one admission thread takes everything queued (at most kBatchLimit) and admits it in ONE
// step of the unit of work, so a burst costs one durable commit per batch instead of one per run.
// The batch is what queued while the previous one was committing: nothing waits to gather more.
// Admissions of a batch run one after the other inside the step and see what the earlier ones
// wrote, so the concurrency limit and the Idempotency-Key rules hold as with one step each. When
// the batch's step fails, each of its admissions is tried again in a step of its own, so one bad
// admission cannot fail the others. An answer is given only after its commit: acknowledged is
// durable, and so is what the caller records with it (its request's audit entry and status). Launching
// is the scheduler's business; onAdmitted tells it that runs are queued. Where steps run at once
// (UnitOfWork::stepsRunConcurrently, PostgreSQL), there is no admission thread's batch: each admission
// is a step of its own on the caller's thread that holds its job's row (JobStore::findJobToRun) and its
// project's settings shared, so admissions of different jobs never wait for each other. Its round trips
// to a server: the job's row with its active runs, then the run's insert with its event, what the caller
// records and the commit.
class RunAdmissions final {
public:
    static constexpr std::size_t kBatchLimit = 256; // keeps one step (and the writer it holds) short

    RunAdmissions(Stores& stores, EventBus& events, const std::atomic<ServiceMetrics*>& metrics,
                  std::function<void()> onAdmitted);
    ~RunAdmissions();
    RunAdmissions(const RunAdmissions&) = delete;
    RunAdmissions& operator=(const RunAdmissions&) = delete;

    // Starts the admission thread. Before start() and after stop(), admit() admits on the caller's
    // thread in a step of its own.
    void start();
    // Admits everything queued, answers it, and ends the admission thread.
    void stop();

    // Blocks until the admission is committed (or refused) and returns its answer. `record` (may be
    // empty) is called with the answer inside the step that commits it (RunStatementHandler).
    ApiStatus admit(const RequestContext& context, const RunJobStatement& statement,
                    const RunStatementHandler::AdmissionRecorder& record);

private:
    struct Pending;

    void loop();
    void admitBatch(const std::vector<Pending*>& batch);
    void admitAlone(Pending& pending);
    // The admission's step failed: the request gets an internal failure.
    void refuseInternally(Pending& pending, const std::exception& e);
    void admitOne(Pending& pending);
    ApiStatus admission(Pending& pending);
    ApiStatus keyedAnswer(Pending& pending, const RunRecord& existing);
    void answered(const std::vector<Pending*>& batch);

    Stores& m_stores;
    EventBus& m_events;
    const std::atomic<ServiceMetrics*>& m_metrics;
    std::function<void()> m_onAdmitted;

    std::mutex m_mutex;
    std::condition_variable m_queued;   // the admission thread waits for work or stop()
    std::condition_variable m_answered; // admit() waits for its batch's commit
    std::deque<Pending*> m_queue;
    bool m_running = false;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace jobdeck
