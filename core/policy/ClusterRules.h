#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// CREATE / ALTER / DELETE CLUSTER's rules and messages, for the service and the console alike.
inline constexpr std::int64_t kMaxOcuCeiling = 10000; // far beyond any real cluster, well inside int

// TYPE must be 'Spark' (any case).
std::optional<std::string> checkClusterType(std::string_view type);
// MAX_OCU in 1..ceiling, MIN_OCU in 0..ceiling, MIN_OCU <= MAX_OCU.
std::optional<std::string> checkClusterOcu(std::int64_t maxOcu, std::int64_t minOcu);
// WITH pairs become run defaults: spark.* and hoodie.* keys only, never a reserved Hudi key.
std::optional<std::string> checkClusterWith(const std::vector<std::pair<std::string, std::string>>& with);
// The console edits a cluster's WITH defaults as text, one "key=value" a line: split at the first '=',
// key and value trimmed of ASCII blanks. nullopt: the line is not a pair (no '=', or nothing before it).
struct PairLine {
    std::string_view key;
    std::string_view value; // a view into the line, so its offset there is value.data() - line.data()
};
std::optional<PairLine> splitPairLine(std::string_view line);
// Every line of such a text (blank lines skipped), or the first line that is not a pair, named by its
// number (from 1) and quoted in `problem`.
struct PairLines {
    std::vector<std::pair<std::string, std::string>> pairs;
    std::optional<std::string> problem;
};
PairLines readPairLines(std::string_view text);
// The text readPairLines reads back into `pairs`.
std::string pairLinesText(const std::vector<std::pair<std::string, std::string>>& pairs);
// DELETE CLUSTER while jobs use it: names them.
std::string clusterInUseMessage(std::string_view cluster, const std::vector<std::string>& jobs);

} // namespace jobdeck
