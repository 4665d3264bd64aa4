#include "core/wire/SparkJob.h"

#include "core/text/AsciiText.h"
#include "core/text/Concat.h"
#include "core/wire/WireFields.h"

#include <utility>

namespace jobdeck {

std::string_view jobTypeName(JobType t) {
    switch (t) {
    case JobType::Jar:
        return "JAR";
    case JobType::Python:
        return "PYTHON";
    }
    return "JAR";
}

std::optional<JobType> jobTypeFromName(std::string_view name) {
    for (auto t : {JobType::Jar, JobType::Python})
        if (jobTypeName(t) == name)
            return t;
    return std::nullopt;
}

JobType jobTypeFromWire(const std::string& name, std::string_view object, std::string_view field) {
    const auto t = jobTypeFromName(name);
    if (!t)
        wire::throwUnknownValue(object, field, name, "JAR or PYTHON");
    return *t;
}

void to_json(nlohmann::json& j, const SparkJob& job) {
    nlohmann::json status = nlohmann::json::object();
    for (const auto& [key, s] : job.hudiConfigsStatus)
        status[key] = hudiConfigStatusName(s);
    j = nlohmann::json{
        {"jobId", job.jobId},
        {"name", job.name},
        {"type", jobTypeName(job.type)},
        {"cluster", job.cluster},
        {"parameters", job.parameters},
        {"applicationPath", job.applicationPath},
        {"arguments", job.arguments},
        {"sparkConfigs", job.sparkConfigs},
        {"hudiConfigs", job.hudiConfigs},
        {"maxConcurrentRuns", job.maxConcurrentRuns},
        {"activeRuns", job.activeRuns},
        {"createdAt", formatTimestamp(job.createdAt)},
        {"updatedAt", formatTimestamp(job.updatedAt)},
        {"hudiConfigsStatus", std::move(status)},
        {"misplacedHudiConfigs", job.misplacedHudiConfigs},
    };
    if (!job.hudiConfigsStatusReasons.empty())
        j["hudiConfigsStatusReasons"] = job.hudiConfigsStatusReasons;
}

void from_json(const nlohmann::json& j, SparkJob& job) {
    constexpr std::string_view object = "sparkJob";
    using StringMap = std::map<std::string, std::string>;
    using Strings = std::vector<std::string>;
    wire::requireObject(j, object);
    SparkJob r;
    r.jobId = wire::required<std::string>(j, object, "jobId");
    r.name = wire::required<std::string>(j, object, "name");
    r.type = jobTypeFromWire(wire::required<std::string>(j, object, "type"), object, "type");
    r.cluster = wire::required<std::string>(j, object, "cluster");
    r.parameters = wire::required<Strings>(j, object, "parameters");
    r.applicationPath = wire::optional<std::string>(j, object, "applicationPath").value_or("");
    r.arguments = wire::optional<Strings>(j, object, "arguments").value_or(Strings{});
    r.sparkConfigs = wire::optional<StringMap>(j, object, "sparkConfigs").value_or(StringMap{});
    r.hudiConfigs = wire::optional<StringMap>(j, object, "hudiConfigs").value_or(StringMap{});
    r.maxConcurrentRuns = wire::optional<int>(j, object, "maxConcurrentRuns").value_or(1);
    r.activeRuns = wire::optional<int>(j, object, "activeRuns").value_or(0);
    r.createdAt = wire::required<TimePoint>(j, object, "createdAt");
    r.updatedAt = wire::required<TimePoint>(j, object, "updatedAt");
    for (const auto& [key, name] :
         wire::optional<StringMap>(j, object, "hudiConfigsStatus").value_or(StringMap{})) {
        const auto s = hudiConfigStatusFromName(name);
        if (!s)
            wire::throwInvalid(
                object, "hudiConfigsStatus",
                concat({"has an unknown value ", quoted(name), " for ", quoted(key),
                        " (expected APPLIED, NOT_ALLOWED, RESERVED or OVERRIDDEN_BY_PLATFORM)"}));
        r.hudiConfigsStatus.emplace(key, *s);
    }
    r.hudiConfigsStatusReasons =
        wire::optional<StringMap>(j, object, "hudiConfigsStatusReasons").value_or(StringMap{});
    r.misplacedHudiConfigs = wire::optional<Strings>(j, object, "misplacedHudiConfigs").value_or(Strings{});
    job = std::move(r);
}

} // namespace jobdeck
