#include "core/statements/ListLimit.h"

namespace jobdeck {

std::optional<std::string> listLimitProblem(std::optional<std::int64_t> limit) {
    if (limit && *limit < 1)
        return "LIMIT must be at least 1";
    return std::nullopt;
}

} // namespace jobdeck
