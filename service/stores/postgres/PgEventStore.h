#pragma once

#include "service/stores/EventStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The events table (see PgSchema); seq is its identity column.
class PgEventStore final : public EventStore {
public:
    explicit PgEventStore(PgConnections& connections)
        : m_connections(connections) {}

    // The seq is drawn when the transaction commits (migration 9), so that seqs follow the order of
    // commits while steps run at once; inside a step the value returned is the one drawn first, not the
    // final one (outside a step it is the final one).
    std::int64_t appendEvent(const std::string& projectUid, const ProjectEvent& event) override;
    std::vector<ProjectEvent> eventsAfter(const std::string& projectUid, std::int64_t after,
                                          int limit) override;
    std::int64_t latestEventSeq(const std::string& projectUid) override;
    std::int64_t latestEventSeqOverall() override;
    void pruneEvents(const std::string& projectUid, int keep) override;
    std::int64_t prunedEventSeq(const std::string& projectUid) override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
