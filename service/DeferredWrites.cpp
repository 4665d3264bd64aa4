#include "service/DeferredWrites.h"

#include "service/SqliteDatabase.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace jobdeck {

DeferredWrites::DeferredWrites(SqliteDatabase& db, std::chrono::milliseconds interval, std::size_t batch)
    : m_db(db)
    , m_interval(interval)
    , m_batch(batch)
    , m_thread([this] { run(); }) {}

DeferredWrites::~DeferredWrites() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
    try {
        flush();
    } catch (const std::exception& e) {
        spdlog::error("could not write the queued audit entries and statuses: {}", e.what());
    }
}

void DeferredWrites::add(Write write) {
    bool wake = false;
    {
        const std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(write));
        // The first write starts the interval; a full batch ends it early.
        wake = m_queue.size() == 1 || m_queue.size() >= m_batch;
    }
    if (wake)
        m_wake.notify_one();
}

bool DeferredWrites::empty() const {
    const std::lock_guard lock(m_mutex);
    return m_queue.empty();
}

void DeferredWrites::flush() {
    if (empty())
        return;
    // The queue is taken inside the transaction, that is while holding the connection: a durable write
    // on another thread then either commits these first or waits until they are committed.
    m_db.transaction([&] {
        std::vector<Write> writes;
        {
            const std::lock_guard lock(m_mutex);
            writes.swap(m_queue);
        }
        for (const auto& write : writes) {
            try {
                write();
            } catch (const std::exception& e) {
                spdlog::error("a queued audit entry or status could not be written: {}", e.what());
            }
        }
    });
}

void DeferredWrites::run() {
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_stopping)
            break;
        // Gather for up to one interval, unless a batch is already waiting.
        m_wake.wait_for(lock, m_interval, [this] { return m_stopping || m_queue.size() >= m_batch; });
        lock.unlock();
        try {
            flush();
        } catch (const std::exception& e) {
            spdlog::error("could not write the queued audit entries and statuses: {}", e.what());
        }
        lock.lock();
    }
}

} // namespace jobdeck
