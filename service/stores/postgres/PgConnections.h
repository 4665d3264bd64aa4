#pragma once

#include "service/stores/UnitOfWork.h"
#include "service/stores/postgres/PgConnection.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// The connections of one PostgreSQL database: a pool, each lent to one thread at a time. A thread inside
// run() uses that step's connection for every query, so it sees its own uncommitted writes; a thread
// inside snapshot() reads through the snapshot's connection (REPEATABLE READ); any other query runs on
// a pooled connection in autocommit.
//
// Every step takes one transaction-scoped advisory lock first, so steps run one at a time across every
// jobdeckd on the database, as SQLite's single writer runs them within one process: a count followed
// by an insert in one step (admission's max concurrent runs, Idempotency-Keys, capacity) cannot
// interleave with another replica's. Reads never take it. Connections the server dropped are replaced
// on the next lease. Thread-safe.
class PgConnections final : public UnitOfWork {
public:
    // A connection lent to this thread for a few queries.
    class Lease final {
    public:
        Lease(PgConnections& connections, PgConnection* connection, bool pooled)
            : m_connections(connections)
            , m_connection(connection)
            , m_pooled(pooled) {}
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        ~Lease();
        PgConnection* operator->() const { return m_connection; }
        PgConnection& operator*() const { return *m_connection; }

    private:
        PgConnections& m_connections;
        PgConnection* m_connection;
        bool m_pooled;
    };

    // Connects once, so that a database that cannot be reached is refused at start; throws DatabaseError.
    explicit PgConnections(std::string url);
    ~PgConnections() override;
    PgConnections(const PgConnections&) = delete;
    PgConnections& operator=(const PgConnections&) = delete;

    // The connection for this thread's next queries: the step's inside run(), the snapshot's inside
    // snapshot(), else a pooled one in autocommit.
    Lease connection();
    // The same, but outside any snapshot: for reads that must see what was committed just now.
    Lease freshConnection();

    std::unique_ptr<ReadSnapshot> snapshot() override;
    bool inStepOnThisThread() const override;
    void onStepEnd(std::function<void(bool committed)> action) override;

    // Why the database does not answer, or nullopt when it does.
    std::optional<std::string> unavailableReason();

protected:
    void runAtomically(const std::function<void()>& work) override;

private:
    class Snapshot;
    PgConnection* leaseConnection();
    void returnConnection(PgConnection* connection);
    void commitStep(PgConnection& connection);

    const std::string m_url;
    std::mutex m_poolMutex;
    std::condition_variable m_returned;
    std::vector<std::unique_ptr<PgConnection>> m_idle;
    std::size_t m_open = 0; // idle plus lent
};

} // namespace jobdeck
