#pragma once

#include "service/stores/CachedKeyStore.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/SharedStores.h"
#include "service/stores/SqliteAccess.h"
#include "service/stores/SqliteAuditStore.h"
#include "service/stores/SqliteChangeStamp.h"
#include "service/stores/SqliteConnections.h"
#include "service/stores/SqliteEventStore.h"
#include "service/stores/SqliteKeyRows.h"
#include "service/stores/SqliteStatusStore.h"
#include "service/stores/Stores.h"

#include <memory>
#include <string>

namespace jobdeck {

// The stores over one SQLite file (schema: SqliteSchema; connections: SqliteConnections). Writes that
// need not be durable before the answer (deferred audit entries and statuses) are committed in groups
// by DeferredWrites, before any later durable write of the audit.
class SqliteStores final : public Stores {
public:
    // `databaseUrl` is "sqlite:<path>" or a plain file path (see openStores for PostgreSQL). Runs the schema
    // migrations; a database whose schema is newer than this binary is refused and left untouched. Throws
    // DatabaseError with one clear line.
    static std::unique_ptr<SqliteStores> open(const std::string& databaseUrl);
    // The schema version this binary creates and understands.
    static int schemaVersion();

    ~SqliteStores() override;
    SqliteStores(const SqliteStores&) = delete;
    SqliteStores& operator=(const SqliteStores&) = delete;

    // The writer connection, for SQLite-only tools and tests.
    SqliteDatabase& database() { return m_connections.writer(); }

    UnitOfWork& unitOfWork() override { return m_connections; }
    ChangeStamp& changeStamp() override { return m_changeStamp; }
    KeyStore& keys() override { return m_keys; }
    ProjectStore& projects() override { return m_projects; }
    JobStore& jobs() override { return m_jobs; }
    ClusterStore& clusters() override { return m_clusters; }
    RunStore& runs() override { return m_runs; }
    StatusStore& statuses() override { return *m_statuses; }
    WriteKeyStore& writeKeys() override { return m_writeKeys; }
    AuditStore& audit() override { return *m_audit; }
    EventStore& events() override { return m_events; }

    std::optional<std::string> unavailableReason() override { return m_connections.unavailableReason(); }
    void flushDeferred() override;

private:
    explicit SqliteStores(const std::string& path);

    SqliteConnections m_connections;
    SqliteChangeStamp m_changeStamp;
    SharedProjectStore<SqliteAccess> m_projects;
    SqliteKeyRows m_keyRows;
    CachedKeyStore m_keys;
    SharedJobStore<SqliteAccess> m_jobs;
    SharedClusterStore<SqliteAccess> m_clusters;
    SharedRunStore<SqliteAccess> m_runs;
    SharedWriteKeyStore<SqliteAccess> m_writeKeys;
    SqliteEventStore m_events;
    // The group commits write through these two; made after the queue, destroyed (flushed) first.
    std::unique_ptr<DeferredWrites> m_deferred;
    std::unique_ptr<SqliteAuditStore> m_audit;
    std::unique_ptr<SqliteStatusStore> m_statuses;
};

} // namespace jobdeck
