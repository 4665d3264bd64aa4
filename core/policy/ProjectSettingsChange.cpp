#include "core/policy/ProjectSettingsChange.h"

#include "core/policy/ConcurrentRuns.h"

#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/hudi/HudiKeyMessages.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <tuple>

namespace jobdeck {

namespace {

std::vector<std::string> missingFrom(const std::vector<std::string>& from,
                                     const std::vector<std::string>& in) {
    std::vector<std::string> out;
    for (const std::string& entry : from)
        if (std::find(in.begin(), in.end(), entry) == in.end())
            out.push_back(entry);
    return out;
}

AlterProjectStatement allowlistStatement(AlterProjectStatement::AllowlistOp op, std::string entry) {
    AlterProjectStatement s;
    s.allowlistOp = op;
    s.allowlistEntries = {std::move(entry)};
    return s;
}

std::string excessMessage(const SparkJob& job, const ProjectSettings& after) {
    const std::string runs = std::to_string(job.maxConcurrentRuns);
    if (!after.concurrentRunsEnabled)
        return "Job " + job.name + " has MAX_CONCURRENT_RUNS " + runs +
               ", but concurrent runs will be disabled: the project admits 1 run of it at a time. The job "
               "keeps its setting.";
    return "Job " + job.name + " has MAX_CONCURRENT_RUNS " + runs + ", above the project's new limit of " +
           std::to_string(after.maxConcurrentRunsLimit) +
           ": the project admits at most that many runs of it at a time. The job keeps its setting.";
}

} // namespace

ProjectSettingsEffect effectOnJobs(const std::vector<SparkJob>& jobs, const ProjectSettings& before,
                                   const ProjectSettings& after) {
    ProjectSettingsEffect effect;
    const int ceilingBefore = maxConcurrentRunsAllowed(before);
    const int ceilingAfter = maxConcurrentRunsAllowed(after);
    for (const SparkJob& job : jobs) {
        for (const auto& [key, value] : job.hudiConfigs) {
            const HudiConfigStatus was = HudiConfigPolicy::statusOf(key, before);
            const HudiConfigStatus will = HudiConfigPolicy::statusOf(key, after);
            if (was != will)
                effect.hudiConfigs.push_back({job.name, key, was, will});
        }
        if (job.maxConcurrentRuns > ceilingAfter && job.maxConcurrentRuns <= ceilingBefore)
            effect.concurrentRuns.push_back(
                {job.name, job.maxConcurrentRuns, ceilingAfter, excessMessage(job, after)});
    }
    const auto byJobAndKey = [](const HudiConfigStatusChange& a, const HudiConfigStatusChange& b) {
        return std::tie(a.job, a.key) < std::tie(b.job, b.key);
    };
    std::sort(effect.hudiConfigs.begin(), effect.hudiConfigs.end(), byJobAndKey);
    std::sort(effect.concurrentRuns.begin(), effect.concurrentRuns.end(),
              [](const auto& a, const auto& b) { return a.job < b.job; });
    return effect;
}

std::vector<AlterProjectStatement> alterProjectStatements(const ProjectSettings& before,
                                                          const ProjectSettings& after) {
    std::vector<AlterProjectStatement> out;
    if (before.hudiConfigsEnabled != after.hudiConfigsEnabled) {
        AlterProjectStatement s;
        s.hudiConfigs = after.hudiConfigsEnabled;
        out.push_back(std::move(s));
    }
    if (before.concurrentRunsEnabled != after.concurrentRunsEnabled ||
        before.maxConcurrentRunsLimit != after.maxConcurrentRunsLimit) {
        AlterProjectStatement s;
        s.concurrentRuns = after.concurrentRunsEnabled;
        if (before.maxConcurrentRunsLimit != after.maxConcurrentRunsLimit)
            s.maxConcurrentRunsLimit = after.maxConcurrentRunsLimit;
        out.push_back(std::move(s));
    }
    for (std::string& entry : missingFrom(before.hudiConfigAllowlist, after.hudiConfigAllowlist))
        out.push_back(allowlistStatement(AlterProjectStatement::AllowlistOp::Remove, std::move(entry)));
    for (std::string& entry : missingFrom(after.hudiConfigAllowlist, before.hudiConfigAllowlist))
        out.push_back(allowlistStatement(AlterProjectStatement::AllowlistOp::Add, std::move(entry)));
    return out;
}

std::vector<std::string> allowlistEntryCandidates() {
    std::vector<std::string> out;
    for (const HudiConfigEntry& entry : HudiCatalogue::instance().entries()) {
        const std::string& key = entry.key;
        out.push_back(key);
        // "hoodie.a.b.c" gives the families "hoodie.a." and "hoodie.a.b.".
        for (std::size_t dot = key.find('.', 7); dot != std::string::npos; dot = key.find('.', dot + 1))
            out.push_back(key.substr(0, dot + 1));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    std::erase_if(out,
                  [](const std::string& e) { return HudiConfigPolicy::checkAllowlistEntry(e).has_value(); });
    return out;
}

namespace {

// A family grants what it names when a current key is under it.
std::optional<std::string> familyNote(std::string_view family, const HudiCatalogue& catalogue) {
    const HudiConfigEntry* oldNameUnder = nullptr;
    std::string_view oldName;
    for (const HudiConfigEntry& entry : catalogue.entries()) {
        if (entry.key.starts_with(family))
            return std::nullopt;
        for (const std::string& name : entry.deprecatedNames)
            if (!oldNameUnder && name.starts_with(family)) {
                oldNameUnder = &entry;
                oldName = name;
            }
    }
    if (oldNameUnder)
        return "Only old names of Hudi configs are under " + quoted(family) + " (such as " + quoted(oldName) +
               ", now " + quoted(oldNameUnder->key) +
               "): Hudi still reads them, but the family covers none of the current names.";
    return "No config of the Hudi version this platform runs is under " + quoted(family) +
           ": the family grants nothing a Spark job's Hudi reads.";
}

std::optional<AllowlistEntryNote> keyNote(std::string_view key, const HudiCatalogue& catalogue) {
    const HudiCatalogue::Names names = catalogue.lookup(key);
    if (names.entry) {
        if (const std::string* value = HudiConfigPolicy::platformManagedValue(key))
            return AllowlistEntryNote{"The platform sets " + quoted(key) + " to " + quoted(*value) +
                                          " on every run: a Job's value is stored but never applied "
                                          "(OVERRIDDEN_BY_PLATFORM).",
                                      std::nullopt};
        return std::nullopt;
    }
    if (names.deprecatedOf)
        return AllowlistEntryNote{
            quoted(key) + " is the old name of " + quoted(names.deprecatedOf->key) +
                ": Hudi still reads it, but this entry does not cover the current name, "
                "which Jobs should set.",
            names.deprecatedOf->key};
    if (names.flinkOption)
        return AllowlistEntryNote{
            quoted(key) + " is an option of Hudi's Flink SQL connector; Spark jobs do not read it.",
            std::nullopt};
    const std::vector<std::string> suggestions = catalogue.suggest(key);
    if (suggestions.empty())
        return AllowlistEntryNote{unknownHudiKeyMessage(key), std::nullopt};
    return AllowlistEntryNote{hudiKeyTypoMessage(key, suggestions), suggestions.front()};
}

} // namespace

std::optional<AllowlistEntryNote> allowlistEntryNote(std::string_view entry) {
    const HudiCatalogue& catalogue = HudiCatalogue::instance();
    if (entry.ends_with('.')) {
        auto text = familyNote(entry, catalogue);
        return text ? std::optional(AllowlistEntryNote{std::move(*text), std::nullopt}) : std::nullopt;
    }
    return keyNote(entry, catalogue);
}

} // namespace jobdeck
