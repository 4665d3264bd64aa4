#include "service/stores/SqliteEventStore.h"

#include <optional>

namespace jobdeck {

std::int64_t SqliteEventStore::appendEvent(const std::string& projectUid, const ProjectEvent& event) {
    auto lock = m_db.lock();
    std::optional<std::string> status;
    if (event.status)
        status = std::string(jobRunStatusName(*event.status));
    m_db.execute(
        "INSERT INTO events(project_uid, type, job_name, job_run_id, status, at) VALUES (?, ?, ?, ?, ?, ?)",
        projectUid, event.type, event.jobName, event.jobRunId, status, formatTimestamp(event.at));
    return m_db.lastInsertRowId();
}

std::vector<ProjectEvent> SqliteEventStore::eventsAfter(const std::string& projectUid, std::int64_t after,
                                                        int limit) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT seq, type, job_name, job_run_id, status, at FROM events "
                      "WHERE project_uid = ? AND seq > ? ORDER BY seq LIMIT ?",
                      projectUid, after, limit);
    std::vector<ProjectEvent> events;
    while (q.step()) {
        ProjectEvent e;
        e.seq = q.int64(0);
        e.type = q.text(1);
        e.jobName = q.text(2);
        e.jobRunId = q.optionalText(3);
        if (const auto status = q.optionalText(4))
            e.status = jobRunStatusFromName(*status);
        e.at = q.timestamp(5);
        events.push_back(std::move(e));
    }
    return events;
}

std::int64_t SqliteEventStore::latestEventSeq(const std::string& projectUid) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT coalesce(max(seq), 0) FROM events WHERE project_uid = ?", projectUid);
    q.step();
    return q.int64(0);
}

std::int64_t SqliteEventStore::latestEventSeqOverall() {
    // sqlite_sequence remembers the highest seq even after pruning.
    auto r = m_connections.reader();
    auto q = r->query("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0)");
    q.step();
    return q.int64(0);
}

void SqliteEventStore::pruneEvents(const std::string& projectUid, int keep) {
    m_db.transaction([&] {
        std::int64_t cutoff = 0;
        {
            auto q =
                m_db.query("SELECT seq FROM events WHERE project_uid = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                           projectUid, keep);
            if (!q.step())
                return;
            cutoff = q.int64(0);
        }
        m_db.execute("DELETE FROM events WHERE project_uid = ? AND seq <= ?", projectUid, cutoff);
        m_db.execute(
            "UPDATE projects SET events_pruned_through = max(events_pruned_through, ?) WHERE uid = ?", cutoff,
            projectUid);
    });
}

std::int64_t SqliteEventStore::prunedEventSeq(const std::string& projectUid) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT events_pruned_through FROM projects WHERE uid = ?", projectUid);
    return q.step() ? q.int64(0) : 0;
}

} // namespace jobdeck
