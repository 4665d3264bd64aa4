// StatementExecutor: DESCRIBE PROJECT, ALTER PROJECT and SHOW AUDIT_LOG.
#include "service/statements/StatementExecutor.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/policy/ProjectSettingsChange.h"
#include "core/statements/ListLimit.h"
#include "core/statements/NotFoundMessages.h"
#include "core/statements/StatementRefusals.h"
#include "core/wire/Project.h"
#include "core/wire/ProjectEvent.h"
#include "service/stores/Stores.h"

#include <algorithm>

namespace jobdeck {

namespace {

std::vector<AuditEntry> maskedAudit(std::vector<AuditEntry> entries) {
    for (auto& entry : entries)
        maskAudit(entry);
    return entries;
}

} // namespace

ApiStatus StatementExecutor::describeProject(const RequestContext& context) {
    auto project = m_stores.projects().findProject(context.principal.projectUid);
    if (!project)
        return ApiStatus::failed(projectNotFoundMessage(context.principal.projectName));
    project->callerRole = roleName(context.principal.role);
    if (context.principal.role == Role::Admin)
        project->recentAudit =
            maskedAudit(m_stores.audit().recentAudit(project->projectUid, describeProjectAuditEntries));
    return ApiStatus::success({{"describeProjectApiResponse", {{"project", *project}}}});
}

ApiStatus StatementExecutor::alterProject(const RequestContext& context,
                                          const AlterProjectStatement& statement) {
    const std::string& project = context.principal.projectUid;
    ProjectSettings settings = m_stores.projects().projectSettingsForUpdate(project);

    if (statement.hudiConfigs)
        settings.hudiConfigsEnabled = *statement.hudiConfigs;
    if (statement.concurrentRuns)
        settings.concurrentRunsEnabled = *statement.concurrentRuns;
    if (statement.maxConcurrentRunsLimit) {
        const std::int64_t limit = *statement.maxConcurrentRunsLimit;
        if (auto problem = maxConcurrentRunsLimitProblem(limit))
            return ApiStatus::invalid(*problem);
        // Jobs already above a lowered limit (or set while the switch was on) keep their setting; RUN JOB
        // admits up to the lower of the two, and one at a time while the switch is off (effectiveRunLimit).
        settings.maxConcurrentRunsLimit = static_cast<int>(limit);
    }

    auto& allowlist = settings.hudiConfigAllowlist;
    if (statement.allowlistOp == AlterProjectStatement::AllowlistOp::Add) {
        for (const auto& entry : statement.allowlistEntries) {
            if (auto problem = HudiConfigPolicy::checkAllowlistEntry(entry))
                return ApiStatus::failed(*problem);
            // Adding an entry that is already there is a no-op: the list ends up as asked.
            if (std::find(allowlist.begin(), allowlist.end(), entry) == allowlist.end())
                allowlist.push_back(entry);
        }
    } else if (statement.allowlistOp == AlterProjectStatement::AllowlistOp::Remove) {
        for (const auto& entry : statement.allowlistEntries) {
            // Removing an absent entry is refused (and nothing is removed): it is most likely a misspelling,
            // and silently succeeding would leave the intended entry in force.
            const auto it = std::find(allowlist.begin(), allowlist.end(), entry);
            if (it == allowlist.end())
                return ApiStatus::failed(allowlistEntryMissingMessage(entry));
            allowlist.erase(it);
        }
    }
    std::sort(allowlist.begin(), allowlist.end());
    m_stores.projects().saveProjectSettings(project, settings);
    recordProjectEvent(context, event_type::kProjectAltered);
    return ApiStatus::success({{"alterProjectApiResponse", {{"settings", settings}}}});
}

ApiStatus StatementExecutor::showAuditLog(const RequestContext& context,
                                          const ShowAuditLogStatement& statement) {
    const std::int64_t limit = statement.limit.value_or(kAuditLogLimitDefault);
    if (auto problem = listLimitProblem(limit, kAuditLogLimitCeiling))
        return ApiStatus::invalid(std::move(*problem));
    const auto entries =
        maskedAudit(m_stores.audit().recentAudit(context.principal.projectUid, static_cast<int>(limit)));
    return ApiStatus::success({{"showAuditLogApiResponse", {{"auditEntries", entries}}}});
}

} // namespace jobdeck
