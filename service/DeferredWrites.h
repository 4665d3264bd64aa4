#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace jobdeck {

class SqliteDatabase;

// Writes that need not be on disk before the request that made them is answered (audit entries and
// statuses of read statements): queued in memory and committed together by a background thread, in
// one transaction (one fsync) every `interval` or as soon as `batch` are waiting. flush() commits what
// is queued now; a durable write that calls it inside its own transaction commits the queue with it,
// so the queued writes always reach the database in the order they were made, before later durable
// ones. The destructor flushes. A write that fails is logged and dropped; the others still commit.
class DeferredWrites final {
public:
    using Write = std::function<void()>;

    DeferredWrites(SqliteDatabase& db, std::chrono::milliseconds interval, std::size_t batch);
    ~DeferredWrites();
    DeferredWrites(const DeferredWrites&) = delete;
    DeferredWrites& operator=(const DeferredWrites&) = delete;

    // `write` runs later, on some thread, inside a transaction of the database.
    void add(Write write);
    // Runs every queued write in one transaction (joining the caller's, if it is inside one).
    void flush();
    bool empty() const;

private:
    void run();

    SqliteDatabase& m_db;
    const std::chrono::milliseconds m_interval;
    const std::size_t m_batch;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::vector<Write> m_queue;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace jobdeck
