#pragma once

#include "core/statements/JobType.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace jobdeck {

// The typed form of every statement of the contract (§2) plus SHOW AUDIT_LOG. The parser produces
// these, the printer turns them back into canonical text, and the service executes them.

struct CreateJobStatement final {
    std::string name;
    JobType type = JobType::Jar;
    std::vector<std::string> parameters;
    std::string cluster;
    std::optional<std::int64_t> maxConcurrentRuns;
    bool operator==(const CreateJobStatement&) const = default;
};

// Every optional that is set came from one SET clause; at least one is set after parsing.
struct AlterJobStatement final {
    std::string name;
    std::optional<std::vector<std::string>> parameters;
    std::optional<std::string> cluster;
    std::optional<std::int64_t> maxConcurrentRuns;
    bool operator==(const AlterJobStatement&) const = default;
};

struct DeleteJobStatement final {
    std::string name;
    bool operator==(const DeleteJobStatement&) const = default;
};

struct DescribeJobStatement final {
    std::string name;
    bool operator==(const DescribeJobStatement&) const = default;
};

// SHOW JOBS SUMMARY [LIMIT <n>] (summary): each job's name, type, cluster, run limit, active runs and
// update time only, the compact form the console's Jobs list loads; with LIMIT, the first n by name
// (docs/statements.md).
struct ShowJobsStatement final {
    bool summary = false;
    std::optional<std::int64_t> limit; // SUMMARY only
    bool operator==(const ShowJobsStatement&) const = default;
};

// `arguments` are the per-run overrides in the order given: ('--date' = '2024-01-01', ...).
struct RunJobStatement final {
    std::string name;
    std::vector<std::pair<std::string, std::string>> arguments;
    bool operator==(const RunJobStatement&) const = default;
};

struct DescribeJobRunStatement final {
    std::string runId;
    std::string jobName;
    bool operator==(const DescribeJobRunStatement&) const = default;
};

struct CancelJobRunStatement final {
    std::string runId;
    std::string jobName;
    bool operator==(const CancelJobRunStatement&) const = default;
};

struct ShowJobRunsStatement final {
    std::optional<std::string> jobName;
    bool activeOnly = false;
    std::optional<std::int64_t> limit;
    bool operator==(const ShowJobRunsStatement&) const = default;
};

struct CreateClusterStatement final {
    std::string name;
    std::string type; // as written, e.g. "Spark"; the service decides which types exist
    std::int64_t maxOcu = 0;
    std::int64_t minOcu = 0;
    std::vector<std::pair<std::string, std::string>> with;
    bool operator==(const CreateClusterStatement&) const = default;
};

// An empty `with` means the statement had no WITH clause.
struct AlterClusterStatement final {
    std::string name;
    std::optional<std::int64_t> maxOcu, minOcu;
    std::vector<std::pair<std::string, std::string>> with;
    bool operator==(const AlterClusterStatement&) const = default;
};

struct DescribeClusterStatement final {
    std::string name;
    bool operator==(const DescribeClusterStatement&) const = default;
};

struct ShowClustersStatement final {
    bool operator==(const ShowClustersStatement&) const = default;
};

struct DeleteClusterStatement final {
    std::string name;
    bool operator==(const DeleteClusterStatement&) const = default;
};

struct DescribeProjectStatement final {
    bool operator==(const DescribeProjectStatement&) const = default;
};

struct AlterProjectStatement final {
    std::optional<bool> hudiConfigs;
    std::optional<bool> concurrentRuns;
    std::optional<std::int64_t> maxConcurrentRunsLimit;
    enum class AllowlistOp { None, Add, Remove } allowlistOp = AllowlistOp::None;
    std::vector<std::string> allowlistEntries;
    bool operator==(const AlterProjectStatement&) const = default;
};

// Ours, for admins: the newest audit-log entries of the project.
struct ShowAuditLogStatement final {
    std::optional<std::int64_t> limit;
    bool operator==(const ShowAuditLogStatement&) const = default;
};

using Statement =
    std::variant<CreateJobStatement, AlterJobStatement, DeleteJobStatement, DescribeJobStatement,
                 ShowJobsStatement, RunJobStatement, DescribeJobRunStatement, CancelJobRunStatement,
                 ShowJobRunsStatement, CreateClusterStatement, AlterClusterStatement,
                 DescribeClusterStatement, ShowClustersStatement, DeleteClusterStatement,
                 DescribeProjectStatement, AlterProjectStatement, ShowAuditLogStatement>;

// The statement's verb and object as the user wrote them; used in
// "Permission denied: <role> cannot <action>" and in the audit log.
inline std::string_view statementAction(const Statement& statement) {
    // In the order of the variant's alternatives.
    static constexpr std::string_view actions[] = {
        "CREATE JOB",    "ALTER JOB",        "DELETE JOB",     "DESCRIBE JOB",   "SHOW JOBS",
        "RUN JOB",       "DESCRIBE JOB_RUN", "CANCEL JOB_RUN", "SHOW JOB_RUNS",  "CREATE CLUSTER",
        "ALTER CLUSTER", "DESCRIBE CLUSTER", "SHOW CLUSTERS",  "DELETE CLUSTER", "DESCRIBE PROJECT",
        "ALTER PROJECT", "SHOW AUDIT_LOG",
    };
    static_assert(std::size(actions) == std::variant_size_v<Statement>);
    return actions[statement.index()];
}

// DESCRIBE and SHOW statements: they change nothing, so sending one twice is harmless.
inline bool isReadStatement(const Statement& statement) {
    const std::string_view action = statementAction(statement);
    return action.starts_with("DESCRIBE") || action.starts_with("SHOW");
}

} // namespace jobdeck
