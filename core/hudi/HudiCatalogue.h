#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jobdeck {

// One Hudi configuration as documented for the Hudi version the platform runs.
struct HudiConfigEntry final {
    std::string key, defaultValue, type, group, sinceVersion, summary;
    std::vector<std::string> allowedValues;   // empty: any value of `type`
    std::vector<std::string> deprecatedNames; // older names Hudi still reads for this config
};

// One option of Hudi's Flink SQL connector. Spark jobs never read these.
struct FlinkOption final {
    std::string key, defaultValue, type, summary;
    std::vector<std::string> allowedValues;
    // The hoodie.* key it maps to: from the data, else the Hudi config of the same name under hoodie. or
    // hoodie.datasource.; empty when there is none.
    std::string hudiKey;
    std::vector<std::string> deprecatedNames; // older Flink names of the same option
};

// The compiled-in catalogue of Hudi configs and Flink options. Immutable after construction, so it is
// safe to share between threads without locking.
class HudiCatalogue final {
public:
    static const HudiCatalogue& instance(); // parsed once (thread-safe) from the compiled-in TSV

    // Parses catalogues from TSV text (header line first). Malformed lines are skipped.
    HudiCatalogue(std::string_view hudiConfigsTsv, std::string_view flinkOptionsTsv);

    const HudiConfigEntry* find(std::string_view key) const; // current name
    const HudiConfigEntry*
    findByDeprecatedName(std::string_view key) const; // entry whose deprecated names include key
    // Closest known keys (current names; a near miss of a deprecated name suggests its current name), best
    // first. Empty when nothing is close enough to be a plausible typo.
    std::vector<std::string> suggest(std::string_view unknownKey, std::size_t max = 3) const;
    // Operator message when the value does not fit the entry's type or allowed values, nullopt when it does.
    std::optional<std::string> checkValue(const HudiConfigEntry& entry, std::string_view value) const;
    const FlinkOption* findFlinkOption(std::string_view key) const; // current or deprecated Flink name
    // What find(), findByDeprecatedName() and findFlinkOption() say about `key`, from one lookup.
    struct Names final {
        const HudiConfigEntry* entry = nullptr;        // key is its current name
        const HudiConfigEntry* deprecatedOf = nullptr; // key is one of its deprecated names
        const FlinkOption* flinkOption = nullptr;
    };
    Names lookup(std::string_view key) const;
    const std::vector<HudiConfigEntry>& entries() const { return m_entries; }
    const std::vector<FlinkOption>& flinkOptions() const { return m_flinkOptions; }

    // The letters of an entry's allowed values: all upper case, all lower case, or mixed (checkValue()).
    enum class AllowedCase { Upper, Lower, Mixed };

private:
    // A name suggest() can match: a current key or a deprecated one, lower-cased, with its letter histogram
    // so most candidates are rejected before any edit distance is computed.
    struct Candidate final {
        std::string lowered;
        std::string original;
        std::size_t entry = 0;
        bool deprecated = false;
        std::array<unsigned char, 48> histogram{}; // see histogramOf() in the .cpp
    };

    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
    };
    using Index = std::unordered_map<std::string, std::size_t, StringHash, std::equal_to<>>;

    // The constructor's steps, in order.
    void readHudiConfigs(std::string_view tsv);
    void readFlinkOptions(std::string_view tsv);
    void mapFlinkOptionsToHudiKeys();
    void indexForSuggestions();
    void indexNames();

    std::vector<HudiConfigEntry> m_entries;
    std::vector<FlinkOption> m_flinkOptions;
    Index m_byKey;
    Index m_byDeprecatedName;
    Index m_flinkByKey;
    // Every name in the three indexes above, for lookup(): entry, deprecatedOf, flinkOption (kNone: none).
    std::unordered_map<std::string, std::array<std::size_t, 3>, StringHash, std::equal_to<>> m_names;
    std::vector<AllowedCase> m_allowedCase; // of m_entries, worked out once
    std::vector<Candidate> m_candidates;    // sorted by length, so a length window is a contiguous range
    Index m_bySuffix;                       // last two segments of a current key, when unique
};

} // namespace jobdeck
