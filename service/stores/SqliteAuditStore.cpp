#include "service/stores/SqliteAuditStore.h"

#include "service/stores/AuditRows.h"
#include "service/stores/SweepRows.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace jobdeck {

void SqliteAuditStore::appendAudit(const AuditEntry& entry) {
    m_db.transaction([&] {
        m_deferred.flushAuditEntries(); // joins this transaction
        insertRows({entry}, RowErrors::Throw);
    });
}

void SqliteAuditStore::deferAudit(AuditEntry entry) {
    m_deferred.addAudit(std::move(entry));
}

void SqliteAuditStore::insertRows(const std::vector<AuditEntry>& audit, RowErrors errors) {
    audit_rows::insert(m_db, audit, errors);
}

std::vector<AuditEntry> SqliteAuditStore::recentAudit(const std::string& projectUid, int limit) {
    m_deferred.flush();
    auto r = m_connections.freshReader(); // a snapshot taken before the flush would miss what it wrote
    return audit_rows::recent(*r, projectUid, limit);
}

SweepStep SqliteAuditStore::sweepExpired(TimePoint cutoff, std::int64_t after) {
    static const sweep_rows::Table table{"audit", "seq", "at", "at", ""};
    return m_db.transaction([&] { return sweep_rows::batch(m_db, table, cutoff, after); });
}

} // namespace jobdeck
