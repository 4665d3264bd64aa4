#pragma once

#include "service/stores/JobStore.h"
#include "service/stores/SqliteConnections.h"

namespace jobdeck {

// The jobs table (see SqliteSchema); writes join the writer's transaction on this thread, if any.
class SqliteJobStore final : public JobStore {
public:
    explicit SqliteJobStore(SqliteConnections& connections)
        : m_connections(connections)
        , m_db(connections.writer()) {}

    std::optional<SparkJob> findJob(const std::string& projectUid, const std::string& name) override;
    void forEachJob(const std::string& projectUid, const std::function<void(SparkJob&&)>& each) override;
    void forEachJobSummary(const std::string& projectUid, std::int64_t limit,
                           const std::function<void(SparkJobSummary&&)>& each) override;
    std::pair<std::int64_t, std::int64_t> jobsSize(const std::string& projectUid) override;
    void insertJob(const std::string& projectUid, const SparkJob& job) override;
    void updateJob(const std::string& projectUid, const SparkJob& job) override;
    void deleteJob(const std::string& projectUid, const std::string& jobId) override;
    int activeRunCount(const std::string& projectUid, const std::string& jobId) override;
    std::vector<std::string> jobNamesOnCluster(const std::string& projectUid,
                                               const std::string& cluster) override;

private:
    SqliteConnections& m_connections;
    SqliteDatabase& m_db;
};

} // namespace jobdeck
