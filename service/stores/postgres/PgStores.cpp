#include "service/stores/postgres/PgStores.h"

#include "core/deploy/DatabaseUrl.h"
#include "core/wire/DatabaseFaults.h"
#include "service/stores/SqlConnection.h"
#include "service/stores/postgres/PgEventListener.h"
#include "service/stores/postgres/PgSchema.h"

#include <chrono>

#include <unistd.h>

namespace jobdeck {

// The shared SQL of the stores (*Rows.h) runs on the pool's connections.
static_assert(SqlConnection<PgConnection>);

namespace {

// Deferred writes are committed this often, or as soon as this many wait (as with SQLite).
constexpr std::chrono::milliseconds deferredInterval{50};
constexpr std::size_t deferredBatch = 512;

// A project's allow-list as a JSON array sorted by entry (SharedProjectStore).
constexpr const char* allowlistJson = "(SELECT coalesce(json_agg(entry ORDER BY entry), '[]'::json) "
                                      "FROM project_allowlist WHERE project_uid = p.uid)";
// The replicas' leases are judged on the server's clock, the same for every replica whatever their
// hosts' clocks say.
constexpr const char* nowMs = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

// The URL without its password (in every form core's databasePasswordRanges knows), for messages.
std::string withoutPassword(const std::string& url) {
    return maskDatabaseValue(url);
}

PgConnections& migrated(PgConnections& connections, const std::string& where) {
    PgSchema::migrate(connections, where);
    return connections;
}

// The object ids of the database and of its schema_version table ("<database>/<table>", the table's
// empty when the schema is gone): a database dropped and created again under the same name, or a
// schema dropped and made again, has others.
std::string identityOf(PgConnections& connections) {
    auto lease = connections.freshConnection();
    auto q = lease->query("SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text, "
                          "COALESCE(to_regclass('schema_version')::oid::text, '')");
    return q.step() ? q.text(0) + "/" + q.text(1) : std::string("/");
}

// This process's deferred writes take turns (DeferredWrites::TurnTaker): a transaction-scoped advisory
// lock, so PostgreSQL sees who waits for whom (a deadlock with a row lock is detected, not hung). The
// second key is the process id: other replicas' queues are their own and need not wait for this one.
void takeDeferredWritesTurn(PgConnections& connections) {
    constexpr std::int64_t deferredWritesLock = 6906988; // any number the same in every jobdeckd
    auto connection = connections.connection();
    connection
        ->query("SELECT pg_advisory_xact_lock(CAST(? AS integer), CAST(? AS integer))", deferredWritesLock,
                static_cast<std::int64_t>(::getpid()))
        .step();
}

} // namespace

std::unique_ptr<PgStores> PgStores::open(const std::string& databaseUrl) {
    const std::string where = withoutPassword(databaseUrl);
    try {
        return std::unique_ptr<PgStores>(new PgStores(databaseUrl, where));
    } catch (const DatabaseError& e) {
        const std::string message = namingTheDatabase(e.what(), where);
        throw DatabaseError(message, e.cause());
    }
}

int PgStores::schemaVersion() {
    return PgSchema::version();
}

PgStores::PgStores(const std::string& url, const std::string& where)
    : m_url(url)
    , m_connections(url)
    , m_changeStamp(migrated(m_connections, where))
    , m_projects(PgAccess{m_connections}, allowlistJson)
    , m_keyRows(m_connections, m_projects)
    , m_keys(m_keyRows, m_changeStamp)
    , m_jobs(PgAccess{m_connections}, "runs")
    , m_clusters(PgAccess{m_connections})
    , m_runs(PgAccess{m_connections}, nowMs)
    , m_writeKeys(PgAccess{m_connections})
    , m_events(m_connections) {
    m_deferred = std::make_unique<DeferredWrites>(
        m_connections,
        [this](const DeferredWrites::Batch& rows) {
            m_audit->insertRows(rows.audit, PgAuditStore::RowErrors::Skip);
            m_statuses->insertRows(rows.statuses, PgStatusStore::RowErrors::Skip);
        },
        deferredInterval, deferredBatch, [this] { takeDeferredWritesTurn(m_connections); });
    m_audit = std::make_unique<PgAuditStore>(m_connections, *m_deferred);
    m_statuses = std::make_unique<PgStatusStore>(m_connections, *m_deferred);
    m_identity = identityOf(m_connections);
}

std::optional<std::string> PgStores::unavailableReason() {
    if (auto reason = m_connections.unavailableReason())
        return reason;
    std::string identity;
    try {
        identity = identityOf(m_connections);
    } catch (const std::exception& e) {
        return std::string("the database does not answer: ") + e.what();
    }
    if (identity != m_identity) {
        const bool sameDatabase =
            identity.substr(0, identity.find('/')) == m_identity.substr(0, m_identity.find('/'));
        return databaseReplacedReason(sameDatabase && identity.ends_with('/'));
    }
    return std::nullopt;
}

PgStores::~PgStores() {
    m_deferred.reset(); // commits what is queued while the stores and the connections are still there
}

void PgStores::announceAdmissions() {
    m_events.announceAdmissions();
}

std::unique_ptr<ReplicaWatch> PgStores::watchOtherReplicas(const ReplicaNews& news) {
    return std::make_unique<PgEventListener>(m_url, news);
}

void PgStores::flushDeferred() {
    m_deferred->flush();
}

} // namespace jobdeck
