#pragma once

#include "service/stores/DatabaseFaultError.h"

#include <chrono>
#include <cstdint>
#include <string_view>

namespace jobdeck {

// Bounds how long a thread waits on a PostgreSQL server in a blocking libpq call. While a guard lives,
// a watchdog thread shuts down the connection's socket once `limit` has passed: libpq then returns at
// once with the connection lost, and the pool drops it. A server that is frozen (SIGSTOP, a stalled
// host) or unreachable without a reset never answers and never resets, which neither TCP keepalives
// nor the server's own statement_timeout can end.
class PgWaitGuard final {
public:
    PgWaitGuard(int socket, std::chrono::seconds limit);
    ~PgWaitGuard();
    PgWaitGuard(const PgWaitGuard&) = delete;
    PgWaitGuard& operator=(const PgWaitGuard&) = delete;

    // Whether the watchdog ended the wait (the call failed because the server did not answer in time).
    bool expired() const;

private:
    std::uint64_t m_id;
};

// The error of a call whose wait for the server a PgWaitGuard ended (`sql`: what it ran).
DatabaseFaultError pgServerTimedOut(std::string_view sql);

} // namespace jobdeck
