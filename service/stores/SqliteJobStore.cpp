#include "service/stores/SqliteJobStore.h"

#include <nlohmann/json.hpp>

namespace jobdeck {

namespace {

#define JOBDECK_ACTIVE_STATUSES "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')"
// A list's jobs' runs in QUEUED or RUNNING, as `a.active` (null for none) beside each row `j`: counted
// in one pass over the active runs (few: bounded by the clusters' capacity, reached by their status),
// not once per job. Binds the project first.
constexpr const char* activeRunsJoin =
    " LEFT JOIN (SELECT job_id, count(*) AS active FROM runs INDEXED BY runs_by_status "
    "WHERE status IN " JOBDECK_ACTIVE_STATUSES
    " AND project_uid = ? GROUP BY job_id) a ON a.job_id = j.job_id";
// One job's runs in QUEUED or RUNNING (runs_by_job holds all three columns).
constexpr const char* activeRunsOfJob =
    "(SELECT count(*) FROM runs r WHERE r.project_uid = j.project_uid AND "
    "r.job_id = j.job_id AND r.status IN " JOBDECK_ACTIVE_STATUSES ")";
constexpr const char* jobFields =
    "j.job_id, j.name, j.type, j.cluster, j.parameters, j.max_concurrent_runs, j.created_at, j.updated_at, ";
// All in the index jobs_summary, so the list is read from it in name order without visiting the jobs'
// rows (which hold their parameters).
constexpr const char* jobSummaryColumns =
    "j.name, j.type, j.cluster, j.max_concurrent_runs, j.updated_at, coalesce(a.active, 0)";

SparkJob readJob(const SqliteDatabase::Query& q) {
    SparkJob job;
    job.jobId = q.text(0);
    job.name = q.text(1);
    job.type = jobTypeFromName(q.text(2)).value_or(JobType::Jar);
    job.cluster = q.text(3);
    job.parameters = nlohmann::json::parse(q.text(4)).get<std::vector<std::string>>();
    job.maxConcurrentRuns = q.integer(5);
    job.createdAt = q.timestamp(6);
    job.updatedAt = q.timestamp(7);
    job.activeRuns = q.integer(8);
    return job;
}

} // namespace

std::optional<SparkJob> SqliteJobStore::findJob(const std::string& projectUid, const std::string& name) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + jobFields + activeRunsOfJob +
                          " FROM jobs j WHERE j.project_uid = ? AND j.name = ?",
                      projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readJob(q);
}

void SqliteJobStore::forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                       const std::function<void(SparkJobSummary&&)>& each) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + jobSummaryColumns + " FROM jobs j" + activeRunsJoin +
                          " WHERE j.project_uid = ? ORDER BY j.name LIMIT ?",
                      projectUid, projectUid, limit);
    while (q.step())
        each({q.text(0), jobTypeFromName(q.text(1)).value_or(JobType::Jar), q.text(2), q.integer(3),
              q.integer(5), q.timestamp(4)});
}

std::pair<std::int64_t, std::int64_t> SqliteJobStore::jobsSize(const std::string& projectUid) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT count(*), coalesce(sum(length(parameters)), 0) FROM jobs WHERE project_uid = ?",
                      projectUid);
    q.step();
    return {q.int64(0), q.int64(1)};
}

void SqliteJobStore::forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + jobFields + "coalesce(a.active, 0) FROM jobs j" +
                          activeRunsJoin + " WHERE j.project_uid = ? ORDER BY j.name",
                      projectUid, projectUid);
    while (q.step())
        each(readJob(q));
}

void SqliteJobStore::insertJob(const std::string& projectUid, const SparkJob& job) {
    m_db.execute(
        "INSERT INTO jobs(job_id, project_uid, name, type, parameters, cluster, max_concurrent_runs, "
        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        job.jobId, projectUid, job.name, jobTypeName(job.type), nlohmann::json(job.parameters).dump(),
        job.cluster, job.maxConcurrentRuns, formatTimestamp(job.createdAt), formatTimestamp(job.updatedAt));
}

void SqliteJobStore::updateJob(const std::string& projectUid, const SparkJob& job) {
    m_db.execute(
        "UPDATE jobs SET type = ?, parameters = ?, cluster = ?, max_concurrent_runs = ?, updated_at = ? "
        "WHERE job_id = ? AND project_uid = ?",
        jobTypeName(job.type), nlohmann::json(job.parameters).dump(), job.cluster, job.maxConcurrentRuns,
        formatTimestamp(job.updatedAt), job.jobId, projectUid);
}

void SqliteJobStore::deleteJob(const std::string& projectUid, const std::string& jobId) {
    m_db.execute("DELETE FROM jobs WHERE job_id = ? AND project_uid = ?", jobId, projectUid);
}

int SqliteJobStore::activeRunCount(const std::string& projectUid, const std::string& jobId) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT count(*) FROM runs WHERE project_uid = ? AND job_id = ? AND status "
                      "IN " JOBDECK_ACTIVE_STATUSES,
                      projectUid, jobId);
    q.step();
    return q.integer(0);
}

std::vector<std::string> SqliteJobStore::jobNamesOnCluster(const std::string& projectUid,
                                                           const std::string& cluster) {
    auto r = m_connections.reader();
    auto q = r->query("SELECT name FROM jobs WHERE project_uid = ? AND cluster = ? ORDER BY name", projectUid,
                      cluster);
    std::vector<std::string> names;
    while (q.step())
        names.push_back(q.text(0));
    return names;
}

#undef JOBDECK_ACTIVE_STATUSES

} // namespace jobdeck
