#include "core/wire/Project.h"

#include "core/wire/WireFields.h"

namespace jobdeck {

namespace {

const char* switchName(bool enabled) {
    return enabled ? "ENABLED" : "DISABLED";
}

std::optional<bool> readSwitch(const nlohmann::json& j, std::string_view object, const char* field) {
    const auto v = wire::optional<std::string>(j, object, field);
    if (!v)
        return std::nullopt;
    if (*v == "ENABLED")
        return true;
    if (*v == "DISABLED")
        return false;
    wire::throwUnknownValue(object, field, *v, "ENABLED or DISABLED");
}

} // namespace

void to_json(nlohmann::json& j, const ProjectSettings& s) {
    j = nlohmann::json{
        {"hudiConfigs", switchName(s.hudiConfigsEnabled)},
        {"hudiConfigAllowlist", s.hudiConfigAllowlist},
        {"concurrentRuns", switchName(s.concurrentRunsEnabled)},
        {"maxConcurrentRunsLimit", s.maxConcurrentRunsLimit},
    };
}

void from_json(const nlohmann::json& j, ProjectSettings& s) {
    constexpr std::string_view object = "settings";
    wire::requireObject(j, object);
    ProjectSettings r;
    r.hudiConfigsEnabled = readSwitch(j, object, "hudiConfigs").value_or(r.hudiConfigsEnabled);
    r.hudiConfigAllowlist = wire::optional<std::vector<std::string>>(j, object, "hudiConfigAllowlist")
                                .value_or(r.hudiConfigAllowlist);
    r.concurrentRunsEnabled = readSwitch(j, object, "concurrentRuns").value_or(r.concurrentRunsEnabled);
    r.maxConcurrentRunsLimit =
        wire::optional<int>(j, object, "maxConcurrentRunsLimit").value_or(r.maxConcurrentRunsLimit);
    s = std::move(r);
}

void to_json(nlohmann::json& j, const Project& p) {
    j = nlohmann::json{{"projectUid", p.projectUid}, {"name", p.name}, {"settings", p.settings}};
    if (p.recentAudit)
        j["recentAudit"] = *p.recentAudit;
    if (!p.callerRole.empty())
        j["callerRole"] = p.callerRole;
}

void from_json(const nlohmann::json& j, Project& p) {
    constexpr std::string_view object = "project";
    wire::requireObject(j, object);
    Project r;
    r.projectUid = wire::required<std::string>(j, object, "projectUid");
    r.name = wire::optional<std::string>(j, object, "name").value_or("");
    r.settings = wire::optional<ProjectSettings>(j, object, "settings").value_or(ProjectSettings{});
    r.recentAudit = wire::optional<std::vector<AuditEntry>>(j, object, "recentAudit");
    r.callerRole = wire::optional<std::string>(j, object, "callerRole").value_or("");
    p = std::move(r);
}

} // namespace jobdeck
