#pragma once

#include <algorithm>
#include <chrono>

namespace jobdeck {

// How long jobdeckd waits for its database (`serve --database-timeout`, `--database-connect-timeout`),
// set once before the stores open and read by every connection they make.
//   SQLite: a lock held by another connection or process is waited for lockWait() (busy_timeout).
//   PostgreSQL: connect_timeout, statement_timeout, lock_timeout and idle_in_transaction_session_timeout
//   on every connection, TCP keepalives (unless the database URL sets its own libpq keywords), and on
//   the client a call that has waited clientWait() for the server (frozen, or unreachable without a
//   reset) has its connection closed, so the request fails instead of hanging.
struct DatabaseTimeouts final {
    std::chrono::seconds statement{30};
    std::chrono::seconds connect{10};
    std::chrono::seconds keepalivesIdle{30};
    std::chrono::seconds keepalivesInterval{10};
    int keepalivesCount = 3;

    // A lock is waited for no longer than a statement, and no longer than 10 s.
    std::chrono::seconds lockWait() const { return std::min(statement, std::chrono::seconds(10)); }
    // PostgreSQL ends the session of a transaction left idle this long (its process paused or stalled
    // between two statements), so that the rows it holds are not held past half of what others wait for
    // them: a replica stopped in the middle of a step does not stop the same job's admissions elsewhere.
    std::chrono::seconds idleInTransaction() const {
        return std::max(std::chrono::seconds(1), lockWait() / 2);
    }
    // The server's own statement_timeout answers first when it can.
    std::chrono::seconds clientWait() const { return statement + std::chrono::seconds(5); }

    static DatabaseTimeouts current();
    // Before the stores open, while no other thread reads them.
    static void set(const DatabaseTimeouts& timeouts);
};

} // namespace jobdeck
