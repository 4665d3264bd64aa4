#include "core/parameters/DiagnosticCode.h"

#include <array>

namespace jobdeck {

namespace {

using enum DiagnosticCode;
constexpr Severity E = Severity::Error;
constexpr Severity W = Severity::Warning;
constexpr Severity I = Severity::Info;

// Why this order of ranks: docs/parameters.md, "Validation".
constexpr std::array kDescriptors{
    DiagnosticDescriptor{ParametersEmpty, "parameters.empty", E, 0},
    DiagnosticDescriptor{SecretMaskUnresolved, "secret.unresolved-mask", E, 0},
    DiagnosticDescriptor{OptionPlatformOwned, "option.platform-owned", E, 1},
    DiagnosticDescriptor{OptionNotForJobs, "option.not-for-jobs", E, 1},
    DiagnosticDescriptor{OptionHoodieConf, "option.hoodie-conf", E, 1},
    DiagnosticDescriptor{OptionUnknown, "option.unknown", E, 1},
    DiagnosticDescriptor{OptionMissingValue, "option.missing-value", E, 1},
    DiagnosticDescriptor{ConfFormat, "conf.format", E, 1},
    DiagnosticDescriptor{HudiConfDisabled, "hudi-conf.disabled", E, 2, std::nullopt, true},
    DiagnosticDescriptor{HudiConfFlagLast, "hudi-conf.flag-last", E, 3},
    DiagnosticDescriptor{HudiConfFormat, "hudi-conf.format", E, 3},
    DiagnosticDescriptor{HudiConfNotHudiKey, "hudi-conf.not-hudi-key", E, 3},
    DiagnosticDescriptor{HudiConfWhitespace, "hudi-conf.whitespace", E, 3},
    DiagnosticDescriptor{HudiConfEmptyValue, "hudi-conf.empty-value", E, 3},
    DiagnosticDescriptor{PathMissing, "path.missing", E, 4},
    DiagnosticDescriptor{PathEmpty, "path.empty", E, 4},
    DiagnosticDescriptor{HudiConfNotPermitted, "hudi-conf.not-permitted", E, 5, std::nullopt, true},
    DiagnosticDescriptor{HudiConfDisabledPair, "hudi-conf.disabled.pair", E, 6, HudiConfDisabled, true},
    DiagnosticDescriptor{HudiConfReserved, "hudi-conf.reserved", E, 6, HudiConfNotPermitted},
    DiagnosticDescriptor{HudiConfNotPermittedKey, "hudi-conf.not-permitted.key", E, 6, HudiConfNotPermitted,
                         true},
    DiagnosticDescriptor{OptionValueIgnored, "option.value-ignored", W, kNotARefusal},
    DiagnosticDescriptor{OptionValueHoldsOption, "option.value-holds-option", W, kNotARefusal},
    DiagnosticDescriptor{OptionDuplicate, "option.duplicate", W, kNotARefusal},
    DiagnosticDescriptor{ConfHoodieKey, "conf.hoodie-key", W, kNotARefusal},
    DiagnosticDescriptor{ConfNotSparkKey, "conf.not-spark-key", W, kNotARefusal},
    DiagnosticDescriptor{ConfWhitespace, "conf.whitespace", W, kNotARefusal},
    DiagnosticDescriptor{ConfPlatformManaged, "conf.platform-managed", W, kNotARefusal},
    DiagnosticDescriptor{ConfDuplicateKey, "conf.duplicate-key", W, kNotARefusal},
    DiagnosticDescriptor{ConfOverriddenByOption, "conf.overridden-by-option", W, kNotARefusal},
    DiagnosticDescriptor{HudiConfDuplicateKey, "hudi-conf.duplicate-key", W, kNotARefusal},
    DiagnosticDescriptor{HudiConfMultiplePairs, "hudi-conf.multiple-pairs", W, kNotARefusal},
    DiagnosticDescriptor{HudiConfKeptNotApplied, "hudi-conf.kept-not-applied", W, kNotARefusal, std::nullopt,
                         true},
    DiagnosticDescriptor{HudiConfOverriddenByPlatform, "hudi-conf.overridden-by-platform", I, kNotARefusal},
    DiagnosticDescriptor{HudiConfAfterPath, "hudi-conf.after-path", W, kNotARefusal},
    DiagnosticDescriptor{PathOptionGlued, "path.option-glued", W, kNotARefusal},
    DiagnosticDescriptor{PathLooksLikeConfig, "path.looks-like-config", W, kNotARefusal},
    DiagnosticDescriptor{PathExtension, "path.extension", W, kNotARefusal},
    DiagnosticDescriptor{ArgumentOptionAndValue, "argument.option-and-value", W, kNotARefusal},
    DiagnosticDescriptor{ResourceInvalid, "resource.invalid", W, kNotARefusal},
    DiagnosticDescriptor{PythonFilesNotPythonApplication, "py-files.not-python-application", W, kNotARefusal},
    DiagnosticDescriptor{CatalogueLikelyTypo, "catalogue.likely-typo", W, kNotARefusal},
    DiagnosticDescriptor{CatalogueUnknownKey, "catalogue.unknown-key", I, kNotARefusal},
    DiagnosticDescriptor{CatalogueDeprecatedKey, "catalogue.deprecated-key", I, kNotARefusal},
    DiagnosticDescriptor{CatalogueShadowedOldName, "catalogue.shadowed-old-name", W, kNotARefusal},
    DiagnosticDescriptor{CatalogueInvalidValue, "catalogue.invalid-value", W, kNotARefusal},
    DiagnosticDescriptor{CatalogueFlinkOption, "catalogue.flink-option", I, kNotARefusal},
    DiagnosticDescriptor{AdviceHiveSyncJdbcWithoutUrl, "advice.hive-sync.jdbc-without-url", W, kNotARefusal},
    DiagnosticDescriptor{AdviceHiveSyncJdbcCredentials, "advice.hive-sync.jdbc-credentials", I, kNotARefusal},
    DiagnosticDescriptor{AdviceHiveSyncHmsWithoutUris, "advice.hive-sync.hms-without-uris", W, kNotARefusal},
    DiagnosticDescriptor{AdviceHiveSyncHms4NoJdbcFallback, "advice.hive-sync.hms4-no-jdbc-fallback", I,
                         kNotARefusal},
    DiagnosticDescriptor{AdvicePartitionExtractorNonPartitionedWithFields,
                         "advice.partition-extractor.non-partitioned-with-fields", W, kNotARefusal},
    DiagnosticDescriptor{AdvicePartitionExtractorPartitionedWithoutFields,
                         "advice.partition-extractor.partitioned-without-fields", W, kNotARefusal},
    DiagnosticDescriptor{AdvicePartitionExtractorHiveStyleMismatch,
                         "advice.partition-extractor.hive-style-mismatch", W, kNotARefusal},
    DiagnosticDescriptor{AdvicePartitionExtractorTimestampMultipart,
                         "advice.partition-extractor.timestamp-multipart", W, kNotARefusal},
    DiagnosticDescriptor{AdvicePartitionExtractorSinglePartWithManyFields,
                         "advice.partition-extractor.single-part-with-many-fields", W, kNotARefusal},
    DiagnosticDescriptor{AdviceSparkSpeculation, "advice.spark.speculation", W, kNotARefusal},
    DiagnosticDescriptor{AdviceTuningReadHostLocalDisk, "advice.tuning.read-host-local-disk", I,
                         kNotARefusal},
    DiagnosticDescriptor{AdviceTuningIoEncryption, "advice.tuning.io-encryption", I, kNotARefusal},
    DiagnosticDescriptor{AdviceTuningShuffleService, "advice.tuning.shuffle-service", I, kNotARefusal},
    DiagnosticDescriptor{AdviceTuningLocalityWait, "advice.tuning.locality-wait", I, kNotARefusal},
    DiagnosticDescriptor{AdviceTuningEnableToString, "advice.tuning.enable-to-string", I, kNotARefusal},
    DiagnosticDescriptor{AdviceTuningParallelism, "advice.tuning.parallelism", I, kNotARefusal},
    // The editor lists them with the validator's errors, but the service never answers with them: no rank.
    DiagnosticDescriptor{TextLine, "text.line", E, kNotARefusal},
    DiagnosticDescriptor{ServiceRefusal, "service.refusal", E, kNotARefusal},
};

// The validator's codes come first.
constexpr std::size_t kValidatorCodes = static_cast<std::size_t>(CatalogueLikelyTypo);

constexpr bool inEnumOrder() {
    for (std::size_t i = 0; i < kDescriptors.size(); ++i)
        if (static_cast<std::size_t>(kDescriptors[i].code) != i)
            return false;
    return true;
}
static_assert(inEnumOrder(), "descriptorOf() indexes the table by the enum");
static_assert(static_cast<std::size_t>(ServiceRefusal) + 1 == kDescriptors.size());

} // namespace

std::span<const DiagnosticDescriptor> diagnosticDescriptors() {
    return kDescriptors;
}

std::span<const DiagnosticDescriptor> validatorDescriptors() {
    return std::span(kDescriptors).first(kValidatorCodes);
}

const DiagnosticDescriptor& descriptorOf(DiagnosticCode code) {
    return kDescriptors[static_cast<std::size_t>(code)];
}

const DiagnosticDescriptor* findDiagnosticDescriptor(std::string_view name) {
    for (const DiagnosticDescriptor& d : kDescriptors)
        if (d.name == name)
            return &d;
    return nullptr;
}

bool hasCode(const Diagnostic& d, DiagnosticCode code) {
    return d.code == descriptorOf(code).name;
}

bool dependsOnProjectSettings(std::string_view name) {
    const DiagnosticDescriptor* d = findDiagnosticDescriptor(name);
    return d && d->dependsOnProject;
}

} // namespace jobdeck
