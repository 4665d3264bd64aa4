// StatementExecutor: DESCRIBE PROJECT, ALTER PROJECT and SHOW AUDIT_LOG.
#include "service/StatementExecutor.h"

#include "core/Project.h"
#include "core/SecretMasking.h"
#include "service/Storage.h"

#include <algorithm>

namespace jobdeck {

namespace {

// --- TEMPORARY adapter until core/HudiConfigPolicy.h lands (CONTRACT §3's allow-list rules).
std::optional<std::string> checkAllowlistEntry(std::string_view entry) {
    const std::string e(entry);
    if (!entry.starts_with("hoodie.") || entry.size() <= 7 ||
        entry.find_first_of(" \t\r\n=") != std::string_view::npos)
        return "HUDI_CONFIG_ALLOWLIST entry '" + e +
               "' is not a Hudi configuration key (hoodie.*) or family (ending in '.')";
    for (std::string_view family : {"hoodie.write.concurrency.", "hoodie.write.lock.", "hoodie.metrics."})
        if (entry.starts_with(family))
            return "HUDI_CONFIG_ALLOWLIST entry '" + e + "' is reserved for the platform (" +
                   std::string(family) + "*) and is never granted";
    for (std::string_view exact : {"hoodie.cleaner.policy.failed.writes", "hoodie.clean.failed.writes.policy",
                                   "hoodie.write.config.freeze"})
        if (entry == exact)
            return "HUDI_CONFIG_ALLOWLIST entry '" + e +
                   "' is reserved for the platform and is never granted";
    return std::nullopt;
}
// --- end TEMPORARY

constexpr std::int64_t maxConcurrentRunsLimitCeiling = 1000;
constexpr std::int64_t auditLimitDefault = 100;
constexpr std::int64_t auditLimitCeiling = 1000;

std::vector<AuditEntry> maskedAudit(std::vector<AuditEntry> entries) {
    for (auto& entry : entries)
        maskAudit(entry);
    return entries;
}

} // namespace

ApiStatus StatementExecutor::describeProject(const RequestContext& context) {
    auto project = m_storage.findProject(context.principal.projectUid);
    if (!project)
        return ApiStatus::failed("Project " + context.principal.projectName + " does not exist");
    if (context.principal.role == Role::Admin)
        project->recentAudit =
            maskedAudit(m_storage.recentAudit(project->projectUid, describeProjectAuditEntries));
    return ApiStatus::success({{"describeProjectApiResponse", {{"project", *project}}}});
}

ApiStatus StatementExecutor::alterProject(const RequestContext& context,
                                          const AlterProjectStatement& statement) {
    const std::string& project = context.principal.projectUid;
    ProjectSettings settings = m_storage.projectSettings(project);

    if (statement.hudiConfigs)
        settings.hudiConfigsEnabled = *statement.hudiConfigs;
    if (statement.concurrentRuns)
        settings.concurrentRunsEnabled = *statement.concurrentRuns;
    if (statement.maxConcurrentRunsLimit) {
        const std::int64_t limit = *statement.maxConcurrentRunsLimit;
        if (limit < 1 || limit > maxConcurrentRunsLimitCeiling)
            return ApiStatus::invalid("MAX_CONCURRENT_RUNS_LIMIT must be between 1 and " +
                                      std::to_string(maxConcurrentRunsLimitCeiling) + ", got " +
                                      std::to_string(limit));
        // Jobs already above a lowered limit keep their setting; runs are admitted up to the lower of the
        // two.
        settings.maxConcurrentRunsLimit = static_cast<int>(limit);
    }

    auto& allowlist = settings.hudiConfigAllowlist;
    if (statement.allowlistOp == AlterProjectStatement::AllowlistOp::Add) {
        for (const auto& entry : statement.allowlistEntries) {
            if (auto problem = checkAllowlistEntry(entry))
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
                return ApiStatus::failed("HUDI_CONFIG_ALLOWLIST has no entry '" + entry +
                                         "'; nothing was removed");
            allowlist.erase(it);
        }
    }
    std::sort(allowlist.begin(), allowlist.end());
    m_storage.saveProjectSettings(project, settings);
    return ApiStatus::success({{"alterProjectApiResponse", {{"settings", settings}}}});
}

ApiStatus StatementExecutor::showAuditLog(const RequestContext& context,
                                          const ShowAuditLogStatement& statement) {
    const std::int64_t limit = statement.limit.value_or(auditLimitDefault);
    if (limit < 1 || limit > auditLimitCeiling)
        return ApiStatus::invalid("LIMIT must be between 1 and " + std::to_string(auditLimitCeiling) +
                                  ", got " + std::to_string(limit));
    const auto entries =
        maskedAudit(m_storage.recentAudit(context.principal.projectUid, static_cast<int>(limit)));
    return ApiStatus::success({{"showAuditLogApiResponse", {{"auditEntries", entries}}}});
}

} // namespace jobdeck
