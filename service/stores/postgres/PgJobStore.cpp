#include "service/stores/postgres/PgJobStore.h"

#include "service/stores/JobRows.h"

namespace jobdeck {

std::optional<SparkJob> PgJobStore::findJob(const std::string& projectUid, const std::string& name) {
    auto connection = m_connections.connection();
    return job_rows::find(*connection, projectUid, name);
}

void PgJobStore::forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) {
    auto connection = m_connections.connection();
    job_rows::forEach(*connection, "runs", projectUid, each);
}

void PgJobStore::forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                                   const std::function<void(SparkJobSummary&&)>& each) {
    auto connection = m_connections.connection();
    job_rows::forEachSummary(*connection, "runs", projectUid, limit, each);
}

std::pair<std::int64_t, std::int64_t> PgJobStore::jobsSize(const std::string& projectUid) {
    auto connection = m_connections.connection();
    return job_rows::size(*connection, projectUid);
}

void PgJobStore::insertJob(const std::string& projectUid, const SparkJob& job) {
    auto connection = m_connections.connection();
    job_rows::insert(*connection, projectUid, job);
}

void PgJobStore::updateJob(const std::string& projectUid, const SparkJob& job) {
    auto connection = m_connections.connection();
    job_rows::update(*connection, projectUid, job);
}

void PgJobStore::deleteJob(const std::string& projectUid, const std::string& jobId) {
    auto connection = m_connections.connection();
    job_rows::remove(*connection, projectUid, jobId);
}

int PgJobStore::activeRunCount(const std::string& projectUid, const std::string& jobId) {
    auto connection = m_connections.connection();
    return job_rows::activeRunCount(*connection, projectUid, jobId);
}

std::vector<std::string> PgJobStore::jobNamesOnCluster(const std::string& projectUid,
                                                       const std::string& cluster) {
    auto connection = m_connections.connection();
    return job_rows::namesOnCluster(*connection, projectUid, cluster);
}

} // namespace jobdeck
