#pragma once

#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobSummary.h"
#include "core/wire/Timestamp.h"
#include "service/stores/JobStore.h"
#include "service/stores/ProjectFilter.h"
#include "service/stores/SqlConnection.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// The SQL of the jobs table, the same on both backends (`?` parameters), over either backend's
// connection (`Db`, a SqlConnection: SqliteDatabase or PgConnection).
namespace jobdeck::job_rows {

inline constexpr const char* activeStatuses =
    "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')";

// A list's jobs' runs in QUEUED or RUNNING, as `a.active` (null for none) beside each row `j`: counted
// in one pass over the active runs (few: bounded by the clusters' capacity, reached by their status),
// not once per job. `runs` is how the backend names the runs table for that pass (SQLite:
// `runs INDEXED BY runs_by_status`). Binds the project first.
inline std::string activeRunsJoin(const std::string& runs) {
    return " LEFT JOIN (SELECT job_id, count(*) AS active FROM " + runs + " WHERE status IN " +
           activeStatuses + " AND project_uid = ? GROUP BY job_id) a ON a.job_id = j.job_id";
}

inline constexpr const char* jobFields =
    "j.job_id, j.name, j.type, j.cluster, j.parameters, j.max_concurrent_runs, j.created_at, j.updated_at, ";

template <SqlRow Row> SparkJob readJob(const Row& q) {
    SparkJob job;
    job.jobId = q.text(0);
    job.name = q.text(1);
    job.type = jobTypeFromName(q.text(2)).value_or(JobType::Jar);
    job.cluster = q.text(3);
    const nlohmann::json parameters = nlohmann::json::parse(q.text(4));
    job.parameters = parameters.get<std::vector<std::string>>();
    job.maxConcurrentRuns = q.integer(5);
    job.createdAt = q.timestamp(6);
    job.updatedAt = q.timestamp(7);
    job.activeRuns = q.integer(8);
    return job;
}

// `lock`: the backend's locking clause for the job's row (" FOR SHARE OF j", ...), or empty.
template <SqlConnection Db>
std::optional<SparkJob> find(Db& db, const std::string& projectUid, const std::string& name,
                             const std::string& lock = {}) {
    // One job's runs in QUEUED or RUNNING, from the index of active runs only (runs_active_by_job).
    static const std::string sql =
        std::string("SELECT ") + jobFields +
        "(SELECT count(*) FROM runs r WHERE r.project_uid = j.project_uid AND r.job_id = j.job_id AND "
        "r.status IN " +
        activeStatuses + ") FROM jobs j WHERE j.project_uid = ? AND j.name = ?";
    auto q = db.query(sql + lock, projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readJob(q);
}

// find() without the count, with the project's concurrent-run settings; `lock`: the backend's locking
// clause for the rows `j` and `p` (" FOR UPDATE OF j FOR KEY SHARE OF p"), or empty. PostgreSQL returns a
// row locked after a wait as its holder committed it, so both are read as they are once held. Read by
// readToRun().
template <SqlConnection Db>
auto toRunQuery(Db& db, const std::string& projectUid, const std::string& name, const std::string& lock) {
    return db.query(
        std::string("SELECT ") + jobFields +
            "0, p.concurrent_runs_enabled, p.max_concurrent_runs_limit FROM jobs j JOIN projects p "
            "ON p.uid = j.project_uid WHERE j.project_uid = ? AND j.name = ?" +
            lock,
        projectUid, name);
}

// The job of toRunQuery(), its active runs not read.
template <SqlQuery Query> std::optional<JobStore::JobToRun> readToRun(Query& q) {
    if (!q.step())
        return std::nullopt;
    return JobStore::JobToRun{readJob(q), {q.int64(9) != 0, q.integer(10)}, {}};
}

template <SqlConnection Db>
void forEach(Db& db, const std::string& runs, const std::string& projectUid,
             const std::function<void(SparkJob&&)>& each) {
    auto q = db.query(std::string("SELECT ") + jobFields + "coalesce(a.active, 0) FROM jobs j" +
                          activeRunsJoin(runs) + " WHERE j.project_uid = ? ORDER BY j.name",
                      projectUid, projectUid);
    while (q.step())
        each(readJob(q));
}

// The first `limit` (-1: all) by name. Its columns are all in the index jobs_summary, so the list is
// read from it in name order without visiting the jobs' rows (which hold their parameters).
template <SqlConnection Db>
void forEachSummary(Db& db, const std::string& runs, const std::string& projectUid, std::int64_t limit,
                    const std::function<void(SparkJobSummary&&)>& each) {
    auto q = db.prepare("SELECT j.name, j.type, j.cluster, j.max_concurrent_runs, j.updated_at, "
                        "coalesce(a.active, 0) FROM jobs j" +
                        activeRunsJoin(runs) + " WHERE j.project_uid = ? ORDER BY j.name" +
                        (limit >= 0 ? " LIMIT ?" : ""));
    q.bind(1, projectUid).bind(2, projectUid);
    if (limit >= 0)
        q.bind(3, limit);
    while (q.step())
        each({q.text(0), jobTypeFromName(q.text(1)).value_or(JobType::Jar), q.text(2), q.integer(3),
              q.integer(5), q.timestamp(4)});
}

template <SqlConnection Db>
std::pair<std::int64_t, std::int64_t> size(Db& db, const std::string& projectUid) {
    auto q = db.query("SELECT count(*), coalesce(sum(length(parameters)), 0) FROM jobs WHERE project_uid = ?",
                      projectUid);
    q.step();
    return {q.int64(0), q.int64(1)};
}

template <SqlConnection Db> void insert(Db& db, const std::string& projectUid, const SparkJob& job) {
    db.execute("INSERT INTO jobs(job_id, project_uid, name, type, parameters, cluster, max_concurrent_runs, "
               "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
               job.jobId, projectUid, job.name, jobTypeName(job.type), nlohmann::json(job.parameters).dump(),
               job.cluster, job.maxConcurrentRuns, formatTimestamp(job.createdAt),
               formatTimestamp(job.updatedAt));
}

template <SqlConnection Db> void update(Db& db, const std::string& projectUid, const SparkJob& job) {
    db.execute(std::string("UPDATE jobs SET type = ?, parameters = ?, cluster = ?, max_concurrent_runs = ?, "
                           "updated_at = ? WHERE job_id = ? AND ") +
                   kOfProject,
               jobTypeName(job.type), nlohmann::json(job.parameters).dump(), job.cluster,
               job.maxConcurrentRuns, formatTimestamp(job.updatedAt), job.jobId, projectUid);
}

template <SqlConnection Db> void remove(Db& db, const std::string& projectUid, const std::string& jobId) {
    db.execute(std::string("DELETE FROM jobs WHERE job_id = ? AND ") + kOfProject, jobId, projectUid);
}

template <SqlConnection Db>
int activeRunCount(Db& db, const std::string& projectUid, const std::string& jobId) {
    auto q = db.query(
        std::string("SELECT count(*) FROM runs WHERE project_uid = ? AND job_id = ? AND status IN ") +
            activeStatuses,
        projectUid, jobId);
    q.step();
    return q.integer(0);
}

template <SqlConnection Db>
std::vector<std::string> namesOnCluster(Db& db, const std::string& projectUid, const std::string& cluster) {
    auto q = db.query("SELECT name FROM jobs WHERE project_uid = ? AND cluster = ? ORDER BY name", projectUid,
                      cluster);
    std::vector<std::string> names;
    while (q.step())
        names.push_back(q.text(0));
    return names;
}

} // namespace jobdeck::job_rows
