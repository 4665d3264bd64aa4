#pragma once

#include "core/parameters/Diagnostic.h"

#include <optional>
#include <span>
#include <string_view>

namespace jobdeck {

// Every finding core gives about a Job's parameters: the validator's (docs/parameters.md), then the advice's
// and the catalogue's (docs/advice.md), then the parameter editor's own. Each has one descriptor carrying
// its wire name, its severity and, for the validator's errors, its refusal rank, so a code cannot be
// misspelt into another order: findings are named and compared by this enum only.
enum class DiagnosticCode : unsigned char {
    // The validator's.
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
    OptionValueHoldsOption,
    OptionDuplicate,
    ConfHoodieKey,
    ConfNotSparkKey,
    ConfWhitespace,
    ConfPlatformManaged,
    ConfDuplicateKey,
    ConfOverriddenByOption,
    HudiConfDuplicateKey,
    HudiConfMultiplePairs,
    HudiConfKeptNotApplied,
    HudiConfOverriddenByPlatform,
    HudiConfAfterPath,
    PathOptionGlued,
    PathLooksLikeConfig,
    PathExtension,
    ArgumentOptionAndValue,
    ResourceInvalid,
    PythonFilesNotPythonApplication,
    // The advice's and the catalogue's: never an error, never a refusal.
    CatalogueLikelyTypo,
    CatalogueUnknownKey,
    CatalogueDeprecatedKey,
    CatalogueShadowedOldName,
    CatalogueInvalidValue,
    CatalogueFlinkOption,
    AdviceHiveSyncJdbcWithoutUrl,
    AdviceHiveSyncJdbcCredentials,
    AdviceHiveSyncHmsWithoutUris,
    AdviceHiveSyncHms4NoJdbcFallback,
    AdvicePartitionExtractorNonPartitionedWithFields,
    AdvicePartitionExtractorPartitionedWithoutFields,
    AdvicePartitionExtractorHiveStyleMismatch,
    AdvicePartitionExtractorTimestampMultipart,
    AdvicePartitionExtractorSinglePartWithManyFields,
    AdviceSparkSpeculation,
    AdviceTuningReadHostLocalDisk,
    AdviceTuningIoEncryption,
    AdviceTuningShuffleService,
    AdviceTuningLocalityWait,
    AdviceTuningEnableToString,
    AdviceTuningParallelism,
    // The parameter editor's: a line that cannot be read, and the service's refusal shown at its line.
    TextLine,
    ServiceRefusal,
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

// In the order of the enum: every code.
std::span<const DiagnosticDescriptor> diagnosticDescriptors();
// The validator's codes only (docs/parameters.md lists exactly these).
std::span<const DiagnosticDescriptor> validatorDescriptors();
const DiagnosticDescriptor& descriptorOf(DiagnosticCode code);
// By wire name; nullptr for a name no finding carries (a typo, a code of another version).
const DiagnosticDescriptor* findDiagnosticDescriptor(std::string_view name);
// Whether a finding carries `code`.
bool hasCode(const Diagnostic& d, DiagnosticCode code);
// False for a code the validator never gives.
bool dependsOnProjectSettings(std::string_view name);

} // namespace jobdeck
