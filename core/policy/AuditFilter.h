#pragma once

#include "core/wire/ApiStatus.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Timestamp.h"

#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// What an audited statement was: its kind ("ALTER PROJECT", "CREATE JOB", ...) and what it was about (a job,
// cluster or run name, "project" for ALTER PROJECT). Read from the statement's (masked) text; a statement
// that did not parse gives its first two words as the kind and no target.
struct AuditStatementSummary final {
    std::string kind;
    std::string target;
    bool isRead = false; // a DESCRIBE or SHOW that parsed: it changed nothing
    bool operator==(const AuditStatementSummary&) const = default;
};

AuditStatementSummary summarizeAuditStatement(std::string_view statement);

// The audit view's filter. An empty field matches everything; `text` is matched, ASCII case-insensitively,
// against the statement, key id, role, target, error message and request id. Reads (DESCRIBE, SHOW) are
// left out unless `includeReads` or `kind` names a read: most entries are reads, and the changes are
// what an audit is read for.
struct AuditFilter final {
    std::string text;
    std::string kind;
    std::optional<ApiOperationStatus> outcome;
    std::optional<TimePoint> from; // inclusive
    std::optional<TimePoint> to;   // inclusive
    bool includeReads = true;

    bool matches(const AuditEntry& entry) const;
    bool matches(const AuditEntry& entry, const AuditStatementSummary& summary) const;
};

} // namespace jobdeck
