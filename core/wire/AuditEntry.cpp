#include "core/wire/AuditEntry.h"

#include "core/wire/WireFields.h"

namespace jobdeck {

void to_json(nlohmann::json& j, const AuditEntry& e) {
    j = nlohmann::json{
        {"seq", e.seq},
        {"at", formatTimestamp(e.at)},
        {"projectUid", e.projectUid},
        {"keyId", e.keyId},
        {"role", e.role},
        {"statement", e.statement},
        {"outcome", apiOperationStatusName(e.outcome)},
        {"requestId", e.requestId},
        {"headers", e.headers},
    };
    wire::put(j, "errorMessage", e.errorMessage);
}

void from_json(const nlohmann::json& j, AuditEntry& e) {
    constexpr std::string_view object = "auditEntry";
    wire::requireObject(j, object);
    AuditEntry r;
    r.seq = wire::required<std::int64_t>(j, object, "seq");
    r.at = wire::required<TimePoint>(j, object, "at");
    r.projectUid = wire::optional<std::string>(j, object, "projectUid").value_or("");
    r.keyId = wire::optional<std::string>(j, object, "keyId").value_or("");
    r.role = wire::optional<std::string>(j, object, "role").value_or("");
    r.statement = wire::optional<std::string>(j, object, "statement").value_or("");
    const auto outcome = wire::required<std::string>(j, object, "outcome");
    const auto s = apiOperationStatusFromName(outcome);
    if (!s)
        wire::throwUnknownValue(object, "outcome", outcome);
    r.outcome = *s;
    r.errorMessage = wire::optional<std::string>(j, object, "errorMessage");
    r.requestId = wire::optional<std::string>(j, object, "requestId").value_or("");
    r.headers = wire::optional<std::map<std::string, std::string>>(j, object, "headers")
                    .value_or(std::map<std::string, std::string>{});
    e = std::move(r);
}

} // namespace jobdeck
