#pragma once

#include "core/policy/ProjectSettings.h"
#include "core/wire/AuditEntry.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// ProjectSettings on the wire:
//   {"hudiConfigs": "ENABLED"|"DISABLED", "hudiConfigAllowlist": [...],
//    "concurrentRuns": "ENABLED"|"DISABLED", "maxConcurrentRunsLimit": <n>}
// Every field is optional in from_json (defaults of ProjectSettings); a switch must be ENABLED or DISABLED.
void to_json(nlohmann::json& j, const ProjectSettings& s);
void from_json(const nlohmann::json& j, ProjectSettings& s);

// DESCRIBE PROJECT (apiResponse.describeProjectApiResponse.project).
// Required in from_json: projectUid. Optional: name (""), settings (defaults), recentAudit, callerRole ("").
// recentAudit is written only when set: the service sets it for admins (newest first), so an absent
// field means "not shown to you", an empty array "nothing recorded".
struct Project final {
    std::string projectUid;
    std::string name;
    ProjectSettings settings;
    std::optional<std::vector<AuditEntry>> recentAudit;
    // Jobdeck extension: the role of the key that asked ("viewer" | "operator" | "admin"), so a console
    // shows what that key may change before it sends anything. Written only when set.
    std::string callerRole;
    bool operator==(const Project&) const = default;
};

void to_json(nlohmann::json& j, const Project& p);
void from_json(const nlohmann::json& j, Project& p);

} // namespace jobdeck
