#pragma once

#include "service/stores/AuditStore.h"
#include "service/stores/ChunkedInsert.h"
#include "service/stores/DeferredWrites.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The audit table (see PgSchema). Deferred entries are queued in `deferred`, whose group commits write
// them through insertRows().
class PgAuditStore final : public AuditStore {
public:
    using RowErrors = chunked_insert::RowErrors;

    PgAuditStore(PgConnections& connections, DeferredWrites& deferred)
        : m_connections(connections)
        , m_deferred(deferred) {}

    void appendAudit(const AuditEntry& entry) override;
    void deferAudit(AuditEntry entry) override;
    std::vector<AuditEntry> recentAudit(const std::string& projectUid, int limit) override;
    SweepStep sweepExpired(TimePoint cutoff, std::int64_t after) override;

    // Multi-row INSERTs, joining the step under way on this thread, if any.
    void insertRows(const std::vector<AuditEntry>& entries, RowErrors errors);

private:
    PgConnections& m_connections;
    DeferredWrites& m_deferred;
};

} // namespace jobdeck
