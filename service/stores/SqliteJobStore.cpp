#include "service/stores/SqliteJobStore.h"

#include "service/stores/JobRows.h"

namespace jobdeck {

namespace {

// The active runs are reached by their status (few), not by their job.
constexpr const char* activeRunsSource = "runs INDEXED BY runs_by_status";

} // namespace

std::optional<SparkJob> SqliteJobStore::findJob(const std::string& projectUid, const std::string& name) {
    auto r = m_connections.reader();
    return job_rows::find(*r, projectUid, name);
}

void SqliteJobStore::forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                       const std::function<void(SparkJobSummary&&)>& each) {
    auto r = m_connections.reader();
    job_rows::forEachSummary(*r, activeRunsSource, projectUid, limit, each);
}

std::pair<std::int64_t, std::int64_t> SqliteJobStore::jobsSize(const std::string& projectUid) {
    auto r = m_connections.reader();
    return job_rows::size(*r, projectUid);
}

void SqliteJobStore::forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) {
    auto r = m_connections.reader();
    job_rows::forEach(*r, activeRunsSource, projectUid, each);
}

void SqliteJobStore::insertJob(const std::string& projectUid, const SparkJob& job) {
    job_rows::insert(m_db, projectUid, job);
}

void SqliteJobStore::updateJob(const std::string& projectUid, const SparkJob& job) {
    job_rows::update(m_db, projectUid, job);
}

void SqliteJobStore::deleteJob(const std::string& projectUid, const std::string& jobId) {
    job_rows::remove(m_db, projectUid, jobId);
}

int SqliteJobStore::activeRunCount(const std::string& projectUid, const std::string& jobId) {
    auto r = m_connections.reader();
    return job_rows::activeRunCount(*r, projectUid, jobId);
}

std::vector<std::string> SqliteJobStore::jobNamesOnCluster(const std::string& projectUid,
                                                           const std::string& cluster) {
    auto r = m_connections.reader();
    return job_rows::namesOnCluster(*r, projectUid, cluster);
}

} // namespace jobdeck
