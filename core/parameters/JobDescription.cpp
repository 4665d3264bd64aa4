#include "core/parameters/JobDescription.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "core/parameters/JobConfiguration.h"
#include "core/parameters/SecretMasking.h"

namespace jobdeck {

SparkJob describeJob(SparkJob job, const ProjectSettings& settings, HudiConfigReasons reasons) {
    JobConfiguration configuration = describeParameters(job.parameters, settings);
    job.applicationPath = configuration.applicationPath.value_or("");
    job.arguments = std::move(configuration.arguments);
    job.sparkConfigs = std::move(configuration.sparkConfigs);
    job.hudiConfigs = std::move(configuration.hudiConfigs);
    job.hudiConfigsStatus = std::move(configuration.hudiConfigsStatus);
    job.hudiConfigsStatusReasons.clear();
    if (reasons == HudiConfigReasons::Given)
        for (const auto& [key, status] : job.hudiConfigsStatus)
            job.hudiConfigsStatusReasons[key] = explainHudiConfig(key, settings).text();
    job.misplacedHudiConfigs.clear();
    for (const auto& pair : configuration.misplacedHudiConfigs)
        job.misplacedHudiConfigs.push_back(pair.key + "=" + pair.value);
    maskJob(job);
    return job;
}

} // namespace jobdeck
