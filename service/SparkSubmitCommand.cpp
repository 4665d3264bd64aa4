#include "service/SparkSubmitCommand.h"

#include "core/Concat.h"

#include <set>

namespace jobdeck {
namespace {

constexpr std::string_view kRunIdConf = "spark.onehouse.jobRunId";

// Calls fn(optionName, value) for each option of `names` in either form ("--conf k=v", "--conf=k=v");
// returns the other tokens.
template <class Fn>
std::vector<std::string> extract(const std::vector<std::string>& tokens,
                                 const std::set<std::string_view>& names, Fn fn) {
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        const auto eq = token.find('=');
        const std::string name = token.substr(0, eq);
        if (token.rfind('-', 0) == 0 && names.count(name)) {
            if (eq != std::string::npos)
                fn(name, token.substr(eq + 1));
            else if (i + 1 < tokens.size())
                fn(name, tokens[++i]);
            continue;
        }
        rest.push_back(token);
    }
    return rest;
}

std::pair<std::string, std::string> splitPair(const std::string& pair) {
    const auto eq = pair.find('=');
    if (eq == std::string::npos)
        return {pair, {}};
    return {pair.substr(0, eq), pair.substr(eq + 1)};
}

} // namespace

std::vector<std::pair<std::string, std::string>>
SparkSubmitCommand::jobSparkConfigs(const std::vector<std::string>& jobConfiguration) {
    std::vector<std::pair<std::string, std::string>> configs;
    extract(jobConfiguration, {"--conf", "-c"}, [&](const std::string&, const std::string& value) {
        auto pair = splitPair(value);
        if (pair.first.rfind("spark.", 0) == 0)
            configs.push_back(std::move(pair));
    });
    return configs;
}

std::string SparkSubmitCommand::mainClass(const std::vector<std::string>& jobConfiguration) {
    std::string result;
    extract(jobConfiguration, {"--class"},
            [&](const std::string&, const std::string& value) { result = value; });
    return result;
}

std::vector<std::string> SparkSubmitCommand::plainOptions(const std::vector<std::string>& jobConfiguration) {
    return extract(jobConfiguration, {"--conf", "-c", "--hudi-conf"},
                   [](const std::string&, const std::string&) {});
}

std::vector<std::string> SparkSubmitCommand::jobConfigurationOf(const SparkJob& job) {
    const std::size_t tail = job.arguments.size() + 1;
    if (job.parameters.size() < tail)
        return {};
    return {job.parameters.begin(), job.parameters.end() - static_cast<std::ptrdiff_t>(tail)};
}

std::vector<std::string> SparkSubmitCommand::sparkSubmit(const std::string& sparkSubmitPath,
                                                         const DriverCommandInput& in) {
    std::vector<std::string> argv{sparkSubmitPath};
    for (auto& option : plainOptions(in.jobConfiguration))
        argv.push_back(std::move(option));
    argv.push_back("--conf");
    argv.push_back(std::string(kRunIdConf) + "=" + in.runId);
    for (const auto& [key, value] : in.managedSparkConfigs) {
        if (key != kRunIdConf) {
            argv.push_back("--conf");
            argv.push_back(concat({key, "=", value}));
        }
    }
    const auto jobConfigs = jobSparkConfigs(in.jobConfiguration);
    std::set<std::string> jobKeys;
    for (const auto& [key, value] : jobConfigs)
        jobKeys.insert(key);
    for (const auto& [key, value] : in.defaultSparkConfigs) {
        if (!EffectiveConfig::isPlatformManagedSparkKey(key) && !jobKeys.count(key)) {
            argv.push_back("--conf");
            argv.push_back(concat({key, "=", value}));
        }
    }
    for (const auto& [key, value] : jobConfigs) {
        if (!EffectiveConfig::isPlatformManagedSparkKey(key)) { // the job cannot change those
            argv.push_back("--conf");
            argv.push_back(concat({key, "=", value}));
        }
    }
    argv.push_back(in.applicationFile);
    argv.insert(argv.end(), in.arguments.begin(), in.arguments.end());
    return argv;
}

std::vector<std::string> SparkSubmitCommand::local(const DriverCommandInput& in) {
    std::vector<std::string> argv;
    if (in.type == JobType::Python) {
        argv = {"python3", in.applicationFile};
    } else {
        const std::string cls = mainClass(in.jobConfiguration);
        argv = cls.empty() ? std::vector<std::string>{"java", "-jar", in.applicationFile}
                           : std::vector<std::string>{"java", "-cp", in.applicationFile, cls};
    }
    argv.insert(argv.end(), in.arguments.begin(), in.arguments.end());
    return argv;
}

} // namespace jobdeck
