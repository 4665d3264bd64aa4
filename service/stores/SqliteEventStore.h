#pragma once

#include "service/stores/EventStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The events table (see SqliteSchema); seq is its AUTOINCREMENT key.
class SqliteEventStore final : public EventStore {
public:
    explicit SqliteEventStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

    std::int64_t appendEvent(const std::string& projectUid, const ProjectEvent& event) override;
    void recordEvent(const std::string& projectUid, const ProjectEvent& event) override {
        appendEvent(projectUid, event);
    }
    EventsAfter eventsAfter(const std::string& projectUid, std::int64_t after, int limit) override;
    std::int64_t latestEventSeq(const std::string& projectUid) override;
    std::int64_t latestEventSeqOverall() override;
    void pruneEvents(const std::string& projectUid, int keep) override;
    std::int64_t prunedEventSeq(const std::string& projectUid) override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
