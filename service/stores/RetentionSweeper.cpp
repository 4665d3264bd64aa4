#include "service/stores/RetentionSweeper.h"

#include "service/stores/AuditStore.h"
#include "service/stores/StatusStore.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <functional>

namespace jobdeck {

namespace {

// Between two batches: the writer is free for the requests most of the time.
constexpr std::chrono::milliseconds kBatchPause{5};

} // namespace

RetentionSweeper::RetentionSweeper(StatusStore& statuses, AuditStore& audit, Settings settings)
    : m_statuses(statuses)
    , m_audit(audit)
    , m_settings(settings)
    , m_thread([this] { run(); }) {}

RetentionSweeper::~RetentionSweeper() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

bool RetentionSweeper::pause(std::chrono::milliseconds duration) {
    std::unique_lock lock(m_mutex);
    return !m_wake.wait_for(lock, duration, [this] { return m_stopping; });
}

void RetentionSweeper::run() {
    do {
        try {
            if (!sweep())
                return;
        } catch (const std::exception& e) {
            spdlog::error("could not delete expired request statuses and audit entries: {}", e.what());
        }
    } while (pause(m_settings.interval));
}

bool RetentionSweeper::sweep() {
    const struct {
        std::function<SweepStep(TimePoint cutoff, std::int64_t after)> sweepBatch;
        std::chrono::seconds retention;
        const char* what;
    } tables[] = {
        {[this](TimePoint cutoff, std::int64_t after) { return m_statuses.sweepExpired(cutoff, after); },
         m_settings.statusRetention, "request statuses"},
        {[this](TimePoint cutoff, std::int64_t after) { return m_audit.sweepExpired(cutoff, after); },
         m_settings.auditRetention, "audit entries"}};
    for (const auto& [sweepBatch, retention, what] : tables) {
        const TimePoint cutoff = timestampNow() - retention;
        std::int64_t after = 0;
        long long deleted = 0;
        for (;;) {
            const SweepStep step = sweepBatch(cutoff, after);
            deleted += step.deleted;
            after = step.last;
            if (step.done)
                break;
            if (!pause(kBatchPause))
                return false;
        }
        if (deleted > 0)
            spdlog::info("deleted {} expired {}", deleted, what);
    }
    return true;
}

} // namespace jobdeck
