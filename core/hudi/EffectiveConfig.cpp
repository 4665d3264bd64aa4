#include "core/hudi/EffectiveConfig.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/text/AsciiText.h"

#include <array>

namespace jobdeck {

namespace {

constexpr std::array<std::string_view, 5> kManagedSparkKeys{"spark.master", "spark.submit.deployMode",
                                                            "spark.remote", "spark.onehouse.jobRunId",
                                                            "spark.executorEnv.ONEHOUSE_JOB_RUN_ID"};

std::string hudiDropReason(HudiConfigStatus status, const HudiConfigSettings& settings) {
    return std::string(hudiConfigStatusClause(status, settings));
}

// hudi-defaults.conf is read line by line with key and value trimmed: a line break would inject another
// line (another key), padding would be lost.
bool breaksPropertiesFile(std::string_view key, std::string_view value) {
    const auto padded = [](std::string_view v) {
        return !v.empty() && (isAsciiSpace(v.front()) || isAsciiSpace(v.back()));
    };
    return key.find_first_of("\r\n") != std::string_view::npos ||
           value.find_first_of("\r\n") != std::string_view::npos || padded(key) || padded(value);
}

constexpr const char* kBreaksFile =
    "contains a line break or leading/trailing whitespace, which would not survive the run's properties file";

} // namespace

const char* provenanceName(Provenance p) {
    switch (p) {
    case Provenance::PlatformDefault:
        return "PLATFORM_DEFAULT";
    case Provenance::Cluster:
        return "CLUSTER";
    case Provenance::Job:
        return "JOB";
    case Provenance::PlatformManaged:
        return "PLATFORM_MANAGED";
    }
    return "PLATFORM_DEFAULT";
}

const ConfigPairs& EffectiveConfig::platformDefaultSparkConfigs() {
    // What Hudi's quick start asks every Spark session writing Hudi tables to set.
    static const ConfigPairs table{
        {"spark.serializer", "org.apache.spark.serializer.KryoSerializer"},
        {"spark.kryo.registrator", "org.apache.spark.HoodieSparkKryoRegistrar"},
        {"spark.sql.extensions", "org.apache.spark.sql.hudi.HoodieSparkSessionExtension"},
        {"spark.sql.catalog.spark_catalog", "org.apache.spark.sql.hudi.catalog.HoodieCatalog"},
    };
    return table;
}

const ConfigPairs& EffectiveConfig::platformDefaultHudiConfigs() {
    // Catalog sync (Glue, Hive metastore) expects partition folders named key=value.
    static const ConfigPairs table{
        {"hoodie.datasource.write.hive_style_partitioning", "true"},
    };
    return table;
}

ConfigPairs EffectiveConfig::platformManagedSparkConfigs(std::string_view jobRunId) {
    // The run id reaches the driver (the configuration; the environment variable is the launcher's) and
    // the executors (their environment), as seed 001 says.
    return {{"spark.submit.deployMode", "client"},
            {"spark.onehouse.jobRunId", std::string(jobRunId)},
            {"spark.executorEnv.ONEHOUSE_JOB_RUN_ID", std::string(jobRunId)}};
}

bool EffectiveConfig::isPlatformManagedSparkKey(std::string_view key) {
    for (const auto k : kManagedSparkKeys)
        if (k == key)
            return true;
    return false;
}

EffectiveConfig EffectiveConfig::resolve(const ConfigPairs& clusterWith,
                                         const std::vector<std::string>& jobParameters,
                                         const HudiConfigSettings& settings, std::string_view jobRunId) {
    EffectiveConfig out;
    for (const auto& [k, v] : platformDefaultSparkConfigs())
        out.spark[k] = {v, Provenance::PlatformDefault};
    for (const auto& [k, v] : platformDefaultHudiConfigs())
        out.hudi[k] = {v, Provenance::PlatformDefault};

    const auto drop = [&out](std::string system, const std::string& k, const std::string& v, Provenance from,
                             std::string reason) {
        out.dropped.push_back({std::move(system), k, v, from, std::move(reason)});
    };

    for (const auto& [k, v] : clusterWith) {
        if (k.starts_with("spark.")) {
            if (isPlatformManagedSparkKey(k))
                drop("spark", k, v, Provenance::Cluster, "the platform sets it for every run");
            else
                out.spark[k] = {v, Provenance::Cluster};
        } else if (HudiConfigPolicy::isHudiKey(k)) {
            if (breaksPropertiesFile(k, v))
                drop("hudi", k, v, Provenance::Cluster, kBreaksFile);
            else if (HudiConfigPolicy::isReserved(k))
                drop("hudi", k, v, Provenance::Cluster, hudiDropReason(HudiConfigStatus::Reserved, settings));
            else if (HudiConfigPolicy::platformManagedValue(k))
                drop("hudi", k, v, Provenance::Cluster,
                     hudiDropReason(HudiConfigStatus::OverriddenByPlatform, settings));
            else
                out.hudi[k] = {v, Provenance::Cluster};
        } else {
            drop("spark", k, v, Provenance::Cluster, "neither a spark.* nor a hoodie.* key");
        }
    }

    const ClassifiedParameters c = classifyParameters(jobParameters);
    for (const ClassifiedToken& t : c.tokens) {
        // --conf pairs that are not sparkConfigs: say why they do nothing.
        if (t.cls != TokenClass::ConfPair || t.equalsPos < 0)
            continue;
        const std::string& tok = jobParameters[static_cast<std::size_t>(t.index)];
        const std::string key(rangeText(tok, t.keyRange));
        const std::string value(rangeText(tok, t.valueRange));
        if (HudiConfigPolicy::isHudiKey(key))
            drop("spark", key, value, Provenance::Job,
                 "a hoodie.* key in --conf is ignored: use --hudi-conf");
        else if (!key.starts_with("spark."))
            drop("spark", key, value, Provenance::Job, "not a spark.* key: spark-submit ignores it");
    }
    for (const ConfigSetting& s : c.sparkConfigs) {
        if (isPlatformManagedSparkKey(s.key))
            drop("spark", s.key, s.value, Provenance::Job, "the platform sets it for every run");
        else
            out.spark[s.key] = {s.value, Provenance::Job};
    }
    for (const ConfigSetting& s : c.hudiConfigs) {
        const HudiConfigStatus status = HudiConfigPolicy::statusOf(s.key, settings);
        if (breaksPropertiesFile(s.key, s.value))
            drop("hudi", s.key, s.value, Provenance::Job, kBreaksFile);
        else if (status == HudiConfigStatus::Applied)
            out.hudi[s.key] = {s.value, Provenance::Job};
        else
            drop("hudi", s.key, s.value, Provenance::Job, hudiDropReason(status, settings));
    }

    for (const auto& [k, v] : platformManagedSparkConfigs(jobRunId))
        out.spark[k] = {v, Provenance::PlatformManaged};
    for (const auto& [k, v] : HudiConfigPolicy::platformManagedHudiConfigs())
        out.hudi[k] = {v, Provenance::PlatformManaged};
    return out;
}

std::string EffectiveConfig::hudiDefaultsConf() const {
    std::string out;
    for (const auto& [k, v] : hudi)
        out += k + "=" + v.value + "\n";
    return out;
}

} // namespace jobdeck
