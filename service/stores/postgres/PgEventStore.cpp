#include "service/stores/postgres/PgEventStore.h"

#include "service/stores/EventRows.h"

#include <algorithm>

namespace jobdeck {

std::int64_t PgEventStore::appendEvent(const std::string& projectUid, const ProjectEvent& event) {
    const std::int64_t seq = event_rows::append(*m_connections.connection(), projectUid, event);
    announceAfterCommit(projectUid);
    return seq;
}

void PgEventStore::recordEvent(const std::string& projectUid, const ProjectEvent& event) {
    event_rows::appendLater(*m_connections.connection(), projectUid, event);
    announceAfterCommit(projectUid);
}

// PgEventNotifier says why not in the transaction.
void PgEventStore::announceAfterCommit(const std::string& projectUid) {
    if (m_connections.inStepOnThisThread())
        m_connections.onStepEnd([this, projectUid](bool committed) {
            if (committed)
                m_notifier.announce(projectUid);
        });
    else
        m_notifier.announce(projectUid);
}

EventStore::EventsAfter PgEventStore::eventsAfter(const std::string& projectUid, std::int64_t after,
                                                  int limit) {
    // One statement, so one snapshot: its xmin, the highest seq of all projects it sees, the project's
    // events after `after`, and how many events of all projects lie between `after` and the last of
    // them (when none is missing there, nothing can still be committed below them); and an id given to
    // the statement after its snapshot (SettledEventSeqs says why; its transaction writes nothing, so
    // it commits without waiting for the disk).
    static const char* const sql =
        "WITH mine AS (SELECT seq, type, job_name, job_run_id, status, at FROM events "
        "              WHERE project_uid = ? AND seq > ? ORDER BY seq LIMIT ?), "
        "seen AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS xmin, "
        "                pg_current_xact_id()::text::bigint AS id_after, "
        "                (SELECT coalesce(max(seq), 0) FROM events) AS newest, "
        "                (SELECT count(*) FROM events WHERE seq > ? AND seq <= (SELECT max(seq) FROM mine)) "
        "                    AS present) "
        "SELECT seen.xmin, seen.id_after, seen.newest, seen.present, mine.* FROM seen LEFT JOIN mine ON true "
        "ORDER BY mine.seq";
    auto connection = m_connections.connection();
    auto q = connection->query(sql, projectUid, after, limit, after);
    std::vector<ProjectEvent> found;
    std::int64_t xmin = 0, idAfter = 0, newest = 0, present = 0;
    while (q.step()) {
        xmin = q.int64(0);
        idAfter = q.int64(1);
        newest = q.int64(2);
        present = q.int64(3);
        if (!q.isNull(4))
            found.push_back(event_rows::read(q, 4));
    }
    const std::int64_t settled = m_settled.observe(xmin, idAfter, newest);
    if (found.empty() || present == found.back().seq - after)
        return {std::move(found), false};
    const auto unsettled =
        std::find_if(found.begin(), found.end(), [&](const ProjectEvent& e) { return e.seq > settled; });
    const bool heldBack = unsettled != found.end();
    found.erase(unsettled, found.end());
    return {std::move(found), heldBack};
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
