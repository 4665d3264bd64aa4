#include "service/runs/SparkSubmitCommand.h"

#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/SparkSubmitOptions.h"
#include "core/text/Concat.h"

#include <set>

namespace jobdeck {
namespace {

constexpr std::string_view kRunIdConf = "spark.onehouse.jobRunId";
constexpr std::string_view kDeployModeConf = "spark.submit.deployMode";

// One word for a POSIX shell (and Python's shlex.split): single quotes, a ' inside as '\''.
std::string shellQuoted(const std::string& text) {
    std::string word = "'";
    for (const char c : text)
        word += c == '\'' ? std::string("'\\''") : std::string(1, c);
    word += '\'';
    return word;
}

} // namespace

// The job configuration is read by core's classifier, as the validator read it: it holds options only
// (the application path and its arguments are not part of it).

std::vector<std::pair<std::string, std::string>>
SparkSubmitCommand::jobSparkConfigs(const std::vector<std::string>& jobConfiguration) {
    std::vector<std::pair<std::string, std::string>> configs;
    for (auto& setting : classifyParameters(jobConfiguration).sparkConfigs)
        configs.emplace_back(std::move(setting.key), std::move(setting.value));
    return configs;
}

std::string SparkSubmitCommand::mainClass(const std::vector<std::string>& jobConfiguration) {
    std::string result;
    for (const ClassifiedToken& t : classifyTokens(jobConfiguration).tokens) {
        const std::string& token = jobConfiguration[static_cast<std::size_t>(t.index)];
        if (t.cls == TokenClass::OptionValue && t.optionIndex >= 0 &&
            SparkSubmitOptions::nameOf(jobConfiguration[static_cast<std::size_t>(t.optionIndex)]) ==
                SparkSubmitOptions::kClass)
            result = token;
        else if (t.cls == TokenClass::Option && t.valueRange.first >= 0 &&
                 SparkSubmitOptions::nameOf(token) == SparkSubmitOptions::kClass)
            result = std::string(rangeText(token, t.valueRange));
    }
    return result;
}

std::vector<std::string> SparkSubmitCommand::plainOptions(const std::vector<std::string>& jobConfiguration) {
    const auto tokens = classifyTokens(jobConfiguration).tokens;
    std::vector<bool> isPair(jobConfiguration.size(), false);
    for (const ClassifiedToken& t : tokens) {
        if (t.cls != TokenClass::ConfPair && t.cls != TokenClass::HudiConfPair)
            continue;
        isPair[static_cast<std::size_t>(t.index)] = true;
        if (t.optionIndex >= 0)
            isPair[static_cast<std::size_t>(t.optionIndex)] = true; // its flag
    }
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < jobConfiguration.size(); ++i)
        if (!isPair[i])
            rest.push_back(jobConfiguration[i]);
    return rest;
}

std::vector<std::string> SparkSubmitCommand::jobConfigurationOf(const SparkJob& job) {
    const std::size_t tail = job.arguments.size() + 1;
    if (job.parameters.size() < tail)
        return {};
    return {job.parameters.begin(), job.parameters.end() - static_cast<std::ptrdiff_t>(tail)};
}

ConfigPairs SparkSubmitCommand::sparkConfigs(const DriverCommandInput& in) {
    ConfigPairs configs{{std::string(kRunIdConf), in.runId}};
    for (const auto& [key, value] : in.managedSparkConfigs)
        if (key != kRunIdConf)
            configs.emplace_back(key, value);
    const auto jobConfigs = jobSparkConfigs(in.jobConfiguration);
    std::set<std::string> jobKeys;
    for (const auto& [key, value] : jobConfigs)
        jobKeys.insert(key);
    for (const auto& [key, value] : in.defaultSparkConfigs)
        if (!EffectiveConfig::isPlatformManagedSparkKey(key) && !jobKeys.count(key))
            configs.emplace_back(key, value);
    for (const auto& [key, value] : jobConfigs)
        if (!EffectiveConfig::isPlatformManagedSparkKey(key)) // the job cannot change those
            configs.emplace_back(key, value);
    return configs;
}

std::vector<std::string> SparkSubmitCommand::sparkSubmit(const std::string& sparkSubmitPath,
                                                         const DriverCommandInput& in) {
    std::vector<std::string> argv{sparkSubmitPath};
    for (auto& option : plainOptions(in.jobConfiguration))
        argv.push_back(std::move(option));
    for (const auto& [key, value] : sparkConfigs(in)) {
        argv.push_back("--conf");
        argv.push_back(concat({key, "=", value}));
    }
    argv.push_back(in.applicationFile);
    argv.insert(argv.end(), in.arguments.begin(), in.arguments.end());
    return argv;
}

std::vector<std::string> SparkSubmitCommand::clusterSubmit(const std::string& sparkSubmitPath,
                                                           const std::string& master,
                                                           const DriverCommandInput& in) {
    std::vector<std::string> argv{sparkSubmitPath, "--master", master, "--deploy-mode", "cluster"};
    for (auto& option : plainOptions(in.jobConfiguration))
        argv.push_back(std::move(option));
    auto configs = sparkConfigs(in);
    for (auto& [key, value] : configs)
        if (key == kDeployModeConf)
            value = "cluster";
    for (auto& pair : clusterExtraConfigs(master, in))
        configs.push_back(std::move(pair));
    for (const auto& [key, value] : configs) {
        argv.push_back("--conf");
        argv.push_back(concat({key, "=", value}));
    }
    argv.push_back(in.applicationFile);
    argv.insert(argv.end(), in.arguments.begin(), in.arguments.end());
    return argv;
}

ConfigPairs SparkSubmitCommand::clusterExtraConfigs(const std::string& master, const DriverCommandInput& in) {
    ConfigPairs configs;
    if (master.rfind("k8s://", 0) == 0) {
        configs.emplace_back("spark.kubernetes.driverEnv.ONEHOUSE_JOB_RUN_ID", in.runId);
        configs.emplace_back("spark.kubernetes.submission.waitAppCompletion", "false");
    } else if (master == "yarn") {
        configs.emplace_back("spark.yarn.appMasterEnv.ONEHOUSE_JOB_RUN_ID", in.runId);
    }
    for (const auto& [key, value] : in.hudiConfigs)
        configs.emplace_back(concat({"spark.hadoop.", key}), value);
    return configs;
}

std::vector<std::string> SparkSubmitCommand::clusterStatus(const std::string& sparkSubmitPath,
                                                           const std::string& master,
                                                           const std::string& submissionId) {
    return {sparkSubmitPath, "--master", master, "--status", submissionId};
}

std::vector<std::string> SparkSubmitCommand::clusterKill(const std::string& sparkSubmitPath,
                                                         const std::string& master,
                                                         const std::string& submissionId) {
    return {sparkSubmitPath, "--master", master, "--kill", submissionId};
}

std::vector<std::string> SparkSubmitCommand::local(const DriverCommandInput& in) {
    std::vector<std::string> argv;
    if (in.type == JobType::Python) {
        argv = {"python3", in.applicationFile};
    } else {
        // A SparkConf created in the JVM reads every spark.* system property.
        argv = {"java"};
        for (const auto& [key, value] : sparkConfigs(in))
            argv.push_back(concat({"-D", key, "=", value}));
        const std::string cls = mainClass(in.jobConfiguration);
        if (cls.empty())
            argv.insert(argv.end(), {"-jar", in.applicationFile});
        else
            argv.insert(argv.end(), {"-cp", in.applicationFile, cls});
    }
    argv.insert(argv.end(), in.arguments.begin(), in.arguments.end());
    return argv;
}

std::vector<std::pair<std::string, std::string>>
SparkSubmitCommand::localEnvironment(const DriverCommandInput& in) {
    if (in.type != JobType::Python)
        return {};
    // PySpark starts its JVM with spark-submit and these arguments (shell-split), so a session created by
    // the script gets the run's Spark configuration.
    std::string submitArgs;
    for (const auto& [key, value] : sparkConfigs(in))
        submitArgs += "--conf " + shellQuoted(key + "=" + value) + " ";
    submitArgs += "pyspark-shell";
    return {{"PYSPARK_SUBMIT_ARGS", submitArgs}};
}

} // namespace jobdeck
