#pragma once

#include "core/policy/Role.h"
#include "core/statements/Statement.h"

#include <optional>
#include <string>

namespace jobdeck {

// Which role a statement needs (CONTRACT §1), and the refusal's text. The service refuses with it; a
// console that knows its key's role shows the same reason before sending: viewer reads (DESCRIBE, SHOW),
// operator also changes jobs, runs and clusters, admin also the project's settings and allow-list and reads
// the audit log.
class RolePolicy final {
public:
    static Role requiredRole(const Statement& statement);
    static bool allows(Role role, const Statement& statement);
    // "Permission denied: <role> cannot <action>" when the role may not run the statement.
    static std::optional<std::string> refusal(Role role, const Statement& statement);
};

} // namespace jobdeck
