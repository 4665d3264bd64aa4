#pragma once

#include "core/hudi/HudiConfigStatus.h"
#include "core/policy/ProjectSettings.h"
#include "core/statements/Statement.h"
#include "core/wire/SparkJob.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// What changing a project's settings does, worked out before anything is sent: the ALTER PROJECT statements
// that make the change, and its effect on the jobs the project already has.
struct HudiConfigStatusChange final {
    std::string job;
    std::string key;
    HudiConfigStatus before = HudiConfigStatus::NotAllowed;
    HudiConfigStatus after = HudiConfigStatus::NotAllowed;
    bool operator==(const HudiConfigStatusChange&) const = default;
};

struct ConcurrentRunsExcess final {
    std::string job;
    int maxConcurrentRuns = 1; // the job's setting, which the change does not touch
    int projectAllows = 1;     // the project's limit after the change (1 when concurrent runs are off)
    std::string message;
    bool operator==(const ConcurrentRunsExcess&) const = default;
};

struct ProjectSettingsEffect final {
    std::vector<HudiConfigStatusChange> hudiConfigs; // by job, then key
    std::vector<ConcurrentRunsExcess> concurrentRuns;
    bool empty() const { return hudiConfigs.empty() && concurrentRuns.empty(); }
};

// The configs of `jobs` (their hudiConfigs keys) whose status differs between `before` and `after`, and the
// jobs whose MAX_CONCURRENT_RUNS is above what `after` allows when `before` allowed it.
ProjectSettingsEffect effectOnJobs(const std::vector<SparkJob>& jobs, const ProjectSettings& before,
                                   const ProjectSettings& after);

// The statements that take a project from `before` to `after`: the switches and limit first, then one
// statement per allow-list entry added or removed (so a refusal names its entry). Empty when equal.
std::vector<AlterProjectStatement> alterProjectStatements(const ProjectSettings& before,
                                                          const ProjectSettings& after);

// What an admin may add to the allow-list, for completion: every catalogue key and every family (a prefix
// ending in '.') of them with at least two name segments, sorted, without those checkAllowlistEntry refuses.
std::vector<std::string> allowlistEntryCandidates();

// What an admin should know of an allow-list entry that checkAllowlistEntry accepts, when the entry grants
// less than it seems to: an exact key Hudi does not read (with the closest keys it does), an old name or a
// Flink option, a key the platform sets on every run, a family no config is under. The service stores such
// entries as given; the console shows the note beside them.
struct AllowlistEntryNote final {
    std::string text;
    // The entry more likely meant: the closest key Hudi reads for one it does not, the current name of an
    // old one; nullopt when there is none to offer.
    std::optional<std::string> replacement;
};
// nullopt when the entry grants what it names.
std::optional<AllowlistEntryNote> allowlistEntryNote(std::string_view entry);

} // namespace jobdeck
