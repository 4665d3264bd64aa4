#pragma once

#include "core/hudi/HudiConfigStatus.h"
#include "core/parameters/ConfigSetting.h"
#include "core/policy/ProjectSettings.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// What DESCRIBE JOB shows about a Job's parameters (CONTRACT §2-§3). A key given twice keeps its last value,
// as spark-submit and the run's properties file do.
struct JobConfiguration final {
    std::optional<std::string> applicationPath;
    std::vector<std::string> arguments;                        // everything after the path, untouched
    std::map<std::string, std::string> sparkConfigs;           // --conf spark.* pairs
    std::map<std::string, std::string> hudiConfigs;            // --hudi-conf pairs before the path
    std::map<std::string, HudiConfigStatus> hudiConfigsStatus; // per hudiConfigs key: whether runs get it
    std::vector<ConfigSetting> misplacedHudiConfigs; // --hudi-conf pairs after the path (app arguments)
    bool operator==(const JobConfiguration&) const = default;
};

JobConfiguration describeParameters(const std::vector<std::string>& parameters,
                                    const ProjectSettings& settings);

} // namespace jobdeck
