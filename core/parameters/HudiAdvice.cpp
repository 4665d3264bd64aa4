#include "core/parameters/HudiAdvice.h"

#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiKeyMessages.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace jobdeck {
namespace {

using enum DiagnosticCode;

constexpr std::string_view kHiveSyncEnable = "hoodie.datasource.hive_sync.enable";
constexpr std::string_view kMetaSyncEnable = "hoodie.datasource.meta.sync.enable";
constexpr std::string_view kMetaSyncTool = "hoodie.meta.sync.client.tool.class";
constexpr std::string_view kHiveSyncMode = "hoodie.datasource.hive_sync.mode";
constexpr std::string_view kJdbcUrl = "hoodie.datasource.hive_sync.jdbcurl";
constexpr std::string_view kUsername = "hoodie.datasource.hive_sync.username";
constexpr std::string_view kPassword = "hoodie.datasource.hive_sync.password";
constexpr std::string_view kMetastoreUris = "hoodie.datasource.hive_sync.metastore.uris";
constexpr std::string_view kUseSparkCatalog = "hoodie.datasource.hive_sync.use_spark_catalog";
constexpr std::string_view kExtractor = "hoodie.datasource.hive_sync.partition_extractor_class";
constexpr std::string_view kSyncPartitionFields = "hoodie.datasource.hive_sync.partition_fields";
constexpr std::string_view kPartitionPathField = "hoodie.datasource.write.partitionpath.field";
constexpr std::string_view kHiveStylePartitioning = "hoodie.datasource.write.hive_style_partitioning";
constexpr std::string_view kKeyGeneratorClass = "hoodie.datasource.write.keygenerator.class";
constexpr std::string_view kKeyGeneratorType = "hoodie.datasource.write.keygenerator.type";
constexpr std::string_view kOutputDateFormat = "hoodie.keygen.timebased.output.dateformat";
constexpr std::string_view kUpsertParallelism = "hoodie.upsert.shuffle.parallelism";
constexpr std::string_view kIndexType = "hoodie.index.type";
constexpr std::string_view kHivePackage = "org.apache.hudi.hive.";

// Every key the advice reads a value of: each pair with one of them is remembered in its slot.
constexpr std::array<std::string_view, 35> kWatchedKeys{kHiveSyncEnable,
                                                        kMetaSyncEnable,
                                                        kMetaSyncTool,
                                                        kHiveSyncMode,
                                                        kJdbcUrl,
                                                        kUsername,
                                                        kPassword,
                                                        kMetastoreUris,
                                                        kUseSparkCatalog,
                                                        kExtractor,
                                                        kSyncPartitionFields,
                                                        kPartitionPathField,
                                                        kHiveStylePartitioning,
                                                        kKeyGeneratorClass,
                                                        kKeyGeneratorType,
                                                        kOutputDateFormat,
                                                        kUpsertParallelism,
                                                        kIndexType,
                                                        "spark.hadoop.hive.metastore.uris",
                                                        "spark.hive.metastore.uris",
                                                        "spark.speculation",
                                                        "spark.shuffle.readHostLocalDisk",
                                                        "spark.io.encryption.enabled",
                                                        "spark.shuffle.service.enabled",
                                                        "spark.sql.enableToString",
                                                        "spark.locality.wait",
                                                        "spark.locality.wait.process",
                                                        "spark.locality.wait.node",
                                                        "spark.locality.wait.rack",
                                                        "spark.executor.instances",
                                                        "spark.executor.cores",
                                                        "spark.dynamicAllocation.enabled",
                                                        "spark.dynamicAllocation.maxExecutors",
                                                        "spark.default.parallelism",
                                                        "spark.sql.shuffle.partitions"};

// A watched key's slot, found when compiling: a key missing from kWatchedKeys does not compile.
struct Watched final {
    consteval Watched(std::string_view key)
        : slot(slotOf(key)) {}
    template <std::size_t N>
    consteval Watched(const char (&key)[N])
        : Watched(std::string_view(key, N - 1)) {}
    std::string_view key() const { return kWatchedKeys[slot]; }

    static consteval std::size_t slotOf(std::string_view key) {
        for (std::size_t i = 0; i < kWatchedKeys.size(); ++i)
            if (kWatchedKeys[i] == key)
                return i;
        throw "not a watched key";
    }
    std::size_t slot;
};

// The slot of a key found in the job, kWatchedKeys.size() when the advice does not read it. The slots are
// grouped by key length: few keys share one, and every pair of the job is looked up.
std::size_t watchedSlot(std::string_view key) {
    static const auto byLength = [] {
        std::size_t longest = 0;
        for (const std::string_view k : kWatchedKeys)
            longest = std::max(longest, k.size());
        std::vector<std::vector<std::size_t>> slots(longest + 1);
        for (std::size_t i = 0; i < kWatchedKeys.size(); ++i)
            slots[kWatchedKeys[i].size()].push_back(i);
        return slots;
    }();
    if (key.size() < byLength.size())
        for (const std::size_t slot : byLength[key.size()])
            if (kWatchedKeys[slot] == key)
                return slot;
    return kWatchedKeys.size();
}

// A rule's code and severity are its descriptor's (core/parameters/DiagnosticCode.h).
AdviceRule rule(DiagnosticCode code, std::string_view when) {
    const DiagnosticDescriptor& d = descriptorOf(code);
    return {d.name, d.severity, when};
}

const std::vector<AdviceRule> kRules = {
    rule(CatalogueLikelyTypo, "a --hudi-conf key Hudi does not know is a few edits from one it does"),
    rule(CatalogueUnknownKey, "a hoodie.* key Hudi does not know, close to no known key"),
    rule(CatalogueDeprecatedKey, "a --hudi-conf key is the old name of a Hudi config"),
    rule(CatalogueShadowedOldName, "a config is set under both its old and its current name"),
    rule(CatalogueInvalidValue, "a value does not fit the config's type or allowed values"),
    rule(CatalogueFlinkOption, "a --hudi-conf key is an option of Hudi's Flink SQL connector"),
    rule(AdviceHiveSyncJdbcWithoutUrl, "hive sync mode=jdbc without a jdbcurl"),
    rule(AdviceHiveSyncJdbcCredentials, "mode=jdbc with a username but no password, or the reverse"),
    rule(AdviceHiveSyncHmsWithoutUris, "hive sync in hms mode without metastore uris"),
    rule(AdviceHiveSyncHms4NoJdbcFallback, "hive sync in hms or hiveql mode (no HMS 4.x fallback)"),
    rule(AdvicePartitionExtractorNonPartitionedWithFields,
         "NonPartitionedExtractor on a table with partition fields"),
    rule(AdvicePartitionExtractorPartitionedWithoutFields,
         "a partitioned extractor with a non-partitioned key generator"),
    rule(AdvicePartitionExtractorHiveStyleMismatch,
         "HiveStylePartitionValueExtractor without hive_style_partitioning=true"),
    rule(AdvicePartitionExtractorTimestampMultipart,
         "MultiPartKeysValueExtractor with a timestamp key generator writing yyyy/MM/dd"),
    rule(AdvicePartitionExtractorSinglePartWithManyFields,
         "a one-column extractor on a table with several partition fields"),
    rule(AdviceSparkSpeculation, "spark.speculation=true"),
    rule(AdviceTuningReadHostLocalDisk, "spark.shuffle.readHostLocalDisk=false"),
    rule(AdviceTuningIoEncryption, "spark.io.encryption.enabled=true"),
    rule(AdviceTuningShuffleService, "spark.shuffle.service.enabled=false"),
    rule(AdviceTuningLocalityWait, "spark.locality.wait[.process|.node|.rack] above 0s"),
    rule(AdviceTuningEnableToString, "spark.sql.enableToString=true"),
    rule(AdviceTuningParallelism,
         "spark.default.parallelism, spark.sql.shuffle.partitions or hoodie.upsert.shuffle.parallelism below "
         "twice "
         "the job's cores"),
};

std::optional<long long> positiveNumber(std::string_view s) {
    long long n = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size() || n <= 0)
        return std::nullopt;
    return n;
}

std::string_view simpleClassName(std::string_view className) {
    const std::size_t dot = className.rfind('.');
    return dot == std::string_view::npos ? className : className.substr(dot + 1);
}

std::size_t fieldCount(std::string_view fields) {
    std::size_t count = 0;
    std::size_t start = 0;
    while (start <= fields.size()) {
        std::size_t end = fields.find(',', start);
        if (end == std::string_view::npos)
            end = fields.size();
        std::string_view field = fields.substr(start, end - start);
        if (field.find_first_not_of(" \t") != std::string_view::npos)
            ++count;
        start = end + 1;
    }
    return count;
}

// Builds fixes on the job's parameter list. Each returns nullopt when the token is not where the
// setting says it is, so a stale or odd list gets no fix rather than a wrong one.
class FixBuilder final {
public:
    FixBuilder(const std::vector<std::string>& parameters, std::size_t maxFixes)
        : m_parameters(parameters)
        , m_budget(maxFixes) {}

    std::optional<Fix> setValue(const ConfigView& s, std::string_view value, std::string title) {
        return rewrite(s, s.key, value, std::move(title));
    }
    std::optional<Fix> renameKey(const ConfigView& s, std::string_view key, std::string title) {
        return rewrite(s, key, s.value, std::move(title));
    }
    // Removes a --hudi-conf pair: "--hudi-conf k=v" (two tokens) or "--hudi-conf=k=v" (one).
    std::optional<Fix> removeHudiConf(const ConfigView& s, std::string title) {
        if (!position(s) || !spend())
            return std::nullopt;
        const auto index = static_cast<std::size_t>(s.tokenIndex);
        std::size_t begin = index;
        if (!m_parameters[index].starts_with("--hudi-conf=")) {
            if (index == 0 || m_parameters[index - 1] != "--hudi-conf")
                return std::nullopt;
            begin = index - 1;
        }
        return fix(std::move(title), begin, index + 1, {});
    }
    // Adds "--hudi-conf key=value" right after an existing configuration, which is before the path.
    std::optional<Fix> addHudiConfAfter(const ConfigView& s, std::string_view key, std::string_view value,
                                        std::string title) {
        if (!position(s) || !spend())
            return std::nullopt;
        const auto after = static_cast<std::size_t>(s.tokenIndex) + 1;
        return fix(std::move(title), after, after, {"--hudi-conf", concat({key, "=", value})});
    }

private:
    // Where "key=" starts in the setting's token; a prefix such as "--conf=" is kept.
    std::optional<std::size_t> position(const ConfigView& s) const {
        if (s.tokenIndex < 0 || static_cast<std::size_t>(s.tokenIndex) >= m_parameters.size())
            return std::nullopt;
        const std::string_view token = m_parameters[static_cast<std::size_t>(s.tokenIndex)];
        const std::size_t pair = s.key.size() + 1 + s.value.size();
        if (token.size() < pair || !token.ends_with(s.value))
            return std::nullopt;
        const std::size_t at = token.size() - pair;
        if (token.substr(at, s.key.size()) != s.key || token[at + s.key.size()] != '=')
            return std::nullopt;
        return at;
    }

    std::optional<Fix> rewrite(const ConfigView& s, std::string_view key, std::string_view value,
                               std::string title) {
        const auto at = position(s);
        if (!at || !spend())
            return std::nullopt;
        const auto index = static_cast<std::size_t>(s.tokenIndex);
        std::string token = m_parameters[index].substr(0, *at) + std::string(key) + "=" + std::string(value);
        return fix(std::move(title), index, index + 1, {std::move(token)});
    }

    // At most maxFixes fixes; past the budget findings come without fixes.
    bool spend() {
        if (m_budget == 0)
            return false;
        --m_budget;
        return true;
    }

    Fix fix(std::string title, std::size_t begin, std::size_t end, std::vector<std::string> with) {
        if (!m_base)
            m_base = std::make_shared<FixedParameters::Base>(m_parameters);
        m_base->splices.push_back({begin, end, std::move(with)});
        return Fix{std::move(title), FixedParameters(m_base, m_base->splices.size() - 1, 1), {}};
    }

    const std::vector<std::string>& m_parameters;
    std::size_t m_budget;
    std::shared_ptr<FixedParameters::Base> m_base; // the fixes' shared list and splices, made for the first
};

class Advisor final {
public:
    Advisor(std::vector<Diagnostic>& out, const std::vector<std::string>& parameters,
            std::span<const ConfigView> sparkConfigs, std::span<const ConfigView> hudiConfigs,
            std::size_t maxFixes)
        : m_out(out)
        , m_parameters(parameters)
        , m_hudiConfigs(hudiConfigs)
        , m_fixes(parameters, maxFixes)
        , m_catalogue(HudiCatalogue::instance()) {
        for (const ConfigView& s : sparkConfigs)
            if (const std::size_t slot = watchedSlot(s.key); slot < kWatchedKeys.size())
                m_spark[slot] = &s;
        // By current name. The current name beats an old one whatever the order, as in Hudi; otherwise
        // the last pair wins, as in the run's properties file.
        m_names.reserve(hudiConfigs.size());
        m_currentEntries.reserve(hudiConfigs.size());
        m_out.reserve(m_out.size() + hudiConfigs.size()); // at most about a finding per pair
        std::array<bool, kWatchedKeys.size()> setByCurrentName{};
        for (const ConfigView& s : hudiConfigs) {
            HudiCatalogue::Names names = m_catalogue.lookup(s.key);
            m_names.push_back(names);
            const bool current = names.entry || !names.deprecatedOf;
            if (names.entry)
                m_currentEntries.push_back(names.entry);
            const std::size_t slot = watchedSlot(current ? s.key : names.deprecatedOf->key);
            if (slot == kWatchedKeys.size())
                continue;
            if (current || !setByCurrentName[slot])
                m_hudi[slot] = &s;
            setByCurrentName[slot] = setByCurrentName[slot] || current;
        }
        std::sort(m_currentEntries.begin(), m_currentEntries.end());
    }

    void run() {
        for (std::size_t i = 0; i < m_hudiConfigs.size(); ++i)
            adviseOnKey(m_hudiConfigs[i], m_names[i]);
        adviseOnHiveSync();
        adviseOnPartitionExtractor();
        adviseOnSparkSettings();
        adviseOnParallelism();
    }

private:
    const ConfigView* hudi(Watched key) const { return m_hudi[key.slot]; }
    const ConfigView* spark(Watched key) const { return m_spark[key.slot]; }
    static bool isTrue(const ConfigView* s) { return s && asciiLowered(s->value) == "true"; }
    static bool isFalse(const ConfigView* s) { return s && asciiLowered(s->value) == "false"; }

    void reportWithFixes(DiagnosticCode code, std::string message, const ConfigView* at,
                         std::vector<std::optional<Fix>> fixes) {
        Diagnostic& d = report(code, std::move(message), at);
        for (auto& fix : fixes)
            if (fix)
                d.fixes.push_back(std::move(*fix));
    }
    // The severity is the code's, always.
    Diagnostic& report(DiagnosticCode code, std::string message, const ConfigView* at,
                       std::optional<Fix> fix = std::nullopt) {
        const DiagnosticDescriptor& descriptor = descriptorOf(code);
        Diagnostic& d = m_out.emplace_back(Diagnostic{
            descriptor.name, descriptor.severity, std::move(message), at ? at->tokenIndex : -1, {}});
        if (fix)
            d.fixes.push_back(std::move(*fix));
        return d;
    }

    void checkValue(const HudiConfigEntry& entry, const ConfigView& s) {
        if (s.value.empty()) // the validator already refuses empty values
            return;
        if (auto problem = m_catalogue.checkValue(entry, s.value))
            report(CatalogueInvalidValue, *problem, &s);
    }

    // What the catalogue says about one --hudi-conf key.
    void adviseOnKey(const ConfigView& s, const HudiCatalogue::Names& names) {
        if (s.key.empty())
            return;
        if (const HudiConfigEntry* entry = names.entry) {
            checkValue(*entry, s);
            return;
        }
        if (const HudiConfigEntry* entry = names.deprecatedOf) {
            if (std::binary_search(m_currentEntries.begin(), m_currentEntries.end(), entry)) {
                report(CatalogueShadowedOldName,
                       quoted(s.key) + " is the old name of " + quoted(entry->key) +
                           ", which the job also sets; Hudi reads " + quoted(entry->key) + " and ignores " +
                           quoted(s.key) + ".",
                       &s, m_fixes.removeHudiConf(s, "Remove " + std::string(s.key)));
                return;
            }
            report(CatalogueDeprecatedKey,
                   quoted(s.key) + " is the old name of " + quoted(entry->key) +
                       "; Hudi still reads it, but use the current name.",
                   &s, {m_fixes.renameKey(s, entry->key, "Rename to " + entry->key)});
            checkValue(*entry, s);
            return;
        }
        if (const FlinkOption* option = names.flinkOption) {
            adviseOnFlinkOption(s, *option);
            return;
        }
        const std::vector<std::string> suggestions = m_catalogue.suggest(s.key);
        if (!suggestions.empty()) {
            std::vector<std::optional<Fix>> fixes;
            for (const std::string& suggestion : suggestions)
                fixes.push_back(m_fixes.renameKey(s, suggestion, "Rename to " + suggestion));
            reportWithFixes(CatalogueLikelyTypo, hudiKeyTypoMessage(s.key, suggestions), &s,
                            std::move(fixes));
        } else if (s.key.starts_with("hoodie.")) {
            report(CatalogueUnknownKey, unknownHudiKeyMessage(s.key), &s);
        }
    }

    void adviseOnFlinkOption(const ConfigView& s, const FlinkOption& option) {
        std::string message = quoted(s.key);
        if (option.key != s.key)
            message += " (now " + quoted(option.key) + ")";
        message += " is an option of Hudi's Flink SQL connector; Spark jobs do not read it.";
        const HudiConfigEntry* target = nullptr;
        if (!option.hudiKey.empty()) {
            target = m_catalogue.find(option.hudiKey);
            if (!target)
                target = m_catalogue.findByDeprecatedName(option.hudiKey);
        }
        if (!target) {
            message += " It has no hoodie.* counterpart for Spark.";
            report(CatalogueFlinkOption, message, &s);
            return;
        }
        message += " The Spark job config is " + quoted(target->key) + ".";
        report(CatalogueFlinkOption, message, &s,
               {m_fixes.renameKey(s, target->key, "Rename to " + target->key)});
    }

    void adviseOnHiveSync() {
        const ConfigView* enable = hudi(kHiveSyncEnable);
        const ConfigView* metaSync = hudi(kMetaSyncEnable);
        const ConfigView* tool = hudi(kMetaSyncTool);
        const bool hiveTool = !tool || tool->value.find("HiveSyncTool") != std::string::npos;
        const ConfigView* modeSetting = hudi(kHiveSyncMode);
        const std::string mode = modeSetting ? asciiLowered(modeSetting->value) : std::string();
        // Setting the mode shows intent to sync even when enabling happens elsewhere (a Streamer's
        // --enable-sync argument after the application path).
        const bool syncing = isTrue(enable) || (isTrue(metaSync) && hiveTool) || !mode.empty();
        const ConfigView* anchor = modeSetting        ? modeSetting
                                   : isTrue(enable)   ? enable
                                   : isTrue(metaSync) ? metaSync
                                                      : nullptr;
        if (!syncing || isFalse(enable))
            return;
        const ConfigView* jdbcUrl = hudi(kJdbcUrl);

        if (mode == "jdbc") {
            if (!jdbcUrl)
                report(AdviceHiveSyncJdbcWithoutUrl,
                       "Hive sync mode is jdbc but hoodie.datasource.hive_sync.jdbcurl is not set, so Hudi "
                       "connects to its default jdbc:hive2://localhost:10000. Add --hudi-conf "
                       "hoodie.datasource.hive_sync.jdbcurl=jdbc:hive2://<hiveserver>:10000.",
                       modeSetting);
            const ConfigView* user = hudi(kUsername);
            const ConfigView* password = hudi(kPassword);
            if (user && !password)
                report(AdviceHiveSyncJdbcCredentials,
                       "hoodie.datasource.hive_sync.username is set but hoodie.datasource.hive_sync.password "
                       "is not, so Hudi logs in to HiveServer2 with its default password.",
                       user);
            else if (password && !user)
                report(AdviceHiveSyncJdbcCredentials,
                       "hoodie.datasource.hive_sync.password is set but hoodie.datasource.hive_sync.username "
                       "is not, so Hudi logs in to HiveServer2 as its default user 'hive'.",
                       password);
            return;
        }

        const std::string effective = mode.empty() ? "hms" : mode;
        if (effective == "hms" && !hudi(kMetastoreUris) && !isTrue(hudi(kUseSparkCatalog)) &&
            !spark("spark.hadoop.hive.metastore.uris") && !spark("spark.hive.metastore.uris")) {
            report(
                AdviceHiveSyncHmsWithoutUris,
                std::string("Hive sync runs in hms mode") +
                    (mode.empty() ? " (the default since Hudi 0.13)" : "") +
                    " but hoodie.datasource.hive_sync.metastore.uris is not set; unless the cluster's "
                    "hive-site.xml sets hive.metastore.uris, Hudi connects to thrift://localhost:9083. Add "
                    "--hudi-conf hoodie.datasource.hive_sync.metastore.uris=thrift://<metastore>:9083.",
                anchor);
        }
        if (effective == "hms" || effective == "hiveql") {
            std::optional<Fix> toJdbc;
            if (jdbcUrl) {
                toJdbc = modeSetting ? m_fixes.setValue(*modeSetting, "jdbc", "Sync through JDBC (mode=jdbc)")
                                     : m_fixes.addHudiConfAfter(*jdbcUrl, kHiveSyncMode, "jdbc",
                                                                "Sync through JDBC (mode=jdbc)");
            }
            report(AdviceHiveSyncHms4NoJdbcFallback,
                   "Hive sync uses mode=" + effective + (mode.empty() ? " (the default)" : "") +
                       ". Against a Hive Metastore 4.x the Thrift calls fail, and Hudi 1.2 falls back to "
                       "JDBC only "
                       "with mode=jdbc and a valid hoodie.datasource.hive_sync.jdbcurl (plus username and "
                       "password); in " +
                       effective + " mode the sync fails with no automatic recovery.",
                   anchor, {std::move(toJdbc)});
        }
    }

    void adviseOnPartitionExtractor() {
        const ConfigView* extractor = hudi(kExtractor);
        if (!extractor)
            return; // Hudi infers the extractor from the partitioning; nothing can contradict it
        const std::string_view name = simpleClassName(extractor->value);
        const ConfigView* fieldsSetting = hudi(kSyncPartitionFields);
        if (!fieldsSetting)
            fieldsSetting = hudi(kPartitionPathField);
        const std::size_t fields = fieldsSetting ? fieldCount(fieldsSetting->value) : 0;
        const ConfigView* keyGenClass = hudi(kKeyGeneratorClass);
        const ConfigView* keyGenType = hudi(kKeyGeneratorType);
        auto keyGenIs = [&](std::string_view classPart, std::string_view typePrefix) {
            return (keyGenClass && keyGenClass->value.find(classPart) != std::string::npos) ||
                   (keyGenType && asciiLowered(keyGenType->value).starts_with(asciiLowered(typePrefix)));
        };
        const bool nonPartitionedKeys = keyGenIs("Nonpartitioned", "NON_PARTITION");
        const auto remove = [&] {
            return m_fixes.removeHudiConf(*extractor,
                                          "Remove the extractor; Hudi infers it from the partitioning");
        };
        const auto replace = [&](std::string_view simpleName) {
            const std::string value = std::string(kHivePackage) + std::string(simpleName);
            return m_fixes.setValue(*extractor, value, "Use " + value);
        };

        if (name == "NonPartitionedExtractor") {
            if (fields > 0)
                report(AdvicePartitionExtractorNonPartitionedWithFields,
                       "NonPartitionedExtractor syncs the table without partitions, but " +
                           std::string(fieldsSetting->key) + " is set to " + quoted(fieldsSetting->value) +
                           ", so Hive would not see the table's partitions.",
                       extractor, {remove()});
            return;
        }
        if (nonPartitionedKeys) {
            report(
                AdvicePartitionExtractorPartitionedWithoutFields,
                std::string(name) +
                    " extracts partition values, but the key generator writes a non-partitioned table; use "
                    "NonPartitionedExtractor.",
                extractor, {replace("NonPartitionedExtractor")});
            return;
        }
        if (name == "HiveStylePartitionValueExtractor" && !isTrue(hudi(kHiveStylePartitioning))) {
            report(
                AdvicePartitionExtractorHiveStyleMismatch,
                "HiveStylePartitionValueExtractor expects partition paths like field=value, but "
                "hoodie.datasource.write.hive_style_partitioning is not true, so the paths hold bare values "
                "and the partition sync fails.",
                extractor, {remove()});
            return;
        }
        const ConfigView* format = hudi(kOutputDateFormat);
        // A custom key generator renders "field:TIMESTAMP" partition fields with the same output format.
        const bool customTimestamp =
            keyGenIs("CustomKeyGenerator", "CUSTOM") && fieldsSetting &&
            asciiLowered(fieldsSetting->value).find(":timestamp") != std::string::npos;
        const bool timestampKeys = keyGenIs("TimestampBased", "TIMESTAMP") || customTimestamp;
        if (name == "MultiPartKeysValueExtractor" && timestampKeys && format &&
            format->value.find('/') != std::string::npos) {
            report(AdvicePartitionExtractorTimestampMultipart,
                   "The timestamp key generator writes partition paths as " + quoted(format->value) +
                       ", which MultiPartKeysValueExtractor splits at '/' into several values; "
                       "SinglePartPartitionValueExtractor keeps the date as one partition value.",
                   extractor, {replace("SinglePartPartitionValueExtractor")});
            return;
        }
        if ((name == "SinglePartPartitionValueExtractor" ||
             name == "SlashEncodedDayPartitionValueExtractor") &&
            fields > 1) {
            report(AdvicePartitionExtractorSinglePartWithManyFields,
                   std::string(name) + " yields one partition value, but " + std::string(fieldsSetting->key) +
                       " names " + std::to_string(fields) + " partition fields (" +
                       quoted(fieldsSetting->value) +
                       "); MultiPartKeysValueExtractor yields one value per field.",
                   extractor, {replace("MultiPartKeysValueExtractor")});
        }
    }

    // The tuning guide's advice for --conf settings the job sets explicitly.
    void adviseOnSparkSettings() {
        auto whenValue = [&](Watched watched, std::string_view bad, std::string_view good,
                             DiagnosticCode code, std::string_view why) {
            const ConfigView* s = spark(watched);
            if (!s || asciiLowered(s->value) != bad)
                return;
            const std::string key(watched.key());
            report(code, concat({key, "=", s->value, ": ", why}), s,
                   {m_fixes.setValue(*s, good, "Set " + key + "=" + std::string(good))});
        };
        whenValue(
            "spark.speculation", "true", "false", AdviceSparkSpeculation,
            "Hudi does not support speculative execution; a speculative task writing to a Hudi table can "
            "leave corrupt files behind. Set it to false.");
        whenValue("spark.shuffle.readHostLocalDisk", "false", "true", AdviceTuningReadHostLocalDisk,
                  "reading shuffle data from local disks (true) avoids network transfers and speeds up Hudi "
                  "writes.");
        whenValue("spark.io.encryption.enabled", "true", "false", AdviceTuningIoEncryption,
                  "encrypting shuffle spills slows Hudi writes; the tuning guide turns it off unless your "
                  "security policy requires it.");
        whenValue(
            "spark.shuffle.service.enabled", "false", "true", AdviceTuningShuffleService,
            "the external shuffle service (true) makes shuffles of large Hudi writes more stable, where the "
            "cluster runs it.");
        whenValue("spark.sql.enableToString", "true", "false", AdviceTuningEnableToString,
                  "false reduces memory use while Spark parses complex SQL.");

        for (Watched watched : {Watched("spark.locality.wait"), Watched("spark.locality.wait.process"),
                                Watched("spark.locality.wait.node"), Watched("spark.locality.wait.rack")}) {
            const ConfigView* s = spark(watched);
            if (!s || isZeroDuration(s->value))
                continue;
            const std::string_view key = watched.key();
            report(AdviceTuningLocalityWait,
                   concat({key, "=", s->value}) +
                       ": Hudi tables on object storage have no data locality, so waiting for it only delays "
                       "scheduling; the tuning guide sets it to 0s.",
                   s, {m_fixes.setValue(*s, "0s", "Set " + std::string(key) + "=0s")});
        }
    }

    static bool isZeroDuration(std::string_view v) {
        const std::size_t digits = v.find_first_not_of("0123456789.");
        const std::string_view number = v.substr(0, digits);
        if (number.empty())
            return false; // not a duration Spark reads; leave it to Spark to complain
        return number.find_first_not_of("0.") == std::string_view::npos;
    }

    // Cores the job asks for: executors (or the dynamic-allocation maximum) times cores per executor.
    std::optional<long long> requestedCores() const {
        std::optional<long long> executors, cores;
        // spark-submit options before the application path. Flags without a value are listed so the
        // scan does not mistake the next option for one.
        for (std::size_t i = 0; i < m_parameters.size(); ++i) {
            const std::string& token = m_parameters[i];
            if (!token.starts_with("-"))
                break;
            const std::size_t eq = token.find('=');
            const std::string_view option = std::string_view(token).substr(0, eq);
            std::string_view value;
            if (eq != std::string::npos)
                value = std::string_view(token).substr(eq + 1);
            else if (option == "--verbose" || option == "-v" || option == "--supervise")
                continue;
            else if (i + 1 < m_parameters.size())
                value = m_parameters[++i];
            if (option == "--num-executors")
                executors = positiveNumber(value);
            else if (option == "--executor-cores")
                cores = positiveNumber(value);
        }
        if (const ConfigView* s = spark("spark.executor.instances"); s && !executors)
            executors = positiveNumber(s->value);
        if (const ConfigView* s = spark("spark.executor.cores"); s && !cores)
            cores = positiveNumber(s->value);
        if (isTrue(spark("spark.dynamicAllocation.enabled"))) {
            const ConfigView* max = spark("spark.dynamicAllocation.maxExecutors");
            executors = max ? positiveNumber(max->value) : std::nullopt;
        }
        if (!executors || !cores || *executors > 1'000'000 || *cores > 10'000)
            return std::nullopt;
        return *executors * *cores;
    }

    void adviseOnParallelism() {
        const ConfigView* defaultParallelism = spark("spark.default.parallelism");
        const ConfigView* sqlPartitions = spark("spark.sql.shuffle.partitions");
        const ConfigView* upsert = hudi(kUpsertParallelism);
        const ConfigView* index = hudi(kIndexType);
        if (index && asciiLowered(index->value) == "bucket")
            upsert = nullptr; // the guide's advice is for non-bucket tables
        if (!defaultParallelism && !sqlPartitions && !upsert)
            return;
        const auto cores = requestedCores();
        if (!cores)
            return; // without the job's size there is nothing to compare with
        const long long advised = 2 * *cores;
        for (const ConfigView* s : {defaultParallelism, sqlPartitions, upsert}) {
            const auto value = s ? positiveNumber(s->value) : std::nullopt;
            if (!value || *value >= advised)
                continue;
            report(AdviceTuningParallelism,
                   std::string(s->key) + "=" + std::string(s->value) + " is below twice the " +
                       std::to_string(*cores) + " cores this job asks for; the tuning guide advises " +
                       std::to_string(advised) + " so every core takes part in the shuffle.",
                   s,
                   {m_fixes.setValue(*s, std::to_string(advised),
                                     "Set " + std::string(s->key) + "=" + std::to_string(advised))});
        }
    }

    std::vector<Diagnostic>& m_out; // appended to
    const std::vector<std::string>& m_parameters;
    std::span<const ConfigView> m_hudiConfigs;
    FixBuilder m_fixes;
    const HudiCatalogue& m_catalogue;
    std::vector<HudiCatalogue::Names> m_names;                    // what the catalogue says of each Hudi pair
    std::array<const ConfigView*, kWatchedKeys.size()> m_hudi{};  // by current Hudi name
    std::vector<const HudiConfigEntry*> m_currentEntries;         // set under their current name, sorted
    std::array<const ConfigView*, kWatchedKeys.size()> m_spark{}; // last pair wins
};

} // namespace

void appendAdviceOnConfigViews(std::vector<Diagnostic>& out, const std::vector<std::string>& parameters,
                               std::span<const ConfigView> sparkConfigs,
                               std::span<const ConfigView> hudiConfigs, std::size_t maxFixes) {
    Advisor(out, parameters, sparkConfigs, hudiConfigs, maxFixes).run();
}

std::vector<Diagnostic> adviseOnConfigs(const std::vector<std::string>& parameters,
                                        const std::vector<ConfigSetting>& sparkConfigs,
                                        const std::vector<ConfigSetting>& hudiConfigs, std::size_t maxFixes) {
    const auto views = [](const std::vector<ConfigSetting>& settings) {
        std::vector<ConfigView> out;
        out.reserve(settings.size());
        for (const ConfigSetting& s : settings)
            out.push_back({s.key, s.value, s.tokenIndex});
        return out;
    };
    std::vector<Diagnostic> out;
    appendAdviceOnConfigViews(out, parameters, views(sparkConfigs), views(hudiConfigs), maxFixes);
    return out;
}

const std::vector<AdviceRule>& adviceRules() {
    return kRules;
}

} // namespace jobdeck
