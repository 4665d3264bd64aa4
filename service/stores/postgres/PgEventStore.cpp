#include "service/stores/postgres/PgEventStore.h"

#include "service/stores/EventRows.h"
#include "service/stores/postgres/PgEventListener.h"

namespace jobdeck {

std::int64_t PgEventStore::appendEvent(const std::string& projectUid, const ProjectEvent& event) {
    auto connection = m_connections.connection();
    // The seq is drawn again when the transaction commits (migration 9), so that seqs follow commits.
    // The notification, in the same round trip, reaches the other replicas' PgEventListener then.
    static const std::string sql =
        std::string("WITH added AS (") + event_rows::kAppendSql + ") SELECT seq, pg_notify(?, ?) FROM added";
    auto added = connection->prepare(sql);
    event_rows::appendParameters(added, projectUid, event);
    added.bind(7, PgEventListener::kChannel).bind(8, projectUid);
    added.step();
    std::int64_t seq = added.int64(0);
    if (!m_connections.inStepOnThisThread()) {
        // Committed already: the seq drawn at its commit is this session's latest of the sequence.
        auto q = connection->query("SELECT currval(pg_get_serial_sequence('events', 'seq'))");
        if (q.step())
            seq = q.int64(0);
    }
    return seq;
}

std::vector<ProjectEvent> PgEventStore::eventsAfter(const std::string& projectUid, std::int64_t after,
                                                    int limit) {
    auto connection = m_connections.connection();
    return event_rows::after(*connection, projectUid, after, limit);
}

std::int64_t PgEventStore::latestEventSeq(const std::string& projectUid) {
    auto connection = m_connections.connection();
    return event_rows::latestSeq(*connection, projectUid);
}

std::int64_t PgEventStore::latestEventSeqOverall() {
    // The identity's sequence remembers the highest seq even after pruning.
    auto connection = m_connections.connection();
    auto q = connection->query("SELECT coalesce((SELECT last_value FROM pg_sequences WHERE schemaname = "
                               "current_schema() AND sequencename = 'events_seq_seq'), 0)");
    q.step();
    return q.int64(0);
}

void PgEventStore::pruneEvents(const std::string& projectUid, int keep) {
    m_connections.run([&] {
        auto connection = m_connections.connection();
        event_rows::prune(*connection, projectUid, keep);
    });
}

std::int64_t PgEventStore::prunedEventSeq(const std::string& projectUid) {
    auto connection = m_connections.connection();
    return event_rows::prunedSeq(*connection, projectUid);
}

} // namespace jobdeck
