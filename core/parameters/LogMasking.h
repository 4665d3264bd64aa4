#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// A part of a run's log as it is served: every occurrence of the run's secret values replaced by ****
// (CONTRACT §2: shown as **** in logs too), with byte offsets that stay those of the log file, so that
// reading it part after part never shows a secret split over two parts.
struct MaskedLogPart final {
    std::string text;
    std::int64_t end = 0; // the file offset the next part starts at
};

// How much to read before and after a part so that maskLogPart sees every secret that crosses its ends.
std::int64_t logMaskingMargin(const std::vector<std::string>& secrets);

// `raw` is the log's bytes from `rawStart`, at least logMaskingMargin before `offset` (or from 0) and
// after `wantedEnd` (or to the end of the file); the part is [offset, wantedEnd). A secret that crosses
// `wantedEnd` is taken whole, one that crosses `offset` shows as **** from there. While `growing` (the
// run is active), bytes at the end of the file that could be the start of a secret are left for a later
// read. `secrets` as runSecretValues gives them (longest first).
MaskedLogPart maskLogPart(std::string_view raw, std::int64_t rawStart, std::int64_t offset,
                          std::int64_t wantedEnd, bool growing, const std::vector<std::string>& secrets);

} // namespace jobdeck
