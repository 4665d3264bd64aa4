#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jobdeck {

// SHOW AUDIT_LOG lists this many entries without a LIMIT, and at most kAuditLogLimitCeiling.
constexpr std::int64_t kAuditLogLimitDefault = 100;
constexpr std::int64_t kAuditLogLimitCeiling = 1000;

// A list statement's LIMIT: from 1 up, and at most `ceiling` where the list has one (SHOW AUDIT_LOG).
// Without a ceiling (SHOW JOB_RUNS, SHOW JOBS SUMMARY) a larger LIMIT lists everything. The refusal
// for a LIMIT out of range, nullopt for an acceptable or absent one.
std::optional<std::string> listLimitProblem(std::optional<std::int64_t> limit,
                                            std::optional<std::int64_t> ceiling = std::nullopt);

} // namespace jobdeck
