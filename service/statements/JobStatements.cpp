// StatementExecutor: CREATE / ALTER / DELETE / DESCRIBE JOB and SHOW JOBS [SUMMARY].
#include "service/statements/StatementExecutor.h"

#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/JobDescription.h"
#include "core/parameters/ParameterValidator.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/statements/ListLimit.h"
#include "core/statements/NotFoundMessages.h"
#include "core/statements/StatementRefusals.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJob.h"
#include "service/stores/RandomIds.h"
#include "service/stores/Stores.h"

namespace jobdeck {

namespace {

std::optional<ApiStatus> checkMaxConcurrentRuns(std::int64_t value, const ProjectSettings& settings) {
    const auto problem = maxConcurrentRunsProblem(value, settings);
    if (!problem)
        return std::nullopt;
    return problem->outOfRange ? ApiStatus::invalid(problem->message) : ApiStatus::failed(problem->message);
}

std::optional<ApiStatus> checkParameters(const std::vector<std::string>& parameters,
                                         const ProjectSettings& settings, ValidationContext::Mode mode,
                                         const std::vector<std::string>& previous) {
    ValidationContext context;
    context.settings = settings;
    context.mode = mode;
    context.previousParameters = previous;
    context.withAdvice = false; // the service needs the refusal only, not the editor's advice
    context.fixBudget = 0;
    const auto diagnostics = validateParameters(parameters, context);
    if (const Diagnostic* refusal = firstError(diagnostics))
        return ApiStatus::refused(refusal->message, refusal->code, refusalParameterIndex(diagnostics));
    return std::nullopt;
}

// A **** that stands for no stored value (CREATE: none is stored), refused on the parameter holding it.
std::optional<ApiStatus> checkMasks(const std::vector<std::string>& submitted,
                                    const std::vector<std::string>& stored) {
    const auto unresolved = unresolvedMask(submitted, stored);
    if (!unresolved)
        return std::nullopt;
    return ApiStatus::refused(unresolved->message(), descriptorOf(DiagnosticCode::SecretMaskUnresolved).name,
                              unresolved->parameterIndex);
}

// The stored job as DESCRIBE JOB (with why each Hudi configuration has its status) and SHOW JOBS show it.
nlohmann::json describedJob(SparkJob job, const ProjectSettings& settings, bool reasons = false) {
    nlohmann::json out =
        describeJob(std::move(job), settings, reasons ? HudiConfigReasons::Given : HudiConfigReasons::Left);
    if (reasons && !out.contains("hudiConfigsStatusReasons")) // present in every DESCRIBE JOB, even empty
        out["hudiConfigsStatusReasons"] = nlohmann::json::object();
    return out;
}

nlohmann::json jobRef(const SparkJob& job) {
    return {{"jobId", job.jobId}, {"name", job.name}};
}

} // namespace

ApiStatus StatementExecutor::createJob(const RequestContext& context, const CreateJobStatement& statement) {
    const std::string& project = context.principal.projectUid;
    const ProjectSettings settings = m_stores.projects().projectSettings(project);
    const std::int64_t maxRuns = statement.maxConcurrentRuns.value_or(1);
    if (auto refused = checkMaxConcurrentRuns(maxRuns, settings))
        return *refused;
    if (m_stores.jobs().findJob(project, statement.name))
        return ApiStatus::failed(jobExistsMessage(statement.name));
    if (!m_stores.clusters().findCluster(project, statement.cluster))
        return ApiStatus::failed(clusterNotFoundMessage(statement.cluster));
    // A new job has no stored values for **** to stand for.
    if (auto refused = checkMasks(statement.parameters, {}))
        return *refused;
    if (auto refused = checkParameters(statement.parameters, settings, ValidationContext::Mode::Create, {}))
        return *refused;

    SparkJob job;
    job.jobId = RandomIds::randomUuid();
    job.name = statement.name;
    job.type = statement.type;
    job.cluster = statement.cluster;
    job.parameters = statement.parameters;
    job.maxConcurrentRuns = static_cast<int>(maxRuns);
    job.createdAt = job.updatedAt = timestampNow();
    m_stores.jobs().insertJob(project, job);
    recordJobEvent(context, event_type::kJobCreated, job.name);
    return ApiStatus::success({{"createJobApiResponse", jobRef(job)}});
}

ApiStatus StatementExecutor::alterJob(const RequestContext& context, const AlterJobStatement& statement) {
    if (!statement.parameters && !statement.cluster && !statement.maxConcurrentRuns)
        return ApiStatus::invalid(alterJobNeedsAClauseMessage());
    const std::string& project = context.principal.projectUid;
    auto job = m_stores.jobs().findJobForUpdate(project, statement.name);
    if (!job)
        return ApiStatus::failed(jobNotFoundMessage(statement.name));
    const ProjectSettings settings = m_stores.projects().projectSettings(project);
    // Only a MAX_CONCURRENT_RUNS being set is checked against the project: other clauses must not trip over a
    // value the job got before the project's concurrency settings changed.
    if (statement.maxConcurrentRuns) {
        if (auto refused = checkMaxConcurrentRuns(*statement.maxConcurrentRuns, settings))
            return *refused;
        job->maxConcurrentRuns = static_cast<int>(*statement.maxConcurrentRuns);
    }
    if (statement.cluster) {
        if (!m_stores.clusters().findCluster(project, *statement.cluster))
            return ApiStatus::failed(clusterNotFoundMessage(*statement.cluster));
        job->cluster = *statement.cluster;
    }
    if (statement.parameters) {
        // **** sent back for a secret key keeps the stored value.
        if (auto refused = checkMasks(*statement.parameters, job->parameters))
            return *refused;
        auto parameters = unmaskParameters(*statement.parameters, job->parameters);
        if (auto refused =
                checkParameters(parameters, settings, ValidationContext::Mode::Alter, job->parameters))
            return *refused;
        job->parameters = std::move(parameters);
    }
    job->updatedAt = timestampNow();
    m_stores.jobs().updateJob(project, *job);
    recordJobEvent(context, event_type::kJobAltered, job->name);
    return ApiStatus::success({{"alterJobApiResponse", jobRef(*job)}});
}

ApiStatus StatementExecutor::deleteJob(const RequestContext& context, const DeleteJobStatement& statement) {
    const std::string& project = context.principal.projectUid;
    const auto job = m_stores.jobs().findJobForUpdate(project, statement.name);
    if (!job)
        return ApiStatus::failed(jobNotFoundMessage(statement.name));
    // Counted inside the statement's transaction, so no run can be admitted between the check and the delete.
    if (const int active = m_stores.jobs().activeRunCount(project, job->jobId); active > 0)
        return ApiStatus::failed(jobHasActiveRunsMessage(statement.name, active));
    m_stores.jobs().deleteJob(project, job->jobId);
    recordJobEvent(context, event_type::kJobDeleted, job->name);
    return ApiStatus::success({{"deleteJobApiResponse", jobRef(*job)}});
}

ApiStatus StatementExecutor::describeJob(const RequestContext& context,
                                         const DescribeJobStatement& statement) {
    const std::string& project = context.principal.projectUid;
    auto job = m_stores.jobs().findJob(project, statement.name);
    if (!job)
        return ApiStatus::failed(jobNotFoundMessage(statement.name));
    return ApiStatus::success(
        {{"describeJobApiResponse",
          {{"sparkJob",
            describedJob(std::move(*job), m_stores.projects().projectSettings(project), true)}}}});
}

StatusJson StatementExecutor::showJobs(const RequestContext& context, const ShowJobsStatement& statement) {
    const std::string& project = context.principal.projectUid;
    if (statement.summary) {
        if (auto problem = listLimitProblem(statement.limit))
            return StatusJson(ApiStatus::failed(*problem));
        return showJobSummaries(project, statement.limit.value_or(-1));
    }
    const ProjectSettings settings = m_stores.projects().projectSettings(project);
    return StatusJson::success([&](std::string& text) {
        // Room for all of it at once: a described job is about its stored parameters twice over
        // (parameters, then what they mean) and 400 bytes of fields.
        const auto [jobs, parameterBytes] = m_stores.jobs().jobsSize(project);
        text.reserve(text.size() + static_cast<std::size_t>(3 * parameterBytes + 512 * jobs) + 64);
        text += R"({"showJobsApiResponse":{"sparkJobs":[)";
        bool first = true;
        m_stores.jobs().forEachJob(project, [&](SparkJob&& job) {
            if (!first)
                text += ',';
            first = false;
            text += describedJob(std::move(job), settings)
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        });
        text += "]}}";
    });
}

StatusJson StatementExecutor::showJobSummaries(const std::string& project, std::int64_t limit) {
    // No parameters, so nothing to mask: a summary holds no value a user wrote into a job's parameters.
    return StatusJson::success([&](std::string& text) {
        // Not reserved from jobsSize(): that reads every job's parameters, and a few MB grow cheaply.
        text += R"({"showJobsSummaryApiResponse":{"jobs":[)";
        bool first = true;
        m_stores.jobs().forEachJobSummary(project, limit, [&](SparkJobSummary&& summary) {
            if (!first)
                text += ',';
            first = false;
            text += nlohmann::json(summary).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        });
        text += "]}}";
    });
}

} // namespace jobdeck
