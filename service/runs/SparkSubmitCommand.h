#pragma once

#include "core/hudi/EffectiveConfig.h"
#include "core/wire/SparkJob.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// What a driver command is made of; every value is already effective for the run.
struct DriverCommandInput final {
    JobType type = JobType::Jar;
    std::vector<std::string> jobConfiguration; // the Job's parameters before the application path
    std::string applicationFile;               // resolved to a local file
    std::vector<std::string> arguments;        // effective application arguments (overrides applied)
    std::string runId;
    // Platform default Spark configs with the cluster's spark.* values over them.
    std::map<std::string, std::string> defaultSparkConfigs;
    ConfigPairs managedSparkConfigs; // platform-managed: always win (the run id among them or not)
    ConfigPairs hudiConfigs;         // the run's effective Hudi configs (hudi-defaults.conf), sorted
};

// Builds driver command lines.
//  - spark-submit: the job configuration options in order, except --hudi-conf pairs (they go to the
//    run's hudi-defaults.conf) and --conf/-c pairs (re-emitted below); then
//    `--conf spark.onehouse.jobRunId=<id>` and the other platform-managed configs; then the Spark
//    configs, defaults (platform, then cluster) first and the job's values after them (spark-submit
//    keeps the last --conf of a key, so the job wins; a default the job also sets is left out); a
//    managed key given by the cluster or the job is dropped; then the application file and arguments.
//  - local runner (no Spark installed): JAR -> `java -D<key>=<value>... -cp <jar> <--class value> <args>`
//    (or `java -D... -jar <jar> <args>` without --class), the Spark configs as system properties (a
//    SparkConf reads spark.* ones); PYTHON -> `python3 <script> <args>` with the Spark configs in
//    PYSPARK_SUBMIT_ARGS (localEnvironment), which PySpark hands to the spark-submit it starts.
class SparkSubmitCommand final {
public:
    static std::vector<std::string> sparkSubmit(const std::string& sparkSubmitPath,
                                                const DriverCommandInput& in);
    static std::vector<std::string> local(const DriverCommandInput& in);

    // Cluster deploy mode: `spark-submit --master <master> --deploy-mode cluster`, then what
    // sparkSubmit() passes with spark.submit.deployMode=cluster, then clusterExtraConfigs(), then the
    // application file and arguments.
    static std::vector<std::string> clusterSubmit(const std::string& sparkSubmitPath,
                                                  const std::string& master, const DriverCommandInput& in);
    // What only cluster mode adds, after the job's own configs so that they win: the run id in the
    // driver's environment where the cluster manager has a setting for it (Kubernetes, YARN), on
    // Kubernetes a submission that returns at once, and each Hudi config as spark.hadoop.<key>, since
    // the run's hudi-defaults.conf is not on the driver's host.
    static ConfigPairs clusterExtraConfigs(const std::string& master, const DriverCommandInput& in);
    static std::vector<std::string> clusterStatus(const std::string& sparkSubmitPath,
                                                  const std::string& master, const std::string& submissionId);
    static std::vector<std::string> clusterKill(const std::string& sparkSubmitPath, const std::string& master,
                                                const std::string& submissionId);
    // Environment the local runner's driver needs on top of the run's own (run id, HUDI_CONF_DIR).
    static std::vector<std::pair<std::string, std::string>> localEnvironment(const DriverCommandInput& in);

    // Every Spark configuration of the run, in the order the runners pass them: the run id, the other
    // platform-managed configs, the defaults the job does not set, then the job's own.
    static ConfigPairs sparkConfigs(const DriverCommandInput& in);

    // The job's spark.* configurations from its --conf/-c options, in order (hoodie.* and other
    // keys there are ignored, as CONTRACT §3 says).
    static std::vector<std::pair<std::string, std::string>>
    jobSparkConfigs(const std::vector<std::string>& jobConfiguration);
    // The value of --class (either form), empty when absent.
    static std::string mainClass(const std::vector<std::string>& jobConfiguration);
    // The job configuration without its --conf/-c/--hudi-conf pairs.
    static std::vector<std::string> plainOptions(const std::vector<std::string>& jobConfiguration);

    // The job configuration's part before the application path: parameters minus the path and
    // the arguments that follow it.
    static std::vector<std::string> jobConfigurationOf(const SparkJob& job);
};

} // namespace jobdeck
