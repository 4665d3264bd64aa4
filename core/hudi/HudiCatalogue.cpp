#include "core/hudi/HudiCatalogue.h"

#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

namespace jobdeck::catalogue_data {
extern const std::string_view kHudiConfigsTsv;
extern const std::string_view kFlinkOptionsTsv;
} // namespace jobdeck::catalogue_data

namespace jobdeck {
namespace {

constexpr std::size_t kNoEntry = std::numeric_limits<std::size_t>::max();
// Longer than any key in the catalogue by a wide margin; beyond it nothing can be a typo of a key.
constexpr std::size_t kMaxSuggestLength = 200;

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(
            text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

std::vector<std::string> splitList(std::string_view text) {
    std::vector<std::string> values;
    if (text.empty())
        return values;
    for (std::string_view part : split(text, '|'))
        if (!part.empty())
            values.emplace_back(part);
    return values;
}

// Whether every letter of every value is upper case (`upper`) or lower case. Letters are ASCII's: the
// catalogue's values are ASCII, and no locale may change what a value is checked against.
bool allOf(const std::vector<std::string>& values, bool upper) {
    const auto otherCase = upper ? isAsciiLower : isAsciiUpper;
    return std::all_of(values.begin(), values.end(),
                       [&](const std::string& v) { return std::none_of(v.begin(), v.end(), otherCase); });
}

HudiCatalogue::AllowedCase allowedCaseOf(const std::vector<std::string>& allowed) {
    return allOf(allowed, true)    ? HudiCatalogue::AllowedCase::Upper
           : allOf(allowed, false) ? HudiCatalogue::AllowedCase::Lower
                                   : HudiCatalogue::AllowedCase::Mixed;
}

std::string joined(const std::vector<std::string>& values, std::string_view separator) {
    std::string out;
    for (const std::string& v : values) {
        if (!out.empty())
            out += separator;
        out += v;
    }
    return out;
}

// Letter histogram: a-z, 0-9, '.', '_', '-', anything else (bins 40 to 47 stay empty: 48 bytes compare in
// three vector steps). Half the L1 difference of two histograms is a lower bound of their edit distance (a
// transposition does not change it), which rejects most candidates at the cost of a few instructions.
using Histogram = std::array<unsigned char, 48>;

std::size_t bin(char c) {
    const auto u = static_cast<unsigned char>(asciiLower(c));
    if (u >= 'a' && u <= 'z')
        return u - 'a';
    if (u >= '0' && u <= '9')
        return 26 + (u - '0');
    if (u == '.')
        return 36;
    if (u == '_')
        return 37;
    if (u == '-')
        return 38;
    return 39;
}

using ByteTable = std::array<unsigned char, 256>;

// bin() of every byte.
const ByteTable& binTable() {
    static const ByteTable table = [] {
        ByteTable t{};
        for (std::size_t i = 0; i < t.size(); ++i)
            t[i] = static_cast<unsigned char>(bin(static_cast<char>(i)));
        return t;
    }();
    return table;
}

Histogram histogramOf(std::string_view s) {
    const ByteTable& bins = binTable();
    Histogram h{};
    for (char c : s) {
        auto& slot = h[bins[static_cast<unsigned char>(c)]];
        if (slot < 255)
            ++slot;
    }
    return h;
}

// A sum of absolute differences without branches, which the compiler vectorises.
std::size_t histogramBound(const Histogram& a, const Histogram& b) {
    int l1 = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        l1 += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
    return (static_cast<std::size_t>(l1) + 1) / 2;
}

// Optimal-string-alignment Damerau-Levenshtein distance, abandoned as soon as every cell of a row
// exceeds `limit` (then returns limit + 1). The common prefix and suffix cannot change the distance, and
// stripping them first leaves a tiny table for a typo ("hoodie.upsert.shuffle.paral" ... "lelism").
std::size_t boundedDistance(std::string_view a, std::string_view b, std::size_t limit) {
    while (!a.empty() && !b.empty() && a.front() == b.front()) {
        a.remove_prefix(1);
        b.remove_prefix(1);
    }
    while (!a.empty() && !b.empty() && a.back() == b.back()) {
        a.remove_suffix(1);
        b.remove_suffix(1);
    }
    const std::size_t n = a.size(), m = b.size();
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    if (n == 0 || m == 0)
        return std::max(n, m);
    if (m > kMaxSuggestLength)
        return limit + 1;
    // Three rows on the stack: this runs for every surviving candidate, so it must not allocate.
    std::array<std::size_t, kMaxSuggestLength + 1> rows[3];
    std::size_t* prev2 = rows[0].data();
    std::size_t* prev = rows[1].data();
    std::size_t* row = rows[2].data();
    for (std::size_t j = 0; j <= m; ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
        row[0] = i;
        std::size_t rowMin = row[0];
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            std::size_t best = std::min(std::min(prev[j] + 1, row[j - 1] + 1), prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                best = std::min(best, prev2[j - 2] + 1);
            row[j] = best;
            rowMin = std::min(rowMin, best);
        }
        if (rowMin > limit)
            return limit + 1;
        std::size_t* oldest = prev2;
        prev2 = prev;
        prev = row;
        row = oldest;
    }
    return std::min(prev[m], limit + 1);
}

// How many edits a key may be away from a known key and still be called a typo of it. The shared
// "hoodie." prefix does not count, so short keys get a tight threshold.
std::size_t typoThreshold(std::string_view key) {
    constexpr std::string_view prefix = "hoodie.";
    const std::size_t meaningful = key.starts_with(prefix) ? key.size() - prefix.size() : key.size();
    return std::clamp<std::size_t>(meaningful / 8, 1, 3);
}

std::string_view lastSegments(std::string_view key, int count) {
    std::size_t pos = key.size();
    for (int i = 0; i < count; ++i) {
        pos = key.rfind('.', pos == 0 ? 0 : pos - 1);
        if (pos == std::string_view::npos || pos == 0)
            return {};
    }
    return key.substr(pos + 1);
}

bool isJavaInteger(std::string_view v, bool isLong) {
    bool negative = false;
    if (!v.empty() && (v.front() == '-' || v.front() == '+')) {
        negative = v.front() == '-';
        v.remove_prefix(1);
    }
    if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    while (v.size() > 1 && v.front() == '0')
        v.remove_prefix(1);
    const std::string_view limit = isLong ? (negative ? "9223372036854775808" : "9223372036854775807")
                                          : (negative ? "2147483648" : "2147483647");
    return v.size() < limit.size() || (v.size() == limit.size() && v <= limit);
}

// What Java's Double.parseDouble accepts in decimal form (hex floats aside).
bool isJavaDouble(std::string_view v) {
    if (!v.empty() && (v.front() == '-' || v.front() == '+'))
        v.remove_prefix(1);
    if (v == "NaN" || v == "Infinity")
        return true;
    if (!v.empty() && std::string_view("fFdD").find(v.back()) != std::string_view::npos)
        v.remove_suffix(1);
    std::size_t i = 0, digits = 0;
    auto isDigit = [&](std::size_t k) { return k < v.size() && v[k] >= '0' && v[k] <= '9'; };
    while (isDigit(i)) {
        ++i;
        ++digits;
    }
    if (i < v.size() && v[i] == '.') {
        ++i;
        while (isDigit(i)) {
            ++i;
            ++digits;
        }
    }
    if (digits == 0)
        return false;
    if (i < v.size() && (v[i] == 'e' || v[i] == 'E')) {
        ++i;
        if (i < v.size() && (v[i] == '-' || v[i] == '+'))
            ++i;
        if (!isDigit(i))
            return false;
        while (isDigit(i))
            ++i;
    }
    return i == v.size();
}

// "30s", "500ms", "2min" or an ISO-8601 duration such as "PT1H".
bool isDuration(std::string_view v) {
    if (v.size() > 2 && (v.front() == 'P' || v.front() == 'p'))
        return std::all_of(v.begin() + 1, v.end(), [](char c) { return isAsciiAlnum(c) || c == '.'; });
    std::size_t i = 0;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9')
        ++i;
    if (i == 0)
        return false;
    static const std::array<std::string_view, 14> units = {
        "", "ns", "us", "ms", "s", "m", "min", "h", "d", "sec", "second", "seconds", "minutes", "hours"};
    const std::string unit = asciiLowered(v.substr(i));
    return std::find(units.begin(), units.end(), unit) != units.end();
}

bool isJavaClassName(std::string_view v) {
    if (v.empty())
        return false;
    for (std::string_view part : split(v, '.')) {
        if (part.empty())
            return false;
        const char first = part.front();
        if (!(isAsciiAlpha(first) || first == '_' || first == '$'))
            return false;
        for (char c : part)
            if (!(isAsciiAlnum(c) || c == '_' || c == '$'))
                return false;
    }
    return true;
}

// The data rows of a catalogue TSV (its header skipped). Columns: key, default, type, allowed_values, group,
// since_version, deprecated_alternatives, summary.
std::vector<std::vector<std::string_view>> tsvRows(std::string_view tsv) {
    std::vector<std::vector<std::string_view>> result;
    bool header = true;
    for (std::string_view line : split(tsv, '\n')) {
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (std::exchange(header, false) || line.empty())
            continue;
        auto fields = split(line, '\t');
        if (fields.size() == 8 && !fields[0].empty())
            result.push_back(std::move(fields));
    }
    return result;
}

} // namespace

const HudiCatalogue& HudiCatalogue::instance() {
    static const HudiCatalogue catalogue(catalogue_data::kHudiConfigsTsv, catalogue_data::kFlinkOptionsTsv);
    return catalogue;
}

HudiCatalogue::HudiCatalogue(std::string_view hudiConfigsTsv, std::string_view flinkOptionsTsv) {
    readHudiConfigs(hudiConfigsTsv);
    readFlinkOptions(flinkOptionsTsv);
    mapFlinkOptionsToHudiKeys();
    indexForSuggestions();
    indexNames();
}

void HudiCatalogue::readHudiConfigs(std::string_view tsv) {
    for (const auto& f : tsvRows(tsv)) {
        if (m_byKey.contains(f[0]))
            continue;
        HudiConfigEntry e{std::string(f[0]), std::string(f[1]), std::string(f[2]), std::string(f[4]),
                          std::string(f[5]), std::string(f[7]), splitList(f[3]),   splitList(f[6])};
        m_byKey.emplace(e.key, m_entries.size());
        for (const std::string& old : e.deprecatedNames)
            m_byDeprecatedName.emplace(old, m_entries.size());
        m_entries.push_back(std::move(e));
    }
}

// In the Flink file deprecated_alternatives mixes the hoodie.* key the option corresponds to with older
// Flink names of the option itself.
void HudiCatalogue::readFlinkOptions(std::string_view tsv) {
    for (const auto& f : tsvRows(tsv)) {
        if (m_flinkByKey.contains(f[0]))
            continue;
        FlinkOption o{std::string(f[0]),
                      std::string(f[1]),
                      std::string(f[2]),
                      std::string(f[7]),
                      splitList(f[3]),
                      {},
                      {}};
        for (std::string& alternative : splitList(f[6])) {
            if (alternative.starts_with("hoodie.")) {
                if (o.hudiKey.empty())
                    o.hudiKey = std::move(alternative);
            } else {
                o.deprecatedNames.push_back(std::move(alternative));
            }
        }
        m_flinkByKey.emplace(o.key, m_flinkOptions.size());
        m_flinkOptions.push_back(std::move(o));
    }
}

void HudiCatalogue::mapFlinkOptionsToHudiKeys() {
    for (std::size_t i = 0; i < m_flinkOptions.size(); ++i) {
        FlinkOption& o = m_flinkOptions[i];
        for (const std::string& old : o.deprecatedNames)
            m_flinkByKey.emplace(old, i); // emplace keeps a current name that equals an older alias
        // Many options are unmapped in the data but are the Hudi config of the same name under hoodie. or
        // hoodie.datasource. (hive_sync.mode, clustering.plan.strategy.class, write.operation).
        std::vector<std::string> names = o.deprecatedNames;
        names.insert(names.begin(), o.key);
        for (const std::string& name : names) {
            for (const std::string& candidate : {"hoodie." + name, "hoodie.datasource." + name}) {
                if (o.hudiKey.empty() && m_byKey.contains(candidate))
                    o.hudiKey = candidate;
            }
        }
    }
}

void HudiCatalogue::indexForSuggestions() {
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const HudiConfigEntry& e = m_entries[i];
        m_allowedCase.push_back(allowedCaseOf(e.allowedValues));
        m_candidates.push_back({asciiLowered(e.key), e.key, i, false, histogramOf(e.key)});
        for (const std::string& old : e.deprecatedNames)
            if (!m_byKey.contains(old))
                m_candidates.push_back({asciiLowered(old), old, i, true, histogramOf(old)});
        const std::string_view tail = lastSegments(e.key, 2);
        if (!tail.empty()) {
            auto [it, inserted] = m_bySuffix.emplace(std::string(tail), i);
            if (!inserted)
                it->second = kNoEntry; // ambiguous tails suggest nothing
        }
    }
    std::stable_sort(m_candidates.begin(), m_candidates.end(), [](const Candidate& a, const Candidate& b) {
        return a.lowered.size() < b.lowered.size();
    });
}

void HudiCatalogue::indexNames() {
    const std::array<const Index*, 3> indexes{&m_byKey, &m_byDeprecatedName, &m_flinkByKey};
    for (std::size_t which = 0; which < indexes.size(); ++which)
        for (const auto& [name, at] : *indexes[which])
            m_names.try_emplace(name, std::array<std::size_t, 3>{kNoEntry, kNoEntry, kNoEntry})
                .first->second[which] = at;
}

const HudiConfigEntry* HudiCatalogue::find(std::string_view key) const {
    const auto it = m_byKey.find(key);
    return it == m_byKey.end() ? nullptr : &m_entries[it->second];
}

const HudiConfigEntry* HudiCatalogue::findByDeprecatedName(std::string_view key) const {
    const auto it = m_byDeprecatedName.find(key);
    return it == m_byDeprecatedName.end() ? nullptr : &m_entries[it->second];
}

const FlinkOption* HudiCatalogue::findFlinkOption(std::string_view key) const {
    const auto it = m_flinkByKey.find(key);
    return it == m_flinkByKey.end() ? nullptr : &m_flinkOptions[it->second];
}

HudiCatalogue::Names HudiCatalogue::lookup(std::string_view key) const {
    const auto it = m_names.find(key);
    if (it == m_names.end())
        return {};
    const auto& [entry, deprecatedOf, flinkOption] = it->second;
    return {entry == kNoEntry ? nullptr : &m_entries[entry],
            deprecatedOf == kNoEntry ? nullptr : &m_entries[deprecatedOf],
            flinkOption == kNoEntry ? nullptr : &m_flinkOptions[flinkOption]};
}

std::vector<std::string> HudiCatalogue::suggest(std::string_view unknownKey, std::size_t max) const {
    std::vector<std::string> result;
    if (max == 0 || unknownKey.empty() || unknownKey.size() > kMaxSuggestLength)
        return result;

    std::array<char, kMaxSuggestLength> buffer; // the key folded, without allocating
    const std::string_view needle = asciiLoweredInto(unknownKey, buffer.data());
    const Histogram needleHistogram = histogramOf(needle);
    const std::size_t limit = typoThreshold(unknownKey);

    // Rank: edit distance ignoring case, then with case, then current names before deprecated ones.
    using Rank = std::tuple<std::size_t, std::size_t, bool, std::string_view>;
    std::vector<std::pair<Rank, std::size_t>> hits;
    const auto first = std::lower_bound(
        m_candidates.begin(), m_candidates.end(), needle.size() > limit ? needle.size() - limit : 0,
        [](const Candidate& c, std::size_t length) { return c.lowered.size() < length; });
    for (auto it = first; it != m_candidates.end() && it->lowered.size() <= needle.size() + limit; ++it) {
        if (histogramBound(it->histogram, needleHistogram) > limit)
            continue;
        const std::size_t distance = boundedDistance(needle, it->lowered, limit);
        if (distance > limit)
            continue;
        const std::size_t exact = boundedDistance(unknownKey, it->original, limit + distance + 1);
        hits.push_back({{distance, exact, it->deprecated, m_entries[it->entry].key}, it->entry});
    }
    std::sort(hits.begin(), hits.end());
    for (const auto& [rank, entry] : hits) {
        const std::string& key = m_entries[entry].key;
        if (std::find(result.begin(), result.end(), key) == result.end())
            result.push_back(key);
        if (result.size() == max)
            return result;
    }

    // A key that lost or gained a whole segment ("hoodie.hive_sync.jdbcurl") is far in edits but ends
    // like exactly one known key.
    if (result.empty()) {
        const std::string_view tail = lastSegments(unknownKey, 2);
        const auto it = tail.size() >= 8 ? m_bySuffix.find(tail) : m_bySuffix.end();
        if (it != m_bySuffix.end() && it->second != kNoEntry)
            result.push_back(m_entries[it->second].key);
    }
    return result;
}

std::optional<std::string> HudiCatalogue::checkValue(const HudiConfigEntry& entry,
                                                     std::string_view value) const {
    const auto got = [&] { return concat({"got ", quoted(value), "."}); };
    const std::string_view type = entry.type;
    if (type == "boolean") {
        if (!equalsIgnoringAsciiCase(value, "true") && !equalsIgnoringAsciiCase(value, "false"))
            return quoted(entry.key) + " expects true or false, " + got() +
                   " Hudi reads anything but 'true' as false.";
    } else if (type == "int" || type == "long") {
        if (!isJavaInteger(value, type == "long"))
            return quoted(entry.key) + " expects a whole number (" + entry.type +
                   (type == "int" ? ", at most 2147483647" : "") + "), " + got();
    } else if (type == "double") {
        if (!isJavaDouble(value))
            return quoted(entry.key) + " expects a number such as " +
                   (entry.defaultValue.empty() ? std::string("0.5") : entry.defaultValue) + ", " + got();
    } else if (type == "duration") {
        if (!isDuration(value))
            return quoted(entry.key) + " expects a duration such as " +
                   (entry.defaultValue.empty() ? std::string("30s") : entry.defaultValue) + ", " + got();
    } else if (type == "class") {
        if (!isJavaClassName(value))
            return quoted(entry.key) + " expects a fully qualified Java class name such as " +
                   (entry.defaultValue.empty() ? std::string("org.apache.hudi.SomeClass")
                                               : entry.defaultValue) +
                   ", " + got();
    }

    if (entry.allowedValues.empty())
        return std::nullopt;
    // Hudi upper-cases a value before comparing it with upper-case valid values, and parses its
    // lower-case enums (operations, sync modes, query types) case-insensitively; mixed-case values such
    // as Pulsar's RoundRobinPartition go to Enum.valueOf and must match exactly.
    const std::vector<std::string>& allowed = entry.allowedValues;
    const std::less<const HudiConfigEntry*> before; // an entry of a test's own is not in m_entries
    const bool known =
        !before(&entry, m_entries.data()) && before(&entry, m_entries.data() + m_entries.size());
    const AllowedCase allowedCase =
        known ? m_allowedCase[static_cast<std::size_t>(&entry - m_entries.data())] : allowedCaseOf(allowed);
    // The value as Hudi would compare it, character by character: no case-changed copy of it.
    const auto accepts = [&](const std::string& candidate) {
        switch (allowedCase) {
        case AllowedCase::Upper:
            return candidate.size() == value.size() &&
                   std::equal(value.begin(), value.end(), candidate.begin(),
                              [](char v, char a) { return asciiUpper(v) == a; });
        case AllowedCase::Lower:
            return equalsIgnoringAsciiCase(value, candidate);
        case AllowedCase::Mixed:
            break;
        }
        return std::string_view(candidate) == value;
    };
    if (std::any_of(allowed.begin(), allowed.end(), accepts))
        return std::nullopt;
    std::string message = quoted(entry.key) + " expects one of " + joined(allowed, ", ") + ", " + got();
    const std::string folded = asciiLowered(value);
    for (const std::string& candidate : allowed)
        if (asciiLowered(candidate) == folded)
            message += concat({" Write it exactly as ", quoted(candidate), "."});
    return message;
}

} // namespace jobdeck
