#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace jobdeck {

// A resource setting spark-submit checks before it starts anything (SparkSubmitArguments
// .validateSubmitArguments in Spark 3): given by its option or, when the option is not, by its --conf key.
struct SubmitResource final {
    std::string_view option;                     // "--executor-memory"
    std::string_view confKey;                    // "spark.executor.memory"
    std::string_view what;                       // "Executor memory", as spark-submit's message names it
    bool isSize = false;                         // a byte string ("512m", "4g"); else a whole number
    bool uncheckedWithDynamicAllocation = false; // not checked while spark.dynamicAllocation.enabled is true
};

class SubmitResources final {
public:
    static std::span<const SubmitResource> all();
    static const SubmitResource* ofOption(std::string_view option);
    static const SubmitResource* ofConfKey(std::string_view key);

    // Whether spark-submit accepts `value` for `resource`: a size is digits and an optional unit (b, k, kb,
    // m, mb, g, gb, t, tb, p, pb; any case, blanks around it allowed), a number is an int; either above 0.
    static bool accepts(const SubmitResource& resource, std::string_view value);
    // A value spark-submit accepts that says what `value` most likely meant ("4 g" and "4 GB" are "4g",
    // "1.5g" is "1536m", " 4" is "4"), or none.
    static std::optional<std::string> corrected(const SubmitResource& resource, std::string_view value);
};

} // namespace jobdeck
