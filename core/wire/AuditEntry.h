#pragma once

#include "core/wire/ApiStatus.h"
#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace jobdeck {

// One audited statement, as shown to admins in DESCRIBE PROJECT (project.recentAudit[]).
// JSON field names are the member names; errorMessage is written as null when absent.
// Required in from_json: seq, at, outcome. Optional: projectUid, keyId, role, statement, requestId (""),
// errorMessage, headers (empty).
struct AuditEntry final {
    std::int64_t seq = 0;
    TimePoint at{};
    std::string projectUid;
    std::string keyId;                                        // the API key's id, never its secret
    std::string role;                                         // "viewer" | "operator" | "admin"
    std::string statement;                                    // secret values already masked
    ApiOperationStatus outcome = ApiOperationStatus::Pending; // written as the apiStatus name
    std::optional<std::string> errorMessage;
    std::string requestId;
    // The recorded x-onehouse-* headers (account-uid, link-uid, region, uuid), lower-case names.
    std::map<std::string, std::string> headers;
    bool operator==(const AuditEntry&) const = default;
};

void to_json(nlohmann::json& j, const AuditEntry& e);
void from_json(const nlohmann::json& j, AuditEntry& e);

} // namespace jobdeck
