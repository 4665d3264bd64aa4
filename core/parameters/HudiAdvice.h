#pragma once

#include "core/parameters/AdviceRule.h"
#include "core/parameters/ConfigSetting.h"
#include "core/parameters/Diagnostic.h"

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// A configuration as the advice reads it: a view of a ConfigSetting, or of the parameters themselves.
struct ConfigView final {
    std::string_view key;
    std::string_view value;
    int tokenIndex = -1; // the "key=value" token, where fixes apply
};

// Advice on a Job's Spark and Hudi configurations: catalogue findings ("catalogue.*": unknown or
// deprecated keys, values of the wrong type, Flink options) and rules from the Hudi guides
// ("advice.*"). Advice never refuses a job: every finding is a Warning or Info. Fixes carry the whole
// corrected parameter list (see FixedParameters); at most `maxFixes` are made (in finding order) and later
// findings come without fixes. See docs/advice.md.
std::vector<Diagnostic>
adviseOnConfigs(const std::vector<std::string>& parameters,
                const std::vector<ConfigSetting>& sparkConfigs, // --conf spark.* pairs
                const std::vector<ConfigSetting>& hudiConfigs,  // --hudi-conf before the path
                std::size_t maxFixes = std::numeric_limits<std::size_t>::max());
// The same over views, which must point into `parameters` or outlive the call, appended to `out` (the
// validator sorts its findings and the advice in one list, so a long job holds one list, not three).
void appendAdviceOnConfigViews(std::vector<Diagnostic>& out, const std::vector<std::string>& parameters,
                               std::span<const ConfigView> sparkConfigs,
                               std::span<const ConfigView> hudiConfigs,
                               std::size_t maxFixes = std::numeric_limits<std::size_t>::max());

// Every code adviseOnConfigs() can report, with its severity.
const std::vector<AdviceRule>& adviceRules();

} // namespace jobdeck
