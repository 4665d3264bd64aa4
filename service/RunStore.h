#pragma once

#include "core/SparkJobRun.h"
#include "service/SqliteDatabase.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// One row of the runs table: the wire fields plus what the launcher needs to find its driver again.
struct RunRecord final {
    SparkJobRun run;
    std::string projectUid;
    std::string cluster;
    std::int64_t driverPid = 0;
    std::uint64_t driverStartTicks = 0;
    std::string runDir;
    std::string logPath;
    bool cancelRequested = false;
    std::string canceledBy; // who asked, for the CANCELED message (kept in launch_spec)
};

// SQL over the runs table (schema owned by Storage). Every call may join a surrounding
// SqliteDatabase::transaction on the same thread.
class RunStore final {
public:
    explicit RunStore(SqliteDatabase& db)
        : m_db(db) {}

    void insert(const RunRecord& record);
    // Writes every mutable column of the run (status, times, launcher bookkeeping, ...).
    void update(const RunRecord& record);
    void remove(const std::string& runId);
    // Whether any project has a run with this id.
    bool exists(const std::string& runId);

    std::optional<RunRecord> find(const std::string& projectUid, const std::string& runId);
    // Newest first.
    std::vector<RunRecord> list(const std::string& projectUid, const std::optional<std::string>& jobName,
                                bool activeOnly, std::optional<std::int64_t> limit);
    int countActive(const std::string& projectUid, const std::string& jobId);
    // Every project's runs: status (wire name) -> how many.
    std::map<std::string, std::int64_t> countByStatus();
    std::optional<RunRecord> findActiveByKey(const std::string& projectUid, const std::string& jobId,
                                             const std::string& idempotencyKey);
    // Every project's runs in that status, oldest first (FIFO).
    std::vector<RunRecord> withStatus(JobRunStatus status);
    // Finished runs that ended before `cutoff` (ISO text).
    std::vector<RunRecord> endedBefore(const std::string& cutoff);

private:
    std::vector<RunRecord> select(const std::string& where, const std::vector<std::string>& args,
                                  const std::string& tail = {});

    SqliteDatabase& m_db;
};

} // namespace jobdeck
