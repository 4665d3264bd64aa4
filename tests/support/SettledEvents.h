#pragma once

#include "service/stores/EventStore.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace jobdeck {

// The project's events after `after` once none is held back (EventStore::EventsAfter: on PostgreSQL a
// transaction of the server's own may be in progress for a moment). Bounded: after 20 s, what there is.
inline std::vector<ProjectEvent> settledEventsAfter(EventStore& events, const std::string& project,
                                                    std::int64_t after, int limit = 100) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (;;) {
        auto found = events.eventsAfter(project, after, limit);
        if (!found.heldBack || std::chrono::steady_clock::now() > deadline)
            return std::move(found.events);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace jobdeck
