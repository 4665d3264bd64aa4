#include "service/runs/RunStatements.h"

#include "core/parameters/SecretMasking.h"
#include "core/policy/RunEndMessages.h"
#include "core/statements/ListLimit.h"
#include "core/statements/NotFoundMessages.h"
#include "core/statements/StatementRefusals.h"
#include "service/runs/InternalFailure.h"
#include "service/runs/RequestContext.h"
#include "service/runs/RunWriter.h"
#include "service/stores/Stores.h"

#include <utility>

namespace jobdeck {
namespace {

std::string who(const RequestContext& context) {
    return "key " + context.principal.keyId + " (" + std::string(roleName(context.principal.role)) + ")";
}

// The run as answered: with the cluster it was admitted to, kept with the run.
nlohmann::json runJson(const RunRecord& record) {
    SparkJobRun run = record.run;
    run.cluster = record.cluster;
    maskRun(run);
    return nlohmann::json(run);
}

} // namespace

RunStatements::RunStatements(Stores& stores, RunWriter& writer, std::mutex& transitions,
                             std::function<void(RunRecord&)> stopCanceled)
    : m_stores(stores)
    , m_runs(stores.runs())
    , m_writer(writer)
    , m_transitions(transitions)
    , m_stopCanceled(std::move(stopCanceled)) {}

std::optional<RunRecord> RunStatements::findRun(const std::string& projectUid, const std::string& jobName,
                                                const std::string& runId) {
    auto record = m_runs.find(projectUid, runId);
    if (!record || record->run.jobName != jobName)
        return std::nullopt;
    return record;
}

ApiStatus RunStatements::describeJobRun(const RequestContext& context,
                                        const DescribeJobRunStatement& statement) {
    try {
        const auto record = findRun(context.principal.projectUid, statement.jobName, statement.runId);
        if (!record)
            return ApiStatus::failed(jobRunNotFoundMessage(statement.runId, statement.jobName));
        return ApiStatus::success({{"describeJobRunApiResponse", {{"sparkJobRun", runJson(*record)}}}});
    } catch (const std::exception& e) {
        return failedInternally(context, "DESCRIBE JOB_RUN", e);
    }
}

ApiStatus RunStatements::cancelJobRun(const RequestContext& context, const CancelJobRunStatement& statement) {
    try {
        std::lock_guard lock(m_transitions);
        std::optional<RunRecord> asked; // the run whose cancel was recorded now, still to be acted on
        ApiStatus answer = m_stores.unitOfWork().run([&]() -> ApiStatus {
            asked.reset();
            auto record = findRun(context.principal.projectUid, statement.jobName, statement.runId);
            if (!record)
                return ApiStatus::failed(jobRunNotFoundMessage(statement.runId, statement.jobName));
            if (!isActive(record->run.status))
                return ApiStatus::failed(
                    runAlreadyEndedMessage(statement.runId, jobRunStatusWord(record->run.status)));
            if (!record->cancelRequested) {
                record->cancelRequested = true;
                record->canceledBy = who(context);
                if (record->run.status == JobRunStatus::Queued && record->runDir.empty())
                    m_writer.end(*record, JobRunStatus::Canceled, canceledByMessage(record->canceledBy),
                                 RunActor::Cancel);
                else // its owner stops the driver (or the one being started)
                    m_writer.recordCancel(*record);
                asked = std::move(record);
            }
            return ApiStatus::success({{"cancelJobRunApiResponse", {{"jobRunId", statement.runId}}}});
        });
        if (asked && isActive(asked->run.status))
            m_stopCanceled(*asked);
        return answer;
    } catch (const std::exception& e) {
        return failedInternally(context, "CANCEL JOB_RUN", e);
    }
}

ApiStatus RunStatements::showJobRuns(const RequestContext& context, const ShowJobRunsStatement& statement) {
    if (auto problem = listLimitProblem(statement.limit))
        return ApiStatus::failed(*problem);
    try {
        if (statement.jobName && !m_stores.jobs().findJob(context.principal.projectUid, *statement.jobName))
            return ApiStatus::failed(jobNotFoundMessage(*statement.jobName));
        nlohmann::json runs = nlohmann::json::array();
        for (const auto& record : m_runs.list(context.principal.projectUid, statement.jobName,
                                              statement.activeOnly, statement.limit))
            runs.push_back(runJson(record));
        return ApiStatus::success({{"showJobRunsApiResponse", {{"sparkJobRuns", runs}}}});
    } catch (const std::exception& e) {
        return failedInternally(context, "SHOW JOB_RUNS", e);
    }
}

} // namespace jobdeck
