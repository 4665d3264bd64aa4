// LIBS: jobdeck_core
// Cost of the Hudi catalogue on the editor's hot path: suggest() for 1,000 unknown keys, and
// adviseOnConfigs() on a 5,000-parameter job, each against a plain std::unordered_map lookup of the
// same keys measured in the same run.
#include "core/hudi/HudiCatalogue.h"
#include "core/parameters/HudiAdvice.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

// Seconds per run of `work`, the best of runs lasting at least `seconds` in total (and at least 5).
template <class F> double bestSeconds(double seconds, F&& work) {
    using Clock = std::chrono::steady_clock;
    double best = 1e9, total = 0;
    std::size_t runs = 0;
    while (total < seconds || runs < 5) {
        const auto start = Clock::now();
        work();
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        best = std::min(best, elapsed);
        total += elapsed;
        ++runs;
    }
    return best;
}

// Deterministic typos of real keys: a dropped letter, a swapped pair, a doubled letter, a case change,
// and keys far from every key.
std::vector<std::string> unknownKeys(const jobdeck::HudiCatalogue& catalogue, std::size_t count) {
    std::vector<std::string> keys;
    const auto& entries = catalogue.entries();
    for (std::size_t i = 0; keys.size() < count; ++i) {
        std::string key = entries[(i * 7919) % entries.size()].key;
        const std::size_t at = 7 + (i * 31) % (key.size() - 8);
        switch (i % 5) {
        case 0:
            key.erase(at, 1);
            break;
        case 1:
            std::swap(key[at], key[at + 1]);
            break;
        case 2:
            key.insert(at, 1, key[at]);
            break;
        case 3:
            key[at] = static_cast<char>(std::toupper(static_cast<unsigned char>(key[at])));
            break;
        default:
            key = "hoodie.acme.custom.setting" + std::to_string(i);
            break;
        }
        keys.push_back(key);
    }
    return keys;
}

} // namespace

int main() {
    using namespace jobdeck;
    const HudiCatalogue& catalogue = HudiCatalogue::instance();

    std::unordered_map<std::string, std::size_t> plainIndex;
    for (std::size_t i = 0; i < catalogue.entries().size(); ++i)
        plainIndex.emplace(catalogue.entries()[i].key, i);

    // 1. suggest() for 1,000 unknown keys.
    const std::vector<std::string> unknown = unknownKeys(catalogue, 1000);
    std::size_t suggested = 0, misses = 0;
    const double suggestSeconds = bestSeconds(1.0, [&] {
        suggested = 0;
        for (const std::string& key : unknown)
            suggested += catalogue.suggest(key).empty() ? 0 : 1;
    });
    const double lookupSeconds = bestSeconds(0.2, [&] {
        misses = 0;
        for (const std::string& key : unknown)
            misses += plainIndex.count(key) == 0 ? 1 : 0;
    });

    // 2. adviseOnConfigs() on a 5,000-parameter job: 2,000 --hudi-conf pairs (real keys, some
    // deprecated names, one in twenty a typo) and 500 --conf pairs.
    std::vector<std::string> parameters;
    std::vector<ConfigSetting> spark, hudi;
    for (std::size_t i = 0; i < 2000; ++i) {
        const HudiConfigEntry& e = catalogue.entries()[(i * 104729) % catalogue.entries().size()];
        std::string key = e.key;
        if (i % 20 == 0)
            key = unknown[i % unknown.size()];
        else if (i % 7 == 0 && !e.deprecatedNames.empty())
            key = e.deprecatedNames.front();
        const std::string value = e.defaultValue.empty() ? "x" : e.defaultValue;
        parameters.push_back("--hudi-conf");
        hudi.push_back({key, value, static_cast<int>(parameters.size())});
        parameters.push_back(key + "=" + value);
    }
    for (std::size_t i = 0; i < 500; ++i) {
        const std::string key = i == 0 ? "spark.speculation" : "spark.app.option" + std::to_string(i);
        const std::string value = i == 0 ? "true" : std::to_string(i);
        parameters.push_back("--conf");
        spark.push_back({key, value, static_cast<int>(parameters.size())});
        parameters.push_back(key + "=" + value);
    }
    std::size_t findings = 0, known = 0;
    const double adviseSeconds =
        bestSeconds(1.0, [&] { findings = adviseOnConfigs(parameters, spark, hudi).size(); });
    // With the editor's budget of fixes (each fix copies the whole list).
    const double budgetSeconds = bestSeconds(1.0, [&] { adviseOnConfigs(parameters, spark, hudi, 32); });
    // The same job without typos, old names or speculation: what a keystroke costs when there is
    // nothing to say (each finding's fix copies the whole parameter list).
    std::size_t cleanFindings = 0;
    std::vector<std::string> cleanParameters = parameters;
    std::vector<ConfigSetting> cleanSpark(spark.begin() + 1, spark.end()), cleanHudi;
    for (std::size_t i = 0; i < hudi.size(); ++i) {
        const HudiConfigEntry& e = catalogue.entries()[(i * 104729) % catalogue.entries().size()];
        ConfigSetting s{e.key, hudi[i].value, hudi[i].tokenIndex};
        if (!catalogue.checkValue(e, s.value)) {
            cleanParameters[s.tokenIndex] = s.key + "=" + s.value;
            cleanHudi.push_back(s);
        }
    }
    const double cleanSeconds = bestSeconds(
        1.0, [&] { cleanFindings = adviseOnConfigs(cleanParameters, cleanSpark, cleanHudi).size(); });
    const double jobLookupSeconds = bestSeconds(0.2, [&] {
        known = 0;
        std::unordered_map<std::string, const ConfigSetting*> byKey;
        for (const ConfigSetting& s : hudi)
            byKey[s.key] = &s;
        for (const ConfigSetting& s : spark)
            byKey[s.key] = &s;
        for (const auto& [key, setting] : byKey)
            known += plainIndex.count(key);
    });

    std::printf("bench_hudicatalogue (%zu Hudi keys, %zu Flink options)\n", catalogue.entries().size(),
                catalogue.flinkOptions().size());
    std::printf("suggest(), 1,000 unknown keys:        %9.3f ms (%zu with a suggestion)\n",
                suggestSeconds * 1e3, suggested);
    std::printf("  reference unordered_map lookups:    %9.3f ms (%zu misses)\n", lookupSeconds * 1e3, misses);
    std::printf("  ratio:                              %9.1fx\n", suggestSeconds / lookupSeconds);
    std::printf("adviseOnConfigs(), %zu parameters:  %9.3f ms (%zu findings)\n", parameters.size(),
                adviseSeconds * 1e3, findings);
    std::printf("  same job, at most 32 fixes:         %9.3f ms\n", budgetSeconds * 1e3);
    std::printf("  same job, no typos or old names:    %9.3f ms (%zu findings)\n", cleanSeconds * 1e3,
                cleanFindings);
    std::printf("  reference map build + lookups:      %9.3f ms (%zu known keys)\n", jobLookupSeconds * 1e3,
                known);
    std::printf("  ratio:                              %9.1fx (clean job %.1fx)\n",
                adviseSeconds / jobLookupSeconds, cleanSeconds / jobLookupSeconds);
    return 0;
}
