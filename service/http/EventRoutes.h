#pragma once

#include <chrono>

namespace jobdeck {

class EventBus;
class HttpServer;

// GET /v1/events?after=<seq>&wait=<seconds>: the project's events after `after` (0 when absent),
// answered as soon as there is one, or empty when `wait` (0..60, default 0) runs out. The wait
// happens on the EventBus's thread, never on an HTTP worker.
class EventRoutes final {
public:
    explicit EventRoutes(EventBus& events)
        : m_events(events) {}
    void registerRoutes(HttpServer& server);

    static constexpr std::chrono::seconds maxWait{60};

private:
    EventBus& m_events;
};

} // namespace jobdeck
