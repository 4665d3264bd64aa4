#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace jobdeck {

// SHOW JOB_RUNS and SHOW JOBS SUMMARY take any LIMIT from 1 up (a larger one lists everything): the
// refusal for one below 1, nullopt for an acceptable or absent LIMIT.
std::optional<std::string> listLimitProblem(std::optional<std::int64_t> limit);

} // namespace jobdeck
