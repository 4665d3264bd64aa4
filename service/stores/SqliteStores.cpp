#include "service/stores/SqliteStores.h"

#include "core/wire/DatabaseFaults.h"
#include "service/stores/SqlConnection.h"
#include "service/stores/SqliteSchema.h"

#include <chrono>
#include <cstring>

namespace jobdeck {

// The shared SQL of the stores (*Rows.h) runs on the writer and the readers.
static_assert(SqlConnection<SqliteDatabase>);

namespace {

// Deferred writes are committed this often, or as soon as this many wait.
constexpr std::chrono::milliseconds deferredInterval{50};
constexpr std::size_t deferredBatch = 512;

// A project's allow-list as a JSON array sorted by entry (SharedProjectStore).
constexpr const char* allowlistJson =
    "(SELECT json_group_array(entry) FROM (SELECT entry FROM project_allowlist "
    "WHERE project_uid = p.uid ORDER BY entry))";
// The active runs are reached by their status (few), not by their job (SharedJobStore).
constexpr const char* activeRunsSource = "runs INDEXED BY runs_by_status";
// The replicas' leases are judged on SQLite's clock, this process's: one process uses the file
// (docs/scale-out.md).
constexpr const char* nowMs = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";

// The connections, with the schema migrated before any store reads.
SqliteConnections& migrated(SqliteConnections& connections) {
    SqliteSchema::migrate(connections.writer());
    connections.rememberFileIdentity();
    return connections;
}

} // namespace

std::unique_ptr<SqliteStores> SqliteStores::open(const std::string& databaseUrl) {
    std::string path = databaseUrl;
    if (databaseUrl.starts_with("sqlite:"))
        path = databaseUrl.substr(std::strlen("sqlite:"));
    else if (databaseUrl.find("://") != std::string::npos)
        throw DatabaseError(unsupportedDatabaseUrlMessage());
    if (path.empty())
        throw DatabaseError(databaseUrlWithoutFileMessage());
    return std::unique_ptr<SqliteStores>(new SqliteStores(path));
}

int SqliteStores::schemaVersion() {
    return SqliteSchema::version();
}

SqliteStores::SqliteStores(const std::string& path)
    : m_connections(path)
    , m_changeStamp(path)
    , m_projects(SqliteAccess{migrated(m_connections)}, allowlistJson)
    , m_keyRows(m_connections, m_projects)
    , m_keys(m_keyRows, m_changeStamp)
    , m_jobs(SqliteAccess{m_connections}, activeRunsSource)
    , m_clusters(SqliteAccess{m_connections})
    , m_runs(SqliteAccess{m_connections}, nowMs)
    , m_writeKeys(SqliteAccess{m_connections})
    , m_events(m_connections) {
    m_deferred = std::make_unique<DeferredWrites>(
        m_connections,
        [this](const DeferredWrites::Batch& rows) {
            m_audit->insertRows(rows.audit, SqliteAuditStore::RowErrors::Skip);
            m_statuses->insertRows(rows.statuses, SqliteStatusStore::RowErrors::Skip);
        },
        deferredInterval, deferredBatch);
    m_audit = std::make_unique<SqliteAuditStore>(m_connections, *m_deferred);
    m_statuses = std::make_unique<SqliteStatusStore>(m_connections, *m_deferred);
}

SqliteStores::~SqliteStores() {
    m_deferred.reset(); // commits what is queued while the stores and the writer are still there
}

void SqliteStores::flushDeferred() {
    m_deferred->flush();
}

} // namespace jobdeck
