#include "service/stores/postgres/PgAuditStore.h"

#include "service/stores/AuditRows.h"
#include "service/stores/SweepRows.h"

namespace jobdeck {

void PgAuditStore::appendAudit(const AuditEntry& entry) {
    m_connections.run([&] {
        m_deferred.flushAuditEntries(); // joins this step
        insertRows({entry}, RowErrors::Throw);
    });
}

void PgAuditStore::deferAudit(AuditEntry entry) {
    m_deferred.addAudit(std::move(entry));
}

void PgAuditStore::insertRows(const std::vector<AuditEntry>& entries, RowErrors errors) {
    auto connection = m_connections.connection();
    audit_rows::insert(*connection, entries, errors);
}

std::vector<AuditEntry> PgAuditStore::recentAudit(const std::string& projectUid, int limit) {
    m_deferred.flush();
    auto connection = m_connections.freshConnection(); // a snapshot taken before the flush would miss it
    return audit_rows::recent(*connection, projectUid, limit);
}

SweepStep PgAuditStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    static const sweep_rows::Table table{"audit", "seq", "at", "at", ""};
    return m_connections.run([&] {
        auto connection = m_connections.connection();
        return sweep_rows::batch(*connection, table, cutoff, after);
    });
}

} // namespace jobdeck
