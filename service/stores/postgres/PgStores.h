#pragma once

#include "service/stores/CachedKeyStore.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/SharedStores.h"
#include "service/stores/Stores.h"
#include "service/stores/postgres/PgAccess.h"
#include "service/stores/postgres/PgAuditStore.h"
#include "service/stores/postgres/PgChangeStamp.h"
#include "service/stores/postgres/PgConnections.h"
#include "service/stores/postgres/PgEventStore.h"
#include "service/stores/postgres/PgKeyRows.h"
#include "service/stores/postgres/PgStatusStore.h"

#include <memory>
#include <string>

namespace jobdeck {

// The stores over one PostgreSQL database (schema: PgSchema; connections: PgConnections), which any
// number of jobdeckd processes may share. Deferred audit entries and statuses are committed in groups
// by DeferredWrites, as with SQLite.
class PgStores final : public Stores {
public:
    // `databaseUrl` is postgresql://user[:password]@host[:port]/database (or postgres://). Connects, runs
    // the schema migrations; a database whose schema is newer than this binary is refused and left
    // untouched. Throws DatabaseError with one clear line (never the password).
    static std::unique_ptr<PgStores> open(const std::string& databaseUrl);
    // The schema version this binary creates and understands.
    static int schemaVersion();

    ~PgStores() override;
    PgStores(const PgStores&) = delete;
    PgStores& operator=(const PgStores&) = delete;

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

    // Also when the database is no longer the one opened: dropped and created again, or its schema gone.
    std::optional<std::string> unavailableReason() override;
    void flushDeferred() override;
    void announceAdmissions() override;
    std::unique_ptr<ReplicaWatch> watchOtherReplicas(const ReplicaNews& news) override;

private:
    PgStores(const std::string& url, const std::string& where);

    const std::string m_url;
    PgConnections m_connections;
    std::string m_identity; // the database's and its schema's object ids when it was opened
    PgChangeStamp m_changeStamp;
    SharedProjectStore<PgAccess> m_projects;
    PgKeyRows m_keyRows;
    CachedKeyStore m_keys;
    SharedJobStore<PgAccess> m_jobs;
    SharedClusterStore<PgAccess> m_clusters;
    SharedRunStore<PgAccess> m_runs;
    SharedWriteKeyStore<PgAccess> m_writeKeys;
    PgEventStore m_events;
    // The group commits write through these two; made after the queue, destroyed (flushed) first.
    std::unique_ptr<DeferredWrites> m_deferred;
    std::unique_ptr<PgAuditStore> m_audit;
    std::unique_ptr<PgStatusStore> m_statuses;
};

} // namespace jobdeck
