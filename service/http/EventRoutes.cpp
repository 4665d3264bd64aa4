#include "service/http/EventRoutes.h"

#include "core/wire/HttpMessages.h"
#include "core/wire/QueryParameters.h"
#include "service/http/HttpServer.h"
#include "service/runs/EventBus.h"

#include <string>

namespace jobdeck {

void EventRoutes::registerRoutes(HttpServer& server) {
    server.addAuthenticatedRoute(
        "GET", "/v1/events",
        [this](const HttpRequest& request, const RequestContext& authenticated, const Responder& respond) {
            const Principal& principal = authenticated.principal;
            if (request.path != "/v1/events" && request.path != "/v1/events/") {
                respond(HttpResponse::error(404, pathNotFoundMessage(request.path)));
                return;
            }
            std::int64_t after = 0;
            if (const auto it = request.query.find("after"); it != request.query.end()) {
                const auto parsed = parseNonNegative(it->second);
                if (!parsed) {
                    respond(HttpResponse::error(400, nonNegativeIntegerExpectedMessage("after", it->second)));
                    return;
                }
                after = *parsed;
            }
            std::int64_t wait = 0;
            if (const auto it = request.query.find("wait"); it != request.query.end()) {
                const auto parsed = parseNonNegative(it->second);
                if (!parsed || *parsed > maxWait.count()) {
                    respond(HttpResponse::error(
                        400, secondsInRangeExpectedMessage("wait", maxWait.count(), it->second)));
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
