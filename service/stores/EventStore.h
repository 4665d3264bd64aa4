#pragma once

#include "core/wire/ProjectEvent.h"

#include <cstdint>
#include <string>
#include <vector>

namespace jobdeck {

// Each project's change events, numbered by one sequence over all projects (see EventBus).
class EventStore {
public:
    virtual ~EventStore() = default;
    // Stores the event with the next seq (joining the caller's UnitOfWork, if any) and returns it.
    virtual std::int64_t appendEvent(const std::string& projectUid, const ProjectEvent& event) = 0;
    // appendEvent() for a caller that does not need the seq: on PostgreSQL inside a step the insert goes
    // with the step's next statement or its COMMIT, in the same round trip.
    virtual void recordEvent(const std::string& projectUid, const ProjectEvent& event) = 0;
    // Events with seq > after, oldest first, at most `limit`, of those that are settled: no event with a
    // lower seq can still be committed. `heldBack`: later ones are stored but not settled yet
    // (PostgreSQL: a transaction that may still commit a lower seq is in progress); ask again shortly.
    struct EventsAfter {
        std::vector<ProjectEvent> events;
        bool heldBack = false;
    };
    virtual EventsAfter eventsAfter(const std::string& projectUid, std::int64_t after, int limit) = 0;
    // The highest seq of the project's events (0 when none), and the highest ever handed out.
    virtual std::int64_t latestEventSeq(const std::string& projectUid) = 0;
    virtual std::int64_t latestEventSeqOverall() = 0;
    // Drops the project's oldest events so that at most `keep` remain; the dropped range is
    // remembered so a client asking from inside it is told to reload.
    virtual void pruneEvents(const std::string& projectUid, int keep) = 0;
    // The highest seq that was dropped for the project (0 when none).
    virtual std::int64_t prunedEventSeq(const std::string& projectUid) = 0;
};

} // namespace jobdeck
