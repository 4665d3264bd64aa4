#include "service/http/EventRoutes.h"

#include "service/EventBus.h"
#include "service/http/HttpServer.h"

#include <charconv>
#include <optional>
#include <string>

namespace jobdeck {
namespace {

std::optional<std::int64_t> parseNonNegative(const std::string& text) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value < 0)
        return std::nullopt;
    return value;
}

} // namespace

void EventRoutes::registerRoutes(HttpServer& server) {
    server.addAuthenticatedRoute(
        "GET", "/v1/events",
        [this](const HttpRequest& request, const RequestContext& authenticated, const Responder& respond) {
            const Principal& principal = authenticated.principal;
            if (request.path != "/v1/events" && request.path != "/v1/events/") {
                respond(HttpResponse::error(404, "Not found: " + request.path));
                return;
            }
            std::int64_t after = 0;
            if (const auto it = request.query.find("after"); it != request.query.end()) {
                const auto parsed = parseNonNegative(it->second);
                if (!parsed) {
                    respond(HttpResponse::error(400, "after must be a non-negative integer, got '" +
                                                         it->second + "'"));
                    return;
                }
                after = *parsed;
            }
            std::int64_t wait = 0;
            if (const auto it = request.query.find("wait"); it != request.query.end()) {
                const auto parsed = parseNonNegative(it->second);
                if (!parsed || *parsed > maxWait.count()) {
                    respond(HttpResponse::error(400, "wait must be a number of seconds from 0 to " +
                                                         std::to_string(maxWait.count()) + ", got '" +
                                                         it->second + "'"));
                    return;
                }
                wait = *parsed;
            }
            m_events.waitForEvents(principal.projectUid, after, std::chrono::seconds(wait),
                                   [respond](const EventsPage& page) {
                                       respond(HttpResponse::json(nlohmann::json(page).dump()));
                                   });
        });
}

} // namespace jobdeck
