#include "service/stores/SqliteJobStore.h"

#include <nlohmann/json.hpp>

namespace jobdeck {

namespace {

// A job's runs in QUEUED or RUNNING, for the row `j`.
#define JOBDECK_ACTIVE_RUNS                                                                                  \
    "(SELECT count(*) FROM runs r WHERE r.job_id = j.job_id AND r.status IN "                                \
    "('SPARK_JOB_RUN_STATUS_QUEUED', "                                                                       \
    "'SPARK_JOB_RUN_STATUS_RUNNING'))"
constexpr const char* jobColumns =
    "j.job_id, j.name, j.type, j.cluster, j.parameters, j.max_concurrent_runs, "
    "j.created_at, j.updated_at, " JOBDECK_ACTIVE_RUNS;
constexpr const char* jobSummaryColumns =
    "j.name, j.type, j.cluster, j.max_concurrent_runs, j.updated_at, " JOBDECK_ACTIVE_RUNS;
#undef JOBDECK_ACTIVE_RUNS

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
    auto q =
        r->query(std::string("SELECT ") + jobColumns + " FROM jobs j WHERE j.project_uid = ? AND j.name = ?",
                 projectUid, name);
    if (!q.step())
        return std::nullopt;
    return readJob(q);
}

void SqliteJobStore::forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                       const std::function<void(SparkJobSummary&&)>& each) {
    auto r = m_connections.reader();
    auto q = r->query(std::string("SELECT ") + jobSummaryColumns +
                          " FROM jobs j WHERE j.project_uid = ? ORDER BY j.name LIMIT ?",
                      projectUid, limit);
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
    auto q =
        r->query(std::string("SELECT ") + jobColumns + " FROM jobs j WHERE j.project_uid = ? ORDER BY j.name",
                 projectUid);
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
    auto q = r->query("SELECT count(*) FROM runs WHERE project_uid = ? AND job_id = ? AND status IN "
                      "('SPARK_JOB_RUN_STATUS_QUEUED', 'SPARK_JOB_RUN_STATUS_RUNNING')",
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

} // namespace jobdeck
