#pragma once

#include <string>
#include <vector>

namespace jobdeck {

// One line of the difference between a Job's stored parameters and the edited ones.
struct ParameterDiffLine final {
    enum class Kind { Same, Added, Removed, Changed };
    Kind kind = Kind::Same;
    std::string before; // Same, Removed, Changed
    std::string after;  // Same, Added, Changed
    int beforeIndex = -1;
    int afterIndex = -1;
    bool operator==(const ParameterDiffLine&) const = default;
};

// Longest-common-subsequence difference of two parameter lists, in the order of `after`. Within one hunk,
// removed and added parameters are paired up in order as Changed (an option's new value, a pair's new
// value), the rest stay Removed/Added. A very large middle part (beyond a few million comparisons) is shown
// as removed then added rather than spending unbounded time.
std::vector<ParameterDiffLine> diffParameters(const std::vector<std::string>& before,
                                              const std::vector<std::string>& after);

} // namespace jobdeck
