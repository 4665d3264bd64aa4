#include "core/policy/RolePolicy.h"

#include <type_traits>

namespace jobdeck {

Role RolePolicy::requiredRole(const Statement& statement) {
    return std::visit(
        [](const auto& s) {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, DescribeJobStatement> || std::is_same_v<T, ShowJobsStatement> ||
                          std::is_same_v<T, DescribeJobRunStatement> ||
                          std::is_same_v<T, ShowJobRunsStatement> ||
                          std::is_same_v<T, DescribeClusterStatement> ||
                          std::is_same_v<T, ShowClustersStatement> ||
                          std::is_same_v<T, DescribeProjectStatement>)
                return Role::Viewer;
            else if constexpr (std::is_same_v<T, AlterProjectStatement> ||
                               std::is_same_v<T, ShowAuditLogStatement>)
                return Role::Admin;
            else
                return Role::Operator;
        },
        statement);
}

bool RolePolicy::allows(Role role, const Statement& statement) {
    return static_cast<int>(role) >= static_cast<int>(requiredRole(statement));
}

std::optional<std::string> RolePolicy::refusal(Role role, const Statement& statement) {
    if (allows(role, statement))
        return std::nullopt;
    return "Permission denied: " + std::string(roleName(role)) + " cannot " +
           std::string(statementAction(statement));
}

} // namespace jobdeck
