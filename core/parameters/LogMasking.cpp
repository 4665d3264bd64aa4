#include "core/parameters/LogMasking.h"

#include "core/parameters/SecretMasking.h"

#include <algorithm>
#include <utility>

namespace jobdeck {

namespace {

using Range = std::pair<std::size_t, std::size_t>; // [first, last) in raw

// Leftmost occurrences, the longest secret first where several start at one byte; none overlap.
std::vector<Range> occurrences(std::string_view raw, const std::vector<std::string>& secrets) {
    std::vector<Range> found;
    for (std::size_t at = 0; at < raw.size();) {
        const auto secret = std::find_if(secrets.begin(), secrets.end(), [&](const std::string& s) {
            return raw.compare(at, s.size(), s) == 0;
        });
        if (secret == secrets.end()) {
            ++at;
            continue;
        }
        found.emplace_back(at, at + secret->size());
        at += secret->size();
    }
    return found;
}

// How many bytes at the end of `raw` could be the start of a secret still being written.
std::size_t possibleSecretStart(std::string_view raw, const std::vector<std::string>& secrets) {
    std::size_t longest = 0;
    for (const std::string& secret : secrets)
        for (std::size_t n = std::min(secret.size() - 1, raw.size()); n > longest; --n)
            if (raw.substr(raw.size() - n) == std::string_view(secret).substr(0, n)) {
                longest = n;
                break;
            }
    return longest;
}

} // namespace

std::int64_t logMaskingMargin(const std::vector<std::string>& secrets) {
    std::size_t longest = 0;
    for (const std::string& secret : secrets)
        longest = std::max(longest, secret.size());
    return static_cast<std::int64_t>(longest);
}

MaskedLogPart maskLogPart(std::string_view raw, std::int64_t rawStart, std::int64_t offset,
                          std::int64_t wantedEnd, bool growing, const std::vector<std::string>& secrets) {
    const auto first =
        static_cast<std::size_t>(std::clamp<std::int64_t>(offset - rawStart, 0, std::int64_t(raw.size())));
    auto last = static_cast<std::size_t>(
        std::clamp<std::int64_t>(wantedEnd - rawStart, std::int64_t(first), std::int64_t(raw.size())));
    const std::vector<Range> found = occurrences(raw, secrets);
    for (const auto& [from, to] : found)
        if (from < last && last < to)
            last = to; // taken whole
    if (growing && last == raw.size()) {
        const bool inOccurrence = !found.empty() && found.back().second == raw.size();
        if (!inOccurrence)
            last = std::max(first, last - possibleSecretStart(raw.substr(first, last - first), secrets));
    }
    MaskedLogPart part;
    part.end = rawStart + static_cast<std::int64_t>(last);
    part.text.reserve(last - first);
    std::size_t at = first;
    for (const auto& [from, to] : found) {
        if (to <= at || from >= last)
            continue;
        part.text.append(raw.substr(at, from > at ? from - at : 0));
        part.text.append(kMask);
        at = to;
    }
    if (at < last)
        part.text.append(raw.substr(at, last - at));
    return part;
}

} // namespace jobdeck
