#include "service/stores/postgres/PgConnections.h"

#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseFaultError.h"
#include "service/stores/DatabaseTimeouts.h"

#include <exception>
#include <utility>

namespace jobdeck {

namespace {

// More than the worker threads, so a connection is rarely waited for; PostgreSQL's default
// max_connections (100) leaves room for several replicas.
constexpr std::size_t connectionLimit = 16;

// The step or snapshot under way on this thread, if any, and the connections it belongs to.
thread_local const PgConnections* t_stepOwner = nullptr;
thread_local PgConnection* t_stepConnection = nullptr;
thread_local const PgConnections* t_snapshotOwner = nullptr;
thread_local PgConnection* t_snapshotConnection = nullptr;

// Runs `sql` (BEGIN, COMMIT, ...) as a query of its own, whose wait on the server is bounded as every
// query's is (PgConnection::Query, PgWaitGuard), and whose result has one owner when it fails.
void runScript(PgConnection& connection, const std::string& sql) {
    connection.prepare(sql).run();
}

} // namespace

class PgConnections::Snapshot final : public ReadSnapshot {
public:
    Snapshot(PgConnections& connections, PgConnection* connection)
        : m_connections(connections)
        , m_connection(connection) {
        t_snapshotOwner = &connections;
        t_snapshotConnection = connection;
    }
    ~Snapshot() override {
        t_snapshotOwner = nullptr;
        t_snapshotConnection = nullptr;
        try {
            runScript(*m_connection, "COMMIT");
        } catch (const std::exception&) {
            // A read-only transaction has nothing to lose; a broken connection is dropped on return.
        }
        m_connections.returnConnection(m_connection);
    }
    Snapshot(const Snapshot&) = delete;
    Snapshot& operator=(const Snapshot&) = delete;

private:
    PgConnections& m_connections;
    PgConnection* m_connection;
};

PgConnections::Lease::~Lease() {
    if (m_pooled)
        m_connections.returnConnection(m_connection);
}

PgConnections::PgConnections(std::string url)
    : m_url(std::move(url)) {
    m_idle.push_back(PgConnection::open(m_url));
    m_open = 1;
}

PgConnections::~PgConnections() = default;

PgConnections::Lease PgConnections::connection() {
    if (t_stepOwner == this)
        return Lease(*this, t_stepConnection, false);
    if (t_snapshotOwner == this)
        return Lease(*this, t_snapshotConnection, false);
    return Lease(*this, leaseConnection(), true);
}

PgConnections::Lease PgConnections::freshConnection() {
    if (t_stepOwner == this)
        return Lease(*this, t_stepConnection, false);
    return Lease(*this, leaseConnection(), true);
}

PgConnection* PgConnections::leaseConnection() {
    std::unique_lock lock(m_poolMutex);
    // Every connection lent: each returns within the database timeouts, so waiting longer means the
    // database does not answer.
    const auto limit = DatabaseTimeouts::current().clientWait();
    if (!m_returned.wait_for(lock, limit, [this] { return !m_idle.empty() || m_open < connectionLimit; }))
        throw DatabaseFaultError(noFreeConnectionMessage(limit), DatabaseFault::TimedOut);
    if (!m_idle.empty()) {
        PgConnection* connection = m_idle.back().release();
        m_idle.pop_back();
        return connection;
    }
    ++m_open;
    lock.unlock();
    try {
        return PgConnection::open(m_url).release();
    } catch (...) {
        lock.lock();
        --m_open;
        m_returned.notify_one();
        throw;
    }
}

void PgConnections::returnConnection(PgConnection* connection) {
    std::unique_ptr<PgConnection> owned(connection);
    // A connection left inside a transaction block (its step failed to roll back) is not reused.
    const bool reusable = owned->isUsable() && !owned->inTransactionBlock();
    {
        const std::lock_guard lock(m_poolMutex);
        if (reusable)
            m_idle.push_back(std::move(owned));
        else
            --m_open;
    }
    m_returned.notify_one();
}

std::unique_ptr<ReadSnapshot> PgConnections::snapshot() {
    if (t_stepOwner == this || t_snapshotOwner)
        return nullptr;
    PgConnection* connection = leaseConnection();
    try {
        runScript(*connection, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    } catch (...) {
        returnConnection(connection);
        throw;
    }
    return std::make_unique<Snapshot>(*this, connection);
}

bool PgConnections::inStepOnThisThread() const {
    return t_stepOwner == this;
}

void PgConnections::onStepEnd(std::function<void(bool committed)> action) {
    if (t_stepOwner == this)
        t_stepConnection->onTransactionEnd(std::move(action));
    else
        action(true); // not inside a step: what was written is committed already
}

void PgConnections::runAtomically(const std::function<void()>& work) {
    if (t_stepOwner == this) {
        work();
        return;
    }
    const Lease lease(*this, leaseConnection(), true);
    PgConnection& connection = *lease;
    connection.beginWithNextStatement();
    t_stepOwner = this;
    t_stepConnection = &connection;
    struct Leave {
        ~Leave() {
            t_stepOwner = nullptr;
            t_stepConnection = nullptr;
        }
    } leave;
    try {
        work();
    } catch (...) {
        connection.dropHeldBackWrites();
        try {
            if (!connection.endPendingBegin() && connection.isUsable())
                runScript(connection, "ROLLBACK");
        } catch (const std::exception&) {
            // The connection is dropped on return (still in a transaction block, or broken).
        }
        connection.transactionEnded(false);
        throw;
    }
    commitStep(connection);
}

void PgConnections::commitStep(PgConnection& connection) {
    if (connection.endPendingBegin()) { // no statement ran: nothing to commit
        connection.transactionEnded(true);
        return;
    }
    try {
        // A statement that failed inside the step (and was caught there) aborted the whole transaction;
        // its COMMIT would quietly roll back.
        if (connection.transactionAborted()) {
            runScript(connection, "ROLLBACK");
            throw DatabaseError(transactionAbortedMessage());
        }
        runScript(connection, "COMMIT");
    } catch (...) {
        // Whether a COMMIT whose answer was lost took effect cannot be known here; the caller gets the
        // error and the request is answered as failed. A write held back for the COMMIT that failed
        // left the transaction aborted: rolled back, so the connection can serve again.
        try {
            if (connection.isUsable() && connection.transactionAborted())
                runScript(connection, "ROLLBACK");
        } catch (const std::exception&) {
            // Dropped on return, still in a transaction block.
        }
        connection.transactionEnded(false);
        throw;
    }
    connection.transactionEnded(true);
}

std::optional<std::string> PgConnections::unavailableReason() {
    try {
        auto lease = freshConnection();
        auto q = lease->query("SELECT 1");
        q.step();
    } catch (const std::exception& e) {
        return std::string("the database does not answer: ") + e.what();
    }
    return std::nullopt;
}

} // namespace jobdeck
