#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// What a Job may do with a spark-submit option.
enum class OptionPolicy {
    Allowed,       // part of the job configuration
    PlatformOwned, // the platform sets it for every run (--master, --deploy-mode, --remote): refused
    NotForJobs,    // makes spark-submit do something other than submit the application (--help, --kill...)
};

struct SparkSubmitOption final {
    std::string_view name;  // "--conf"
    std::string_view alias; // "-c", or empty
    bool takesValue = false;
    OptionPolicy policy = OptionPolicy::Allowed;
};

// spark-submit's option table (SparkSubmitOptionParser: `opts` take a value, `switches` do not), plus
// Jobdeck's --hudi-conf.
class SparkSubmitOptions final {
public:
    static std::span<const SparkSubmitOption> all();
    // By name or alias; `token` is the option part only (see splitInline).
    static const SparkSubmitOption* find(std::string_view option);

    // spark-submit reads "--opt=value" as an option and its value (regex "(--[^=]+)=(.+)").
    struct Inline final {
        std::string_view option;
        std::optional<std::string_view> value;
    };
    static Inline splitInline(std::string_view token);
    // The option a parameter is, by its name (any form: "-c", "--conf", "--conf=k=v"), or empty when it
    // is no option of the table.
    static std::string_view nameOf(std::string_view token);

    // Known option names within a small edit distance of an unknown one, closest first.
    static std::vector<std::string> suggest(std::string_view unknown, std::size_t max = 3);

    static constexpr std::string_view kHudiConf = "--hudi-conf";
    static constexpr std::string_view kHoodieConf =
        "--hoodie-conf"; // Hudi Streamer's flag, not spark-submit's
    static constexpr std::string_view kConf = "--conf";
    static constexpr std::string_view kClass = "--class";
    static constexpr std::string_view kPyFiles = "--py-files";
    static constexpr std::string_view kPyFilesKey = "spark.submit.pyFiles"; // what --py-files sets
};

} // namespace jobdeck
