#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// One application argument as a run override sees it (CONTRACT §4): `--name value`,
// `--name=value`, a flag with no value, or a positional argument (empty name).
struct ApplicationArgument final {
    std::string name;                 // "--date"; empty for a positional argument
    std::optional<std::string> value; // empty optional for a flag followed by another option or nothing
    bool inlineForm = false;          // written as --name=value
    int index = 0;                    // index of the name (or positional) in the argument list
    bool operator==(const ApplicationArgument&) const = default;
};

// The effective arguments of one run, or why the overrides are refused (then `effective` is empty).
struct OverrideResult final {
    std::vector<std::string> effective;
    std::optional<std::string> error;
};

// Reads a Job's application arguments (what follows the application path). A token starting with
// '-' (and not a negative number) is an option; its value is the part after the first '=' or else
// the next token when that is not an option. After a bare "--" everything is positional.
std::vector<ApplicationArgument> readApplicationArguments(const std::vector<std::string>& args);

// Applies RUN JOB's ARGUMENTS overrides to a Job's application arguments: an override replaces the
// value in the form the Job wrote it, a name the Job does not have is appended as `--name value`,
// and arguments not named are inherited. Refused: a name that is not an option, --conf,
// --hudi-conf and --class, a name given twice, a name the Job has more than once, and a masked secret
// (isMaskedSecretOverride). `jobName` only makes the refusal messages name the Job.
OverrideResult applyArgumentOverrides(const std::vector<std::string>& jobArgs,
                                      const std::vector<std::pair<std::string, std::string>>& overrides,
                                      std::string_view jobName = {});

// Whether an override is a secret argument's value as DESCRIBE JOB_RUN shows it (****, or a value with a
// secret inside masked, "jdbc:...?password=****"), which no run keeps: sent back, the driver would get
// "****".
bool isMaskedSecretOverride(const std::string& name, const std::string& value);

} // namespace jobdeck
