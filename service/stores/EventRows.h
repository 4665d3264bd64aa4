#pragma once

#include "core/wire/ProjectEvent.h"
#include "core/wire/Timestamp.h"
#include "service/stores/SqlConnection.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The SQL of the events table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::event_rows {

// The INSERT of one event, returning its seq, and the same without reading the seq back;
// appendParameters() binds their six parameters.
inline constexpr std::string_view kAppendSql =
    "INSERT INTO events(project_uid, type, job_name, job_run_id, status, at) "
    "VALUES (?, ?, ?, ?, ?, ?) RETURNING seq";
inline constexpr std::string_view kInsertSql = kAppendSql.substr(0, kAppendSql.rfind(" RETURNING"));

template <class Query>
void appendParameters(Query& q, const std::string& projectUid, const ProjectEvent& event) {
    std::optional<std::string> status;
    if (event.status)
        status = std::string(jobRunStatusName(*event.status));
    q.bindAll(projectUid, event.type, event.jobName, event.jobRunId, status, formatTimestamp(event.at));
}

template <SqlConnection Db>
std::int64_t append(Db& db, const std::string& projectUid, const ProjectEvent& event) {
    auto q = db.prepare(kAppendSql);
    appendParameters(q, projectUid, event);
    q.step();
    return q.int64(0);
}

// append() without reading the seq back: the insert may wait for the connection's next round trip.
template <SqlConnection Db>
void appendLater(Db& db, const std::string& projectUid, const ProjectEvent& event) {
    auto q = db.prepare(kInsertSql);
    appendParameters(q, projectUid, event);
    q.runLater();
}

// The columns seq, type, job_name, job_run_id, status, at of a row, from `first` on.
template <class Query> ProjectEvent read(Query& q, int first) {
    ProjectEvent e;
    e.seq = q.int64(first);
    e.type = q.text(first + 1);
    e.jobName = q.text(first + 2);
    e.jobRunId = q.optionalText(first + 3);
    if (const auto status = q.optionalText(first + 4))
        e.status = jobRunStatusFromName(*status);
    e.at = q.timestamp(first + 5);
    return e;
}

template <SqlConnection Db>
std::vector<ProjectEvent> after(Db& db, const std::string& projectUid, std::int64_t after, int limit) {
    auto q = db.query("SELECT seq, type, job_name, job_run_id, status, at FROM events "
                      "WHERE project_uid = ? AND seq > ? ORDER BY seq LIMIT ?",
                      projectUid, after, limit);
    std::vector<ProjectEvent> events;
    while (q.step())
        events.push_back(read(q, 0));
    return events;
}

template <SqlConnection Db> std::int64_t latestSeq(Db& db, const std::string& projectUid) {
    auto q = db.query("SELECT coalesce(max(seq), 0) FROM events WHERE project_uid = ?", projectUid);
    q.step();
    return q.int64(0);
}

// Inside the caller's step.
template <SqlConnection Db> void prune(Db& db, const std::string& projectUid, int keep) {
    std::int64_t cutoff = 0;
    {
        auto q = db.query("SELECT seq FROM events WHERE project_uid = ? ORDER BY seq DESC LIMIT 1 OFFSET ?",
                          projectUid, keep);
        if (!q.step())
            return;
        cutoff = q.int64(0);
    }
    // The project's row first: prunes of one project by several replicas then wait for each other
    // there, instead of deleting the same events in different orders (a deadlock).
    db.execute("UPDATE projects SET events_pruned_through = CASE WHEN events_pruned_through > ? "
               "THEN events_pruned_through ELSE ? END WHERE uid = ?",
               cutoff, cutoff, projectUid);
    db.execute("DELETE FROM events WHERE project_uid = ? AND seq <= ?", projectUid, cutoff);
}

template <SqlConnection Db> std::int64_t prunedSeq(Db& db, const std::string& projectUid) {
    auto q = db.query("SELECT events_pruned_through FROM projects WHERE uid = ?", projectUid);
    return q.step() ? q.int64(0) : 0;
}

} // namespace jobdeck::event_rows
