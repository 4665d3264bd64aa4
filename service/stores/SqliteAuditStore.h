#pragma once

#include "service/stores/AuditStore.h"
#include "service/stores/ChunkedInsert.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The audit table (see SqliteSchema). Deferred entries are queued in `deferred`, whose group commits
// write them through insertRows().
class SqliteAuditStore final : public AuditStore {
public:
    using RowErrors = chunked_insert::RowErrors;
    SqliteAuditStore(SqliteConnections& connections, DeferredWrites& deferred)
        : m_connections(connections)
        , m_db(connections.writer())
        , m_deferred(deferred) {}

    void appendAudit(const AuditEntry& entry) override;
    void deferAudit(AuditEntry entry) override;
    std::vector<AuditEntry> recentAudit(const std::string& projectUid, int limit) override;
    SweepStep sweepExpired(TimePoint cutoff, std::int64_t after) override;
    // Multi-row INSERTs, joining the caller's transaction, if any.
    void insertRows(const std::vector<AuditEntry>& entries, RowErrors errors);

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
    DeferredWrites& m_deferred;
};

} // namespace jobdeck
