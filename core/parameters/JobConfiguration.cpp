#include "core/parameters/JobConfiguration.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/ParameterClassifier.h"

namespace jobdeck {

JobConfiguration describeParameters(const std::vector<std::string>& parameters,
                                    const ProjectSettings& settings) {
    ClassifiedParameters c = classifyParameters(parameters);
    JobConfiguration out;
    if (c.applicationPath >= 0)
        out.applicationPath = parameters[static_cast<std::size_t>(c.applicationPath)];
    out.arguments = std::move(c.applicationArguments);
    for (const ConfigSetting& s : c.sparkConfigs)
        out.sparkConfigs[s.key] = s.value;
    for (const ConfigSetting& s : c.hudiConfigs) {
        out.hudiConfigs[s.key] = s.value;
        out.hudiConfigsStatus[s.key] = HudiConfigPolicy::statusOf(s.key, settings);
    }
    out.misplacedHudiConfigs = std::move(c.misplacedHudiConfigs);
    return out;
}

} // namespace jobdeck
