#pragma once

#include "service/stores/JobStore.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The jobs table (see PgSchema); every call joins the step under way on this thread, if any.
class PgJobStore final : public JobStore {
public:
    explicit PgJobStore(PgConnections& connections)
        : m_connections(connections) {}

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
    PgConnections& m_connections;
};

} // namespace jobdeck
