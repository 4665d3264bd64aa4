#pragma once

#include "core/parameters/Diagnostic.h"

#include <optional>
#include <span>
#include <string_view>

namespace jobdeck {

// Every finding the parameter validator makes (docs/parameters.md). Each has one descriptor carrying its
// wire name, its severity and, for errors, its refusal rank, so a code cannot be misspelt into another
// order: the validator names findings by this enum only.
enum class DiagnosticCode : unsigned char {
    ParametersEmpty,
    SecretMaskUnresolved,
    OptionPlatformOwned,
    OptionNotForJobs,
    OptionHoodieConf,
    OptionUnknown,
    OptionMissingValue,
    ConfFormat,
    HudiConfDisabled,
    HudiConfFlagLast,
    HudiConfFormat,
    HudiConfNotHudiKey,
    HudiConfWhitespace,
    HudiConfEmptyValue,
    PathMissing,
    PathEmpty,
    HudiConfNotPermitted,
    HudiConfDisabledPair,
    HudiConfReserved,
    HudiConfNotPermittedKey,
    OptionValueIgnored,
    ConfHoodieKey,
    ConfNotSparkKey,
    ConfPlatformManaged,
    ConfDuplicateKey,
    HudiConfDuplicateKey,
    HudiConfMultiplePairs,
    HudiConfKeptNotApplied,
    HudiConfOverriddenByPlatform,
    HudiConfAfterPath,
    PathOptionGlued,
    PathLooksLikeConfig,
    PathExtension,
};

// The rank of everything that is not one of the validator's errors: after every error.
inline constexpr int kNotARefusal = 7;

struct DiagnosticDescriptor final {
    DiagnosticCode code;
    std::string_view name; // "hudi-conf.not-permitted": what the wire, the docs and the console show
    Severity severity;
    int refusalRank; // errors: the order in which they decide the service's answer; others kNotARefusal
    // A per-parameter copy of an error that the service answers for the whole list (hudi-conf.disabled,
    // hudi-conf.not-permitted): the one it is part of.
    std::optional<DiagnosticCode> partOf = std::nullopt;
    // Given or not depending on the project's settings (the --hudi-conf switch and allow-list): an editor
    // holds these back until it has read them.
    bool dependsOnProject = false;
};

// In the order of the enum.
std::span<const DiagnosticDescriptor> diagnosticDescriptors();
const DiagnosticDescriptor& descriptorOf(DiagnosticCode code);
// By wire name; nullptr for a name the validator never gives (an advice or catalogue code, a typo).
const DiagnosticDescriptor* findDiagnosticDescriptor(std::string_view name);
// False for a code the validator never gives.
bool dependsOnProjectSettings(std::string_view name);

} // namespace jobdeck
