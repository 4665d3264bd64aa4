#pragma once

#include <atomic>
#include <chrono>

namespace jobdeck {

// Told how long the database worked on each statement, on either backend (jobdeckd's metrics): SQLite's
// steps of a statement together, or a PostgreSQL statement's round trip. A COMMIT's include making it
// durable.
class StatementTimer {
public:
    enum class Kind { Read, Write, Commit };
    virtual void statementTimed(Kind kind, std::chrono::nanoseconds spent) = 0;

    // Process-wide; null, the default, costs one relaxed load per statement. The timer must stay until
    // it is replaced by null.
    static void install(StatementTimer* timer) { s_current.store(timer); }
    static StatementTimer* current() { return s_current.load(std::memory_order_relaxed); }

protected:
    ~StatementTimer() = default;

private:
    static inline std::atomic<StatementTimer*> s_current{nullptr};
};

} // namespace jobdeck
