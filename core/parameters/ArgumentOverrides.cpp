#include "core/parameters/ArgumentOverrides.h"

#include "core/parameters/SecretMasking.h"
#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

#include <algorithm>
#include <unordered_map>

namespace jobdeck {

namespace {

// "-5" and "-.5" are values, not options; "--" alone ends the options.
bool looksLikeOption(std::string_view token) {
    if (token.size() < 2 || token[0] != '-' || token == "--")
        return false;
    const char second = token[1];
    return !((second >= '0' && second <= '9') || second == '.');
}

bool isControlOrSpace(char c) {
    return static_cast<unsigned char>(c) <= ' ' || c == 0x7F;
}

// Why an override name cannot name an option, or nothing when it can.
std::optional<std::string> invalidNameReason(const std::string& name) {
    if (name.find('=') != std::string::npos && looksLikeOption(name)) {
        return "Argument override " + quoted(name) +
               " must be the option name alone; give its value separately, as in '--date' = '2024-01-01'.";
    }
    const std::size_t dashes = name.find_first_not_of('-');
    if (!looksLikeOption(name) || dashes == std::string::npos ||
        std::any_of(name.begin(), name.end(), isControlOrSpace)) {
        return "Argument override " + quoted(name) +
               " is not an option name: it must start with -- and contain no spaces, as in '--date'.";
    }
    return std::nullopt;
}

// Refused as a **** with no stored value is in CREATE JOB: a run's override has no stored value to
// stand for (the Job's own value is kept by leaving the argument out).
std::optional<std::string> maskedValueReason(const std::string& name, const std::string& value) {
    if (!isMaskedSecretOverride(name, value))
        return std::nullopt;
    return "Argument override " + name +
           " is masked (****), which stands for no value the service keeps for a run; send the real value, "
           "or leave the argument out to use the Job's.";
}

// The names whose values belong to the Job configuration, with why a run cannot change them.
std::optional<std::string> refusedNameReason(const std::string& name) {
    if (name == "--conf" || name == "--hudi-conf") {
        return "Argument override " + name +
               " is not allowed: a run cannot change Spark or Hudi configurations; change the Job instead.";
    }
    if (name == "--class") {
        return "Argument override --class is not allowed: a run cannot change the application's main class; "
               "change the Job instead.";
    }
    return std::nullopt;
}

} // namespace

std::vector<ApplicationArgument> readApplicationArguments(const std::vector<std::string>& args) {
    std::vector<ApplicationArgument> result;
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& token = args[i];
        const int index = static_cast<int>(i);
        if (optionsEnded || !looksLikeOption(token)) {
            if (token == "--")
                optionsEnded = true;
            result.push_back({"", token, false, index});
            continue;
        }
        const std::size_t equals = token.find('=');
        if (equals != std::string::npos) {
            result.push_back({token.substr(0, equals), token.substr(equals + 1), true, index});
        } else if (i + 1 < args.size() && !looksLikeOption(args[i + 1]) && args[i + 1] != "--") {
            result.push_back({token, args[i + 1], false, index});
            ++i;
        } else {
            result.push_back({token, std::nullopt, false, index});
        }
    }
    return result;
}

bool isMaskedSecretOverride(const std::string& name, const std::string& value) {
    return holdsMaskedSecret(name, value);
}

OverrideResult applyArgumentOverrides(const std::vector<std::string>& jobArgs,
                                      const std::vector<std::pair<std::string, std::string>>& overrides,
                                      std::string_view jobName) {
    const auto refuse = [](std::string message) { return OverrideResult{{}, std::move(message)}; };

    for (const auto& [name, value] : overrides) {
        if (auto reason = invalidNameReason(name))
            return refuse(*reason);
        if (auto reason = refusedNameReason(name))
            return refuse(*reason);
        if (auto reason = maskedValueReason(name, value))
            return refuse(*reason);
    }
    // Counted with maps: a request body can carry many thousands of overrides.
    std::unordered_map<std::string_view, int> timesGiven;
    for (const auto& override : overrides)
        ++timesGiven[override.first];
    for (const auto& override : overrides) {
        if (const int times = timesGiven[override.first]; times > 1) {
            return refuse("Argument override " + override.first + " is given " + std::to_string(times) +
                          " times; give each argument once.");
        }
    }

    const std::vector<ApplicationArgument> arguments = readApplicationArguments(jobArgs);
    std::unordered_map<std::string_view, std::vector<const ApplicationArgument*>> byName;
    for (const ApplicationArgument& argument : arguments) {
        if (!argument.name.empty())
            byName[argument.name].push_back(&argument);
    }
    std::vector<std::string> effective = jobArgs;
    std::vector<std::optional<std::string>> valueAfter(jobArgs.size()); // for flags that get a value
    std::vector<std::string> appended;
    for (const auto& [name, value] : overrides) {
        const auto found = byName.find(name);
        const std::size_t occurrences = found == byName.end() ? 0 : found->second.size();
        if (occurrences > 1) {
            const std::string owner =
                jobName.empty() ? std::string("the Job's") : "Job " + std::string(jobName) + "'s";
            return refuse(concat({"Argument ", name, " occurs ", std::to_string(occurrences), " times in ",
                                  owner, " arguments; it cannot be overridden."}));
        }
        if (occurrences == 0) {
            appended.push_back(name);
            appended.push_back(value);
            continue;
        }
        const ApplicationArgument& match = *found->second.front();
        const auto at = static_cast<std::size_t>(match.index);
        if (match.inlineForm)
            effective[at] = concat({name, "=", value});
        else if (match.value)
            effective[at + 1] = value;
        else
            valueAfter[at] = value;
    }
    std::vector<std::string> result;
    result.reserve(effective.size() + appended.size() + overrides.size());
    for (std::size_t i = 0; i < effective.size(); ++i) {
        result.push_back(std::move(effective[i]));
        if (valueAfter[i])
            result.push_back(std::move(*valueAfter[i]));
    }
    result.insert(result.end(), appended.begin(), appended.end());
    return OverrideResult{std::move(result), std::nullopt};
}

} // namespace jobdeck
