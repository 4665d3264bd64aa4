#include "core/policy/ClusterRules.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

#include <algorithm>

namespace jobdeck {

std::optional<std::string> checkClusterType(std::string_view type) {
    if (equalsIgnoringAsciiCase(type, "spark"))
        return std::nullopt;
    return concat({"Cluster TYPE ", quoted(type), " is not supported; use TYPE = 'Spark'"});
}

std::optional<std::string> checkClusterOcu(std::int64_t maxOcu, std::int64_t minOcu) {
    if (maxOcu < 1 || maxOcu > kMaxOcuCeiling)
        return "MAX_OCU must be between 1 and " + std::to_string(kMaxOcuCeiling) + ", got " +
               std::to_string(maxOcu);
    if (minOcu < 0 || minOcu > kMaxOcuCeiling)
        return "MIN_OCU must be between 0 and " + std::to_string(kMaxOcuCeiling) + ", got " +
               std::to_string(minOcu);
    if (minOcu > maxOcu)
        return "MIN_OCU (" + std::to_string(minOcu) + ") must not be greater than MAX_OCU (" +
               std::to_string(maxOcu) + ")";
    return std::nullopt;
}

std::optional<std::string> checkClusterWith(const std::vector<std::pair<std::string, std::string>>& with) {
    for (const auto& [key, value] : with) {
        if (key.starts_with("spark.") && key.size() > 6)
            continue;
        if (HudiConfigPolicy::isHudiKey(key)) {
            if (HudiConfigPolicy::isReserved(key))
                return concat({"Cluster configuration ", quoted(key),
                               " is reserved for the platform and cannot be set (Onehouse manages it)"});
            continue;
        }
        return concat({"Cluster configuration ", quoted(key),
                       " is neither a Spark configuration (spark.*) nor a Hudi configuration (hoodie.*)"});
    }
    return std::nullopt;
}

std::optional<PairLine> splitPairLine(std::string_view line) {
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos)
        return std::nullopt;
    const std::string_view key = asciiTrimmed(line.substr(0, eq));
    if (key.empty())
        return std::nullopt;
    return PairLine{key, asciiTrimmed(line.substr(eq + 1))};
}

PairLines readPairLines(std::string_view text) {
    PairLines read;
    int number = 0;
    for (std::size_t begin = 0; begin <= text.size(); ++number) {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        const std::string_view line = asciiTrimmed(text.substr(begin, end - begin));
        begin = end + 1;
        if (line.empty())
            continue;
        const auto pair = splitPairLine(line);
        if (!pair) {
            read.problem = concat(
                {"Line ", std::to_string(number + 1), " of the defaults is not <key>=<value>: ", line});
            read.pairs.clear();
            return read;
        }
        read.pairs.emplace_back(pair->key, pair->value);
    }
    return read;
}

std::string pairLinesText(const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::string text;
    for (const auto& [key, value] : pairs) {
        if (!text.empty())
            text += '\n';
        text.append(key).append("=").append(value);
    }
    return text;
}

std::string clusterInUseMessage(std::string_view cluster, const std::vector<std::string>& jobs) {
    std::string names;
    for (const auto& name : jobs)
        names += (names.empty() ? "" : ", ") + name;
    return "Cluster " + std::string(cluster) + " is used by " + (jobs.size() == 1 ? "Job " : "Jobs ") +
           names + "; delete them or move them to another cluster first";
}

} // namespace jobdeck
