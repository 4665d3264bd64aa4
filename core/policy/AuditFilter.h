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

// The audit text of a key command run on the service's host, which sends no statement:
// "jobdeckd keys revoke: API key <id> (<role>) by OS user <user>". Its summary's kind is the command
// ("jobdeckd keys revoke") and its target the API key's id (never its secret).
std::string keyCommandAuditText(std::string_view command, std::string_view apiKey, std::string_view role,
                                std::string_view osUser);

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
