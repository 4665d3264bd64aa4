#pragma once

#include "core/wire/AuditEntry.h"
#include "core/wire/Timestamp.h"
#include "service/stores/SweepStep.h"

#include <cstdint>
#include <string>
#include <vector>

namespace jobdeck {

// The audit log: one entry per statement, in the order of the answers, scoped by project.
class AuditStore {
public:
    virtual ~AuditStore() = default;
    // Appends the entry durably, after the deferred ones (so seq follows the order of the answers).
    // Joins the caller's UnitOfWork, if any.
    virtual void appendAudit(const AuditEntry& entry) = 0;
    // Appends the entry with the next group commit.
    virtual void deferAudit(AuditEntry entry) = 0;
    // Newest first; deferred entries are committed first, so they are included.
    virtual std::vector<AuditEntry> recentAudit(const std::string& projectUid, int limit) = 0;
    // Deletes the next batch of entries after seq `after` made before `cutoff`.
    virtual SweepStep sweepExpired(TimePoint cutoff, std::int64_t after) = 0;
};

} // namespace jobdeck
