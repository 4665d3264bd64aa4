#include "service/RetentionSweeper.h"

#include "service/Storage.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace jobdeck {

namespace {

// Between two batches: the writer is free for the requests most of the time.
constexpr std::chrono::milliseconds kBatchPause{5};

} // namespace

RetentionSweeper::RetentionSweeper(Storage& storage, Settings settings)
    : m_storage(storage)
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
        const Storage::SweepTable& table;
        std::chrono::seconds retention;
        const char* what;
    } tables[] = {{Storage::statusTable(), m_settings.statusRetention, "request statuses"},
                  {Storage::auditTable(), m_settings.auditRetention, "audit entries"}};
    for (const auto& [table, retention, what] : tables) {
        const TimePoint cutoff = timestampNow() - retention;
        std::int64_t after = 0;
        long long deleted = 0;
        for (;;) {
            const Storage::SweepStep step = m_storage.sweepBatch(table, cutoff, after);
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
