#include "core/parameters/ParameterDiff.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace jobdeck {

namespace {

constexpr std::size_t kMaxCells = 4'000'000;

// Emits one hunk: removals and additions paired in order as changes.
void flushHunk(std::vector<ParameterDiffLine>& out, const std::vector<std::string>& before,
               const std::vector<std::string>& after, std::vector<int>& removed, std::vector<int>& added) {
    const std::size_t paired = std::min(removed.size(), added.size());
    for (std::size_t k = 0; k < paired; ++k)
        out.push_back(
            {ParameterDiffLine::Kind::Changed, before[removed[k]], after[added[k]], removed[k], added[k]});
    for (std::size_t k = paired; k < removed.size(); ++k)
        out.push_back({ParameterDiffLine::Kind::Removed, before[removed[k]], {}, removed[k], -1});
    for (std::size_t k = paired; k < added.size(); ++k)
        out.push_back({ParameterDiffLine::Kind::Added, {}, after[added[k]], -1, added[k]});
    removed.clear();
    added.clear();
}

} // namespace

std::vector<ParameterDiffLine> diffParameters(const std::vector<std::string>& before,
                                              const std::vector<std::string>& after) {
    std::vector<ParameterDiffLine> out;
    std::size_t prefix = 0;
    while (prefix < before.size() && prefix < after.size() && before[prefix] == after[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < before.size() - prefix && suffix < after.size() - prefix &&
           before[before.size() - 1 - suffix] == after[after.size() - 1 - suffix])
        ++suffix;
    for (std::size_t i = 0; i < prefix; ++i)
        out.push_back({ParameterDiffLine::Kind::Same, before[i], after[i], int(i), int(i)});

    const std::size_t n = before.size() - prefix - suffix;
    const std::size_t m = after.size() - prefix - suffix;
    std::vector<int> removed, added;
    if (n * m <= kMaxCells) {
        // lcs[i][j]: length of the common subsequence of before[prefix+i..] and after[prefix+j..].
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = before[prefix + i] == after[prefix + j] ? at(i + 1, j + 1) + 1
                                                                   : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && before[prefix + i] == after[prefix + j]) {
                flushHunk(out, before, after, removed, added);
                out.push_back({ParameterDiffLine::Kind::Same, before[prefix + i], after[prefix + j],
                               int(prefix + i), int(prefix + j)});
                ++i;
                ++j;
            } else if (j < m && (i == n || at(i, j + 1) >= at(i + 1, j))) {
                added.push_back(int(prefix + j++));
            } else {
                removed.push_back(int(prefix + i++));
            }
        }
    } else {
        for (std::size_t i = 0; i < n; ++i)
            removed.push_back(int(prefix + i));
        for (std::size_t j = 0; j < m; ++j)
            added.push_back(int(prefix + j));
    }
    flushHunk(out, before, after, removed, added);
    for (std::size_t k = 0; k < suffix; ++k) {
        const std::size_t bi = before.size() - suffix + k, ai = after.size() - suffix + k;
        out.push_back({ParameterDiffLine::Kind::Same, before[bi], after[ai], int(bi), int(ai)});
    }
    return out;
}

} // namespace jobdeck
