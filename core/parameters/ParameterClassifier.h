#pragma once

#include "core/parameters/ConfigSetting.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// What one parameter is, read the way spark-submit reads it.
enum class TokenClass {
    Option,                // a known, accepted option (switch, or flag whose value follows / is inline)
    OptionValue,           // the value token of an option other than --conf / --hudi-conf
    ConfPair,              // the key=value of --conf / -c (its own token, or inline --conf=k=v)
    HudiConfPair,          // the key=value of --hudi-conf before the application path
    RefusedOption,         // a known spark-submit option a Job may not carry (--master, --help...)
    UnknownOption,         // starts with '-' before the path and is not an option (includes --hoodie-conf)
    MissingValue,          // an option that takes a value but is the last parameter
    ApplicationPath,       // the first parameter that is neither an option nor an option's value
    ApplicationArgument,   // after the path, passed to the application untouched
    MisplacedHudiConfFlag, // --hudi-conf after the path: an application argument
    MisplacedHudiConfPair, // the parameter after a misplaced --hudi-conf: an application argument
};
constexpr std::size_t kTokenClassCount = 11;
static_assert(static_cast<std::size_t>(TokenClass::MisplacedHudiConfPair) + 1 == kTokenClassCount);

const char* tokenClassName(TokenClass c);

// Byte ranges are [begin, end) offsets within the parameter itself; {-1, -1} when absent.
using TokenRange = std::pair<int, int>;

// The part of `parameter` that `range` covers; empty when the range is absent.
inline std::string_view rangeText(std::string_view parameter, TokenRange range) {
    if (range.first < 0)
        return {};
    return parameter.substr(static_cast<std::size_t>(range.first),
                            static_cast<std::size_t>(range.second - range.first));
}

struct ClassifiedToken final {
    int index = -1;
    TokenClass cls = TokenClass::ApplicationArgument;
    int optionIndex = -1; // OptionValue/ConfPair/HudiConfPair/MisplacedHudiConfPair: index of its flag
    TokenRange nameRange{-1, -1};  // option tokens: the option name ("--conf" in "--conf=k=v")
    TokenRange keyRange{-1, -1};   // pairs: the key
    int equalsPos = -1;            // pairs: the '=' splitting key and value (-1: there is none)
    TokenRange valueRange{-1, -1}; // pairs: the value; options with an inline or own value: the value
};

struct ClassifiedParameters final {
    std::vector<ClassifiedToken> tokens; // one per parameter, in order
    int applicationPath = -1;            // index, -1 when there is none
    std::vector<std::string> applicationArguments;
    std::vector<ConfigSetting> sparkConfigs;         // --conf pairs with a spark.* key, in order
    std::vector<ConfigSetting> hudiConfigs;          // --hudi-conf pairs with '=' before the path, in order
    std::vector<ConfigSetting> misplacedHudiConfigs; // --hudi-conf pairs after the path (app arguments)
};

// Reads the list left to right exactly as spark-submit does: an option that takes a value consumes the
// next parameter whatever it is (or its inline "=value"); the first parameter that is neither an option
// nor such a value is the application path and everything after it is an application argument.
// Two readings go beyond spark-submit, which would stop with an error: an unknown option is taken to be a
// switch, except --hoodie-conf, which is read like --hudi-conf (it consumes its pair) so the path found is
// the one the user meant.
ClassifiedParameters classifyParameters(const std::vector<std::string>& parameters);
// The same reading with only `tokens` and `applicationPath` filled in: no copies of the arguments or the
// settings, for callers that read them from the parameters through the token ranges.
ClassifiedParameters classifyTokens(const std::vector<std::string>& parameters);

} // namespace jobdeck
