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
// Steps run at once (READ COMMITTED), across threads and every jobdeckd on the database. Each holds
// only the rows it decides on, locked by the stores' reads inside the step (StoreAccess kLocksRows):
// admission holds its job's row FOR UPDATE and its project's FOR SHARE, a claim the clusters' rows
// whose slots it plans, a run's transition its run's row; an active Idempotency-Key is a unique index.
// So a count followed by an insert never interleaves with another step's on the same rows, and steps
// on other rows never wait for it (docs/scale-out.md). Connections the server dropped are replaced on
// the next lease. Thread-safe.
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
    bool stepsRunConcurrently() const override { return true; }
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
