#include "core/wire/ProjectEvent.h"

#include "core/wire/WireFields.h"

namespace jobdeck {

void to_json(nlohmann::json& j, const ProjectEvent& e) {
    j = nlohmann::json{
        {"seq", e.seq},
        {"type", e.type},
        {"jobName", e.jobName},
        {"at", formatTimestamp(e.at)},
    };
    wire::put(j, "jobRunId", e.jobRunId);
    if (e.status)
        j["status"] = jobRunStatusName(*e.status);
    else
        j["status"] = nullptr;
}

void from_json(const nlohmann::json& j, ProjectEvent& e) {
    constexpr std::string_view object = "event";
    wire::requireObject(j, object);
    ProjectEvent r;
    r.seq = wire::required<std::int64_t>(j, object, "seq");
    r.type = wire::required<std::string>(j, object, "type");
    r.jobName = wire::optional<std::string>(j, object, "jobName").value_or("");
    r.jobRunId = wire::optional<std::string>(j, object, "jobRunId");
    if (const auto status = wire::optional<std::string>(j, object, "status")) {
        r.status = jobRunStatusFromName(*status);
        if (!r.status)
            wire::throwUnknownValue(object, "status", *status);
    }
    r.at = wire::required<TimePoint>(j, object, "at");
    e = std::move(r);
}

void to_json(nlohmann::json& j, const EventsPage& page) {
    j = nlohmann::json{{"events", page.events}, {"next", page.next}, {"reload", page.reload}};
}

void from_json(const nlohmann::json& j, EventsPage& page) {
    constexpr std::string_view object = "eventsPage";
    wire::requireObject(j, object);
    EventsPage r;
    r.events =
        wire::optional<std::vector<ProjectEvent>>(j, object, "events").value_or(std::vector<ProjectEvent>{});
    r.next = wire::required<std::int64_t>(j, object, "next");
    r.reload = wire::optional<bool>(j, object, "reload").value_or(false);
    page = std::move(r);
}

} // namespace jobdeck
