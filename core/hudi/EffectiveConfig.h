#pragma once

#include "core/hudi/HudiConfigSettings.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// Where a run's configuration value comes from, lowest precedence first (CONTRACT §3).
enum class Provenance { PlatformDefault, Cluster, Job, PlatformManaged };
const char* provenanceName(Provenance p); // "PLATFORM_DEFAULT", "CLUSTER", "JOB", "PLATFORM_MANAGED"

struct ResolvedValue final {
    std::string value;
    Provenance source = Provenance::PlatformDefault;
    bool operator==(const ResolvedValue&) const = default;
};

// A cluster or job configuration that the run does not get, and why.
struct DroppedConfig final {
    std::string system; // "spark" or "hudi": where it was given (--conf, --hudi-conf, or the cluster's WITH)
    std::string key;
    std::string value;
    Provenance source = Provenance::Job;
    std::string reason;
    bool operator==(const DroppedConfig&) const = default;
};

using ConfigPairs = std::vector<std::pair<std::string, std::string>>;

// The effective Spark and Hudi configuration of one run, each value with its provenance.
struct EffectiveConfig final {
    std::map<std::string, ResolvedValue> spark;
    std::map<std::string, ResolvedValue> hudi;
    std::vector<DroppedConfig> dropped;

    // Platform defaults < cluster WITH pairs (spark.* -> Spark, hoodie.* -> Hudi) < the Job's --conf spark.*
    // and APPLIED --hudi-conf pairs < platform-managed settings, which always win.
    static EffectiveConfig resolve(const ConfigPairs& clusterWith,
                                   const std::vector<std::string>& jobParameters,
                                   const HudiConfigSettings& settings, std::string_view jobRunId);

    static const ConfigPairs& platformDefaultSparkConfigs();
    static const ConfigPairs& platformDefaultHudiConfigs();
    // What the platform sets on every run's Spark configuration: the deploy mode and the run id, for the
    // driver (spark.onehouse.jobRunId) and the executors (spark.executorEnv.ONEHOUSE_JOB_RUN_ID).
    // spark.master and spark.remote are managed too (where the driver runs is the runner's choice), so
    // they are dropped from clusters and Jobs, but the platform sets no value for them.
    static ConfigPairs platformManagedSparkConfigs(std::string_view jobRunId);
    static bool isPlatformManagedSparkKey(std::string_view key);

    // The run's hudi-defaults.conf: one "key=value" line per Hudi config, sorted by key.
    std::string hudiDefaultsConf() const;
};

} // namespace jobdeck
