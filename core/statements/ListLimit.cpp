#include "core/statements/ListLimit.h"

namespace jobdeck {

std::optional<std::string> listLimitProblem(std::optional<std::int64_t> limit,
                                            std::optional<std::int64_t> ceiling) {
    if (!limit || (*limit >= 1 && (!ceiling || *limit <= *ceiling)))
        return std::nullopt;
    if (!ceiling)
        return "LIMIT must be at least 1";
    return "LIMIT must be between 1 and " + std::to_string(*ceiling) + ", got " + std::to_string(*limit);
}

} // namespace jobdeck
