#include "core/SecretMasking.h"

#include "core/AuditEntry.h"
#include "core/Cluster.h"
#include "core/SparkJob.h"
#include "core/SparkJobRun.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace jobdeck {

namespace {

bool isOptionWithoutValue(std::string_view token) {
    return token.size() > 1 && token.front() == '-' && token.find('=') == std::string_view::npos;
}

// "--verbose" yes; "-5" or "--" no: a secret may well start with a dash.
bool looksLikeLongOption(std::string_view token) {
    return token.size() > 2 && token.substr(0, 2) == "--" &&
           std::isalpha(static_cast<unsigned char>(token[2]));
}

// Where a token holds the value of a secret key: either its own "key=value" (valueToken == the token,
// value after the '='), or the token following a secret option (the whole token).
struct SecretSlot {
    std::string key;
    std::size_t valueToken = 0;
    std::size_t valueOffset = 0; // where the value starts inside valueToken
};

std::vector<SecretSlot> secretSlots(const std::vector<std::string>& params) {
    std::vector<SecretSlot> slots;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const std::string& t = params[i];
        if (isOptionWithoutValue(t)) {
            if (isSecretKey(t) && i + 1 < params.size() && !looksLikeLongOption(params[i + 1])) {
                slots.push_back({t, i + 1, 0});
                ++i; // the value token is not itself a key
            }
            continue;
        }
        if (const auto eq = t.find('=');
            eq != std::string::npos && isSecretKey(std::string_view(t).substr(0, eq)))
            slots.push_back({t.substr(0, eq), i, eq + 1});
    }
    return slots;
}

struct Unmasked {
    std::vector<std::string> params;
    std::optional<std::string> unresolvedKey;
};

Unmasked unmask(const std::vector<std::string>& submitted, const std::vector<std::string>& stored) {
    std::map<std::string, std::vector<std::string>> storedValues;
    for (const auto& s : secretSlots(stored))
        storedValues[s.key].push_back(stored[s.valueToken].substr(s.valueOffset));

    Unmasked r{submitted, std::nullopt};
    std::map<std::string, std::size_t> seen;
    for (const auto& s : secretSlots(submitted)) {
        const std::size_t n = seen[s.key]++;
        if (std::string_view(submitted[s.valueToken]).substr(s.valueOffset) != kMask)
            continue;
        const auto it = storedValues.find(s.key);
        if (it == storedValues.end()) {
            if (!r.unresolvedKey)
                r.unresolvedKey = s.key;
            continue;
        }
        const auto& values = it->second;
        r.params[s.valueToken].replace(s.valueOffset, std::string::npos,
                                       values[std::min(n, values.size() - 1)]);
    }
    return r;
}

} // namespace

bool isSecretKey(std::string_view key) {
    static constexpr std::array<std::string_view, 4> kWords{"password", "secret", "token", "credential"};
    std::string lower(key);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return std::any_of(kWords.begin(), kWords.end(),
                       [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

std::vector<std::string> maskParameters(const std::vector<std::string>& params) {
    std::vector<std::string> masked = params;
    for (const auto& s : secretSlots(params))
        masked[s.valueToken].replace(s.valueOffset, std::string::npos, kMask);
    return masked;
}

std::vector<std::string> unmaskParameters(const std::vector<std::string>& submitted,
                                          const std::vector<std::string>& stored) {
    return unmask(submitted, stored).params;
}

std::optional<std::string> findUnresolvedMask(const std::vector<std::string>& submitted,
                                              const std::vector<std::string>& stored) {
    const auto key = unmask(submitted, stored).unresolvedKey;
    if (!key)
        return std::nullopt;
    return "The value of '" + *key +
           "' is masked (****) but the Job has no stored value for it; send the real value.";
}

void maskPairs(std::vector<std::pair<std::string, std::string>>& pairs) {
    for (auto& [key, value] : pairs)
        if (isSecretKey(key))
            value = kMask;
}

void maskConfigs(std::map<std::string, std::string>& configs) {
    for (auto& [key, value] : configs)
        if (isSecretKey(key))
            value = kMask;
}

void maskJob(SparkJob& job) {
    job.parameters = maskParameters(job.parameters);
    job.arguments = maskParameters(job.arguments);
    job.misplacedHudiConfigs = maskParameters(job.misplacedHudiConfigs);
    maskConfigs(job.sparkConfigs);
    maskConfigs(job.hudiConfigs);
}

void maskRun(SparkJobRun& run) {
    run.arguments = maskParameters(run.arguments);
    maskPairs(run.argumentOverrides);
}

void maskCluster(Cluster& cluster) {
    maskConfigs(cluster.sparkConfigs);
    maskConfigs(cluster.hudiConfigs);
    maskPairs(cluster.with);
}

void maskAudit(AuditEntry& entry) {
    maskConfigs(entry.headers);
}

} // namespace jobdeck
