#pragma once

#include "core/hudi/HudiConfigSettings.h"
#include "core/hudi/HudiConfigStatus.h"

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// Why a Job's --hudi-conf key has its status, in words, and what would make it apply. The one explanation of
// a config's status: DESCRIBE JOB's hudiConfigsStatusReasons, the validator's kept-not-applied warning and
// every console view use it.
struct HudiConfigExplanation final {
    enum class Reason {
        FeatureOff,     // NOT_ALLOWED: --hudi-conf is disabled for the project (the key may be listed too)
        NotOnAllowlist, // NOT_ALLOWED: the feature is on, no entry covers the key
        Reserved,       // RESERVED: `entry` is the reserved family or key
        SetByPlatform,  // OVERRIDDEN_BY_PLATFORM: `entry` is the platform's value, which wins
        Applied,        // APPLIED: `entry` is the allow-list entry that covers the key
    };
    HudiConfigStatus status = HudiConfigStatus::NotAllowed;
    Reason reason = Reason::NotOnAllowlist;
    std::string entry;
    // A clause, no capital or full stop: "--hudi-conf is not enabled for this project",
    // "it is outside the project's allow-list", "it is reserved for the platform", ...
    std::string because;
    // One or two sentences: why, with the family, value or entry.
    std::string detail;
    // What would make it apply, or why nothing can; empty when it is applied.
    std::string remedy;
    // The ALTER PROJECT statements an admin would run to apply it, in order; empty when none can.
    std::vector<std::string> alterProject;

    // detail and remedy in one text: what DESCRIBE JOB's hudiConfigsStatusReasons carries.
    std::string text() const;
};

HudiConfigExplanation explainHudiConfig(std::string_view key, const HudiConfigSettings& settings);

// `because` for a status without the key: what EffectiveConfig gives as a dropped pair's reason.
std::string_view hudiConfigStatusClause(HudiConfigStatus status, const HudiConfigSettings& settings);

// The statuses in words, for a view that has a status but no project settings to explain it with.
std::string_view hudiConfigStatusMeaning(HudiConfigStatus status);

// The sentence for a --hudi-conf pair after the application path (the application receives it as an
// argument; it is not a Job configuration). An empty key: a --hudi-conf there with no pair after it.
std::string misplacedHudiConfigMessage(std::string_view key);

} // namespace jobdeck
