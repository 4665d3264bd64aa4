#include "service/stores/SqliteEventStore.h"

#include "service/stores/EventRows.h"

namespace jobdeck {

std::int64_t SqliteEventStore::appendEvent(const std::string& projectUid, const ProjectEvent& event) {
    return event_rows::append(m_db, projectUid, event);
}

EventStore::EventsAfter SqliteEventStore::eventsAfter(const std::string& projectUid, std::int64_t after,
                                                      int limit) {
    // One writer: seqs are drawn in the order their transactions commit, so every stored event is settled.
    auto r = m_connections.reader();
    return {event_rows::after(*r, projectUid, after, limit), false};
}

std::int64_t SqliteEventStore::latestEventSeq(const std::string& projectUid) {
    auto r = m_connections.reader();
    return event_rows::latestSeq(*r, projectUid);
}

std::int64_t SqliteEventStore::latestEventSeqOverall() {
    // sqlite_sequence remembers the highest seq even after pruning.
    auto r = m_connections.reader();
    auto q = r->query("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)");
    q.step();
    return q.int64(0);
}

void SqliteEventStore::pruneEvents(const std::string& projectUid, int keep) {
    m_db.transaction([&] { event_rows::prune(m_db, projectUid, keep); });
}

std::int64_t SqliteEventStore::prunedEventSeq(const std::string& projectUid) {
    auto r = m_connections.reader();
    return event_rows::prunedSeq(*r, projectUid);
}

} // namespace jobdeck
