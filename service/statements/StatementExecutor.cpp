#include "service/statements/StatementExecutor.h"

#include "service/stores/DatabaseFaultError.h"

#include "core/parameters/SecretMasking.h"
#include "core/policy/RolePolicy.h"
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "core/statements/StatementRefusals.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/ProjectEvent.h"
#include "service/runs/EventBus.h"
#include "service/runs/RunStatementHandler.h"
#include "service/runs/ServiceMetrics.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

#include <type_traits>

namespace jobdeck {

namespace {

// Set by recordJobEvent on the executing thread, so execute() knows to wake the event waiters after commit.
thread_local bool t_eventsRecorded = false;

bool isRunStatement(const Statement& s) {
    return std::holds_alternative<RunJobStatement>(s) || std::holds_alternative<DescribeJobRunStatement>(s) ||
           std::holds_alternative<CancelJobRunStatement>(s) ||
           std::holds_alternative<ShowJobRunsStatement>(s);
}

void scrub(ApiStatus& status, const std::vector<std::string>& secrets) {
    if (status.errorMessage)
        scrubSecrets(*status.errorMessage, secrets);
}

} // namespace

StatementExecutor::StatementExecutor(Stores& stores, EventBus& events)
    : m_stores(stores)
    , m_events(events)
    , m_repeatedWrites(stores.writeKeys()) {}

void StatementExecutor::setRunStatementHandler(RunStatementHandler* runs) {
    m_runs.store(runs);
}

bool StatementExecutor::isReadStatement(const Statement& s) {
    return jobdeck::isReadStatement(s);
}

// A statement's parse and its masked text depend on its text alone.
struct StatementExecutor::Prepared {
    ParseResult parsed;
    MaskedStatement masked;
};

bool StatementExecutor::isReadStatement(std::string_view statementText) {
    const auto prepared = prepare(statementText);
    return prepared->parsed.statement && isReadStatement(*prepared->parsed.statement);
}

bool StatementExecutor::isQuickRead(std::string_view statementText) {
    const auto prepared = prepare(statementText);
    return prepared->parsed.statement &&
           (std::holds_alternative<DescribeJobStatement>(*prepared->parsed.statement) ||
            std::holds_alternative<DescribeClusterStatement>(*prepared->parsed.statement));
}

RepeatedWrites::Claim StatementExecutor::claimIdempotencyKey(RequestContext& context,
                                                             std::string_view statementText) {
    if (!context.idempotencyKey)
        return {};
    const auto prepared = prepare(statementText);
    const auto& statement = prepared->parsed.statement;
    // Reads are harmless to repeat, text that does not parse changes nothing, RUN JOB has its own rules.
    if (!statement || isReadStatement(*statement) || std::holds_alternative<RunJobStatement>(*statement))
        return {};
    // Refused for its role, it changes nothing: the key stays free for whoever may send the statement.
    if (RolePolicy::refusal(context.principal.role, *statement))
        return {};
    auto claim = m_repeatedWrites.claim(context.principal.projectUid, *context.idempotencyKey,
                                        context.principal.keyId, statementText, context.requestId);
    if (claim.kind == RepeatedWrites::Claim::Kind::First)
        context.writeKeyHash = claim.statementHash;
    return claim;
}

std::string StatementExecutor::maskStatementText(std::string_view statementText) {
    return maskStatement(statementText).text;
}

std::shared_ptr<const StatementExecutor::Prepared>
StatementExecutor::prepare(std::string_view statementText) {
    {
        const std::lock_guard lock(m_cacheMutex);
        if (const auto it = m_prepared.find(statementText); it != m_prepared.end())
            return it->second;
    }
    auto prepared = std::make_shared<Prepared>();
    prepared->parsed = parseStatement(statementText);
    prepared->masked = maskStatement(prepared->parsed, statementText);
    // Reads come back with the same text again and again; writes rarely do, and may be large.
    if (prepared->parsed.statement && isReadStatement(*prepared->parsed.statement) &&
        statementText.size() <= kPreparedTextLimit) {
        const std::lock_guard lock(m_cacheMutex);
        if (m_prepared.size() >= kPreparedLimit)
            m_prepared.clear();
        m_prepared.emplace(std::string(statementText), prepared);
    }
    return prepared;
}

StatusJson StatementExecutor::execute(const RequestContext& context, std::string_view statementText,
                                      StatusRecord* record) {
    const auto prepared = prepare(statementText);
    StatusJson answer = executePrepared(context, prepared, record);
    // A write that did not succeed changed nothing: its key is not kept (RepeatedWrites).
    if (!context.writeKeyHash.empty() && context.idempotencyKey &&
        answer.apiStatus() != ApiOperationStatus::Success)
        m_repeatedWrites.release(context.principal.projectUid, *context.idempotencyKey, context.requestId);
    if (ServiceMetrics* metrics = m_metrics.load(std::memory_order_relaxed))
        metrics->countStatement(prepared->parsed.statement ? &*prepared->parsed.statement : nullptr,
                                answer.apiStatus());
    return answer;
}

StatusJson StatementExecutor::executePrepared(const RequestContext& context,
                                              const std::shared_ptr<const Prepared>& prepared,
                                              StatusRecord* record) {
    if (record)
        *record = StatusRecord::Committed;
    const ParseResult& parsed = prepared->parsed;
    const MaskedStatement& masked = prepared->masked;
    const std::string& auditText = masked.text;
    ApiStatus status;
    if (!parsed.statement) {
        status = ApiStatus::invalid(parsed.error ? parsed.error->message : unparsableStatementMessage());
    } else if (auto denied = RolePolicy::refusal(context.principal.role, *parsed.statement)) {
        status = ApiStatus::failed(std::move(*denied));
    } else if (isReadStatement(*parsed.statement)) {
        // Nothing changed, so nothing needs to be on disk before the answer.
        if (record)
            *record = StatusRecord::NotStored;
        StatusJson answer;
        if (const auto* describe = std::get_if<DescribeJobStatement>(&*parsed.statement)) {
            answer = describeJobCached(context, *describe, auditText);
        } else if (const auto* show = std::get_if<ShowJobsStatement>(&*parsed.statement)) {
            try {
                const auto snapshot = m_stores.unitOfWork().snapshot();
                answer = showJobs(context, *show); // names no secret of the statement: nothing to scrub
            } catch (const std::exception& e) {
                answer = StatusJson(failedInternally(context, auditText, e));
            }
        } else {
            try {
                const auto snapshot = m_stores.unitOfWork().snapshot();
                status = dispatchGuarded(context, *parsed.statement, auditText);
            } catch (const std::exception& e) {
                status = failedInternally(context, auditText, e);
            }
            scrub(status, masked.secrets);
            answer = StatusJson(status);
        }
        try {
            writeAudit(context, auditText, answer, Durability::Deferred);
        } catch (const std::exception& e) {
            spdlog::error("Could not queue the audit entry for request {}: {}", context.requestId, e.what());
        }
        return answer;
    } else if (isRunStatement(*parsed.statement)) {
        // The run manager keeps its own transactions (and may start processes): not inside ours.
        if (auto answer = dispatchRunStatement(context, *parsed.statement, masked, status))
            return *answer;
    } else {
        // The change, its events, its audit entry and its status commit together: one durable write.
        if (auto answer = writeStep(context, *parsed.statement, masked, auditText, status))
            return *answer;
    }
    scrub(status, masked.secrets);
    StatusJson answer(status);
    try {
        m_stores.unitOfWork().run([&] { writeAudit(context, auditText, answer, Durability::Durable); });
    } catch (const std::exception& e) {
        spdlog::error("Could not write the audit entry for request {}: {}", context.requestId, e.what());
    }
    return answer;
}

// Where steps run at once (PostgreSQL), a statement that found a name free can lose it to another that
// wrote it first ("CREATE JOB x" twice at once): decided again, it answers what it then finds ("Job x
// already exists"), not an internal error. nullopt, with `status` the internal failure, when the step
// failed.
std::optional<StatusJson> StatementExecutor::writeStep(const RequestContext& context,
                                                       const Statement& statement,
                                                       const MaskedStatement& masked,
                                                       const std::string& auditText, ApiStatus& status) {
    try {
        StatusJson answer = m_stores.unitOfWork().runDecidingAgainOnConflict([&] {
            t_eventsRecorded = false;
            ApiStatus result = dispatch(context, statement);
            scrub(result, masked.secrets);
            StatusJson committed(result);
            writeAudit(context, auditText, committed, Durability::Durable);
            return committed;
        });
        if (t_eventsRecorded)
            m_events.wake(context.principal.projectUid);
        return answer;
    } catch (const std::exception& e) {
        status = failedInternally(context, auditText, e);
        return std::nullopt;
    }
}

StatusJson StatementExecutor::describeJobCached(const RequestContext& context,
                                                const DescribeJobStatement& statement,
                                                const std::string& auditText) {
    // The stamp is read before the job, so an entry is never older than the stamp it is kept under.
    // The one read when the request was authenticated will do: what was committed before is in it.
    const std::uint64_t stamp =
        context.changeStamp != 0 ? context.changeStamp : m_stores.changeStamp().current();
    // Built in a buffer of the thread's: a cached answer costs no allocation for its key.
    thread_local std::string key;
    key.assign(context.principal.projectUid);
    key += '\n';
    key += statement.name;
    {
        const std::lock_guard lock(m_cacheMutex);
        if (const auto it = m_describedJobs.find(key);
            it != m_describedJobs.end() && it->second.stamp == stamp)
            return it->second.answer;
    }
    ApiStatus status;
    try {
        const auto snapshot = m_stores.unitOfWork().snapshot();
        status = describeJob(context, statement);
    } catch (const std::exception& e) {
        return StatusJson(failedInternally(context, auditText, e));
    }
    StatusJson answer(status);
    const std::lock_guard lock(m_cacheMutex);
    if (m_describedJobs.size() >= kDescribedJobLimit)
        m_describedJobs.clear();
    m_describedJobs.insert_or_assign(key, DescribedJob{stamp, answer});
    return answer;
}

ApiStatus StatementExecutor::dispatchGuarded(const RequestContext& context, const Statement& statement,
                                             const std::string& auditText) {
    try {
        return dispatch(context, statement);
    } catch (const std::exception& e) {
        return failedInternally(context, auditText, e);
    }
}

std::optional<StatusJson> StatementExecutor::dispatchRunStatement(const RequestContext& context,
                                                                  const Statement& statement,
                                                                  const MaskedStatement& masked,
                                                                  ApiStatus& status) {
    const auto* run = std::get_if<RunJobStatement>(&statement);
    RunStatementHandler* runs = m_runs.load();
    if (!run || !runs) {
        status = dispatchGuarded(context, statement, masked.text);
        return std::nullopt;
    }
    // Admissions commit in batches: the audit entries and statuses of a whole batch are one durable write.
    std::optional<StatusJson> recorded;
    try {
        status = runs->runJob(context, *run, [&](const ApiStatus& admitted) {
            ApiStatus answer = admitted;
            scrub(answer, masked.secrets);
            // A step that fails is admitted again or answered as failed: what it wrote is gone. Asked for
            // before writing, since the write itself may be what fails (or a write held back for it).
            m_stores.unitOfWork().onStepEnd([&recorded](bool committed) {
                if (!committed)
                    recorded.reset();
            });
            recorded.emplace(answer);
            writeAudit(context, masked.text, *recorded, Durability::Durable);
        });
    } catch (const std::exception& e) {
        status = failedInternally(context, masked.text, e);
    }
    return recorded;
}

ApiStatus StatementExecutor::dispatch(const RequestContext& context, const Statement& statement) {
    return std::visit(
        [&](const auto& s) -> ApiStatus {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, CreateJobStatement>)
                return createJob(context, s);
            else if constexpr (std::is_same_v<T, AlterJobStatement>)
                return alterJob(context, s);
            else if constexpr (std::is_same_v<T, DeleteJobStatement>)
                return deleteJob(context, s);
            else if constexpr (std::is_same_v<T, DescribeJobStatement>)
                return describeJob(context, s);
            else if constexpr (std::is_same_v<T, ShowJobsStatement>)
                throw std::logic_error("SHOW JOBS is answered as text by showJobs()");
            else if constexpr (std::is_same_v<T, CreateClusterStatement>)
                return createCluster(context, s);
            else if constexpr (std::is_same_v<T, AlterClusterStatement>)
                return alterCluster(context, s);
            else if constexpr (std::is_same_v<T, DeleteClusterStatement>)
                return deleteCluster(context, s);
            else if constexpr (std::is_same_v<T, DescribeClusterStatement>)
                return describeCluster(context, s);
            else if constexpr (std::is_same_v<T, ShowClustersStatement>)
                return showClusters(context);
            else if constexpr (std::is_same_v<T, DescribeProjectStatement>)
                return describeProject(context);
            else if constexpr (std::is_same_v<T, AlterProjectStatement>)
                return alterProject(context, s);
            else if constexpr (std::is_same_v<T, ShowAuditLogStatement>)
                return showAuditLog(context, s);
            else {
                RunStatementHandler* runs = m_runs.load();
                if (!runs)
                    return ApiStatus::failed(runsUnavailableMessage());
                if constexpr (std::is_same_v<T, RunJobStatement>)
                    return runs->runJob(context, s, {});
                else if constexpr (std::is_same_v<T, DescribeJobRunStatement>)
                    return runs->describeJobRun(context, s);
                else if constexpr (std::is_same_v<T, CancelJobRunStatement>)
                    return runs->cancelJobRun(context, s);
                else {
                    static_assert(std::is_same_v<T, ShowJobRunsStatement>);
                    return runs->showJobRuns(context, s);
                }
            }
        },
        statement);
}

void StatementExecutor::recordJobEvent(const RequestContext& context, std::string_view type,
                                       const std::string& jobName) {
    ProjectEvent event;
    event.type = std::string(type);
    event.jobName = jobName;
    event.at = timestampNow();
    m_stores.events().recordEvent(context.principal.projectUid, event);
    t_eventsRecorded = true;
}

void StatementExecutor::writeAudit(const RequestContext& context, std::string_view statementText,
                                   const StatusJson& status, Durability durability) {
    AuditEntry entry;
    entry.at = timestampNow();
    entry.projectUid = context.principal.projectUid;
    entry.keyId = context.principal.keyId;
    entry.role = std::string(roleName(context.principal.role));
    entry.statement = std::string(statementText);
    entry.outcome = status.apiStatus();
    entry.errorMessage = status.errorMessage();
    entry.requestId = context.requestId;
    entry.headers = context.clientHeaders;
    maskAudit(entry);
    if (durability == Durability::Deferred) {
        m_stores.audit().deferAudit(std::move(entry));
        return;
    }
    m_stores.audit().appendAudit(entry);
    if (context.requestId.empty())
        return;
    m_stores.statuses().saveRequestStatus(context.principal.projectUid, context.requestId, status);
    if (!context.writeKeyHash.empty() && context.idempotencyKey &&
        status.apiStatus() == ApiOperationStatus::Success)
        RepeatedWrites::record(m_stores.writeKeys(), context.principal.projectUid, *context.idempotencyKey,
                               context.writeKeyHash, context.requestId);
}

} // namespace jobdeck
