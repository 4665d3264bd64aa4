#pragma once

#include "service/stores/EventStore.h"
#include "service/stores/postgres/PgConnections.h"
#include "service/stores/postgres/PgEventNotifier.h"
#include "service/stores/postgres/SettledEventSeqs.h"

namespace jobdeck {

// The events table (see PgSchema). An event's seq is drawn as it is inserted, and transactions commit
// in any order: eventsAfter() hands out an event only once nothing can still be committed below it,
// when no seq is missing between `after` and it, or else once SettledEventSeqs says so.
class PgEventStore final : public EventStore {
public:
    explicit PgEventStore(PgConnections& connections)
        : m_connections(connections)
        , m_notifier(connections) {}

    std::int64_t appendEvent(const std::string& projectUid, const ProjectEvent& event) override;
    void recordEvent(const std::string& projectUid, const ProjectEvent& event) override;
    EventsAfter eventsAfter(const std::string& projectUid, std::int64_t after, int limit) override;
    std::int64_t latestEventSeq(const std::string& projectUid) override;
    std::int64_t latestEventSeqOverall() override;
    void pruneEvents(const std::string& projectUid, int keep) override;
    std::int64_t prunedEventSeq(const std::string& projectUid) override;
    // Stores::announceAdmissions, through the notifier that announces the events.
    void announceAdmissions() { m_notifier.announceAdmissions(); }

private:
    // The other replicas hear of the project's events once they committed.
    void announceAfterCommit(const std::string& projectUid);

    PgConnections& m_connections;
    SettledEventSeqs m_settled;
    PgEventNotifier m_notifier;
};

} // namespace jobdeck
