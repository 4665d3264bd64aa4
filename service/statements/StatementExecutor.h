#pragma once

#include "core/statements/Statement.h"
#include "core/wire/ApiStatus.h"
#include "service/runs/InternalFailure.h"
#include "service/runs/RequestContext.h"
#include "service/statements/TextHash.h"
#include "service/stores/Principal.h"
#include "service/stores/RepeatedWrites.h"
#include "service/stores/StatusJson.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace jobdeck {

struct MaskedStatement;

class EventBus;
class RunStatementHandler;
class ServiceMetrics;
class Stores;

// Executes one statement of CONTRACT §2 for a principal: parse (INVALID with the parser's message when it
// does not parse), role check (FAILED "Permission denied: <role> cannot <action>"), execution scoped to the
// principal's project, and an audit entry with secrets masked, whatever the outcome. Jobs, clusters and the
// project are handled here; the four run statements go to the RunStatementHandler set with
// setRunStatementHandler().
// Synchronous and thread-safe: called concurrently from the HTTP worker pool.
//
// Durability: a statement that may change something (and one refused or invalid, which the audit log
// must not lose) commits its change, its audit entry and its final status in one transaction, so one
// fsync covers all three and an acknowledged statement survives kill -9. A read (isReadStatement) writes
// nothing before it answers: its audit entry goes to the audit store's deferred writes, committed in a group
// within DeferredWrites' interval, before any later durable write and before the audit is read; its
// status is not stored (StatusRecord::NotStored), RequestRegistry decides whether it needs to be.
class StatementExecutor final {
public:
    StatementExecutor(Stores& stores, EventBus& events);

    // Until set, RUN JOB, DESCRIBE JOB_RUN, CANCEL JOB_RUN and SHOW JOB_RUNS fail with
    // "Runs are not available on this service". The object must outlive the executor's use of it.
    void setRunStatementHandler(RunStatementHandler* runs);
    // Counts every executed statement by kind and outcome there; null (the default): not counted.
    void setMetrics(ServiceMetrics* metrics) { m_metrics.store(metrics); }

    // What execute() did with the final status of a request (context.requestId set).
    enum class StatusRecord { Committed, NotStored };

    // Never throws: storage failures come back as FAILED with a one-line reason. `record`, when given,
    // says whether the status was committed with the statement.
    StatusJson execute(const RequestContext& context, std::string_view statementText,
                       StatusRecord* record = nullptr);

    // DESCRIBE and SHOW statements (jobs, clusters, project, audit log, runs): they change nothing.
    static bool isReadStatement(const Statement& statement);
    // The same for statement text; false when it does not parse.
    bool isReadStatement(std::string_view statementText);
    // DESCRIBE JOB and DESCRIBE CLUSTER: one object read by name, bounded and never blocking on a
    // write, so it may run on an IO thread. Not lists, runs or the audit (reading it commits the
    // queued writes first).
    bool isQuickRead(std::string_view statementText);

    // A write other than RUN JOB sent with an Idempotency-Key (context.idempotencyKey, context.requestId
    // set): the first with its key within RepeatedWrites::kWindow (context.writeKeyHash is then set), a
    // repeat of it by the same API key (the first request's id) or a conflict. Any other request (a
    // read, a RUN JOB, one its role refuses) is a First with nothing set. execute() keeps the key only
    // when the write succeeds.
    RepeatedWrites::Claim claimIdempotencyKey(RequestContext& context, std::string_view statementText);

    // The statement text as the audit log and service logs show it: parsed, secret values masked and
    // printed back; text that does not parse masked token by token (core maskStatement).
    static std::string maskStatementText(std::string_view statementText);

    // The number of audit entries DESCRIBE PROJECT shows to admins.
    static constexpr int describeProjectAuditEntries = 20;

private:
    struct Prepared;
    // The statement parsed and its audit text masked; kept for read statements (bounded), which
    // clients send with the same text again and again.
    std::shared_ptr<const Prepared> prepare(std::string_view statementText);
    StatusJson executePrepared(const RequestContext& context, const std::shared_ptr<const Prepared>& prepared,
                               StatusRecord* record);
    // DESCRIBE JOB answers are kept per project and job, serialized, as long as nothing was committed
    // to the database since (ChangeStamp): a change of the job, of its runs or of the
    // project's settings, by this process or another, makes the next DESCRIBE read the job again.
    StatusJson describeJobCached(const RequestContext& context, const DescribeJobStatement& statement,
                                 const std::string& auditText);

    ApiStatus dispatch(const RequestContext& context, const Statement& statement);
    // dispatch() outside any transaction of ours; an exception becomes FAILED "Internal error: ...".
    ApiStatus dispatchGuarded(const RequestContext& context, const Statement& statement,
                              const std::string& auditText);
    // A run statement. RUN JOB's audit entry and status are written in the step that commits its
    // admission and its answer is returned; nullopt (the answer in `status`) when they are still to
    // be written: the other run statements, and an admission that failed.
    std::optional<StatusJson> dispatchRunStatement(const RequestContext& context, const Statement& statement,
                                                   const MaskedStatement& masked, ApiStatus& status);
    // A statement that writes, in one step with its events, audit entry and status; nullopt (the
    // internal failure in `status`) when the step failed.
    std::optional<StatusJson> writeStep(const RequestContext& context, const Statement& statement,
                                        const MaskedStatement& masked, const std::string& auditText,
                                        ApiStatus& status);

    ApiStatus createJob(const RequestContext& context, const CreateJobStatement& statement);
    ApiStatus alterJob(const RequestContext& context, const AlterJobStatement& statement);
    ApiStatus deleteJob(const RequestContext& context, const DeleteJobStatement& statement);
    ApiStatus describeJob(const RequestContext& context, const DescribeJobStatement& statement);
    // SHOW JOBS [SUMMARY] written straight as text, one job at a time, without a DOM of all the jobs.
    StatusJson showJobs(const RequestContext& context, const ShowJobsStatement& statement);
    // The first `limit` summaries by name (-1: all).
    StatusJson showJobSummaries(const std::string& projectUid, std::int64_t limit);

    ApiStatus createCluster(const RequestContext& context, const CreateClusterStatement& statement);
    ApiStatus alterCluster(const RequestContext& context, const AlterClusterStatement& statement);
    ApiStatus deleteCluster(const RequestContext& context, const DeleteClusterStatement& statement);
    ApiStatus describeCluster(const RequestContext& context, const DescribeClusterStatement& statement);
    ApiStatus showClusters(const RequestContext& context);

    ApiStatus describeProject(const RequestContext& context);
    ApiStatus alterProject(const RequestContext& context, const AlterProjectStatement& statement);
    ApiStatus showAuditLog(const RequestContext& context, const ShowAuditLogStatement& statement);

    // Appends a job event inside the current transaction; execute() wakes the waiters after the commit.
    void recordJobEvent(const RequestContext& context, std::string_view type, const std::string& jobName);
    // PROJECT_ALTERED, CLUSTERS_CHANGED: events about the project, not one of its jobs.
    void recordProjectEvent(const RequestContext& context, std::string_view type) {
        recordJobEvent(context, type, {});
    }
    enum class Durability { Durable, Deferred };
    // The audit entry; durably also, when the context has a request id, the final status.
    void writeAudit(const RequestContext& context, std::string_view statementText, const StatusJson& status,
                    Durability durability);

    static constexpr std::size_t kPreparedLimit = 1024;
    static constexpr std::size_t kPreparedTextLimit = 4096;
    static constexpr std::size_t kDescribedJobLimit = 10'000;
    struct DescribedJob {
        std::uint64_t stamp;
        StatusJson answer;
    };

    Stores& m_stores;
    EventBus& m_events;
    RepeatedWrites m_repeatedWrites;
    std::atomic<RunStatementHandler*> m_runs{nullptr};
    std::atomic<ServiceMetrics*> m_metrics{nullptr};
    std::mutex m_cacheMutex;
    std::unordered_map<std::string, std::shared_ptr<const Prepared>, TextHash, std::equal_to<>> m_prepared;
    std::unordered_map<std::string, DescribedJob> m_describedJobs; // by project uid + '\n' + job name
};

} // namespace jobdeck
