#include "core/parameters/ParameterClassifier.h"

#include "core/parameters/SparkSubmitOptions.h"

namespace jobdeck {

namespace {

int size(std::string_view s) {
    return static_cast<int>(s.size());
}

// Key/value split at the first '=' of token[offset..]: a key is everything before it.
void splitPair(const std::string& token, int offset, ClassifiedToken& out) {
    const std::size_t eq = token.find('=', static_cast<std::size_t>(offset));
    if (eq == std::string::npos) {
        out.keyRange = {offset, size(token)};
        return;
    }
    out.keyRange = {offset, static_cast<int>(eq)};
    out.equalsPos = static_cast<int>(eq);
    out.valueRange = {static_cast<int>(eq) + 1, size(token)};
}

bool hasPair(const ClassifiedToken& t) {
    return t.equalsPos >= 0;
}

ConfigSetting settingOf(const std::string& token, const ClassifiedToken& t) {
    return {std::string(rangeText(token, t.keyRange)), std::string(rangeText(token, t.valueRange)), t.index};
}

void classifyArguments(const std::vector<std::string>& params, std::size_t from, bool full,
                       ClassifiedParameters& out) {
    if (full)
        out.applicationArguments.assign(params.begin() + static_cast<std::ptrdiff_t>(from), params.end());
    for (std::size_t i = from; i < params.size(); ++i) {
        const std::string& tok = params[i];
        ClassifiedToken t;
        t.index = static_cast<int>(i);
        if (tok == SparkSubmitOptions::kHudiConf) {
            t.cls = TokenClass::MisplacedHudiConfFlag;
            t.nameRange = {0, size(tok)};
            out.tokens.push_back(t);
            if (i + 1 < params.size()) {
                ++i;
                ClassifiedToken pair;
                pair.index = static_cast<int>(i);
                pair.cls = TokenClass::MisplacedHudiConfPair;
                pair.optionIndex = t.index;
                splitPair(params[i], 0, pair);
                if (full && hasPair(pair))
                    out.misplacedHudiConfigs.push_back(settingOf(params[i], pair));
                out.tokens.push_back(pair);
            }
            continue;
        }
        const auto split = SparkSubmitOptions::splitInline(tok);
        if (split.value && split.option == SparkSubmitOptions::kHudiConf) {
            t.cls = TokenClass::MisplacedHudiConfPair;
            t.nameRange = {0, size(split.option)};
            splitPair(tok, size(split.option) + 1, t);
            if (full && hasPair(t))
                out.misplacedHudiConfigs.push_back(settingOf(tok, t));
        } else {
            t.cls = TokenClass::ApplicationArgument;
        }
        out.tokens.push_back(t);
    }
}

} // namespace

const char* tokenClassName(TokenClass c) {
    switch (c) {
    case TokenClass::Option:
        return "Option";
    case TokenClass::OptionValue:
        return "OptionValue";
    case TokenClass::ConfPair:
        return "ConfPair";
    case TokenClass::HudiConfPair:
        return "HudiConfPair";
    case TokenClass::RefusedOption:
        return "RefusedOption";
    case TokenClass::UnknownOption:
        return "UnknownOption";
    case TokenClass::MissingValue:
        return "MissingValue";
    case TokenClass::ApplicationPath:
        return "ApplicationPath";
    case TokenClass::ApplicationArgument:
        return "ApplicationArgument";
    case TokenClass::MisplacedHudiConfFlag:
        return "MisplacedHudiConfFlag";
    case TokenClass::MisplacedHudiConfPair:
        return "MisplacedHudiConfPair";
    }
    return "ApplicationArgument";
}

namespace {

// `full`: also copy out the application arguments and the settings (classifyParameters()).
// How many settings of each kind the list can hold at most (flags, or inline pairs), so the lists of a
// long job are allocated once.
void reserveSettings(const std::vector<std::string>& params, ClassifiedParameters& out) {
    std::size_t spark = 0, hudi = 0;
    for (const std::string& p : params) {
        if (!p.starts_with('-'))
            continue;
        const std::string_view option = SparkSubmitOptions::nameOf(p);
        if (option == SparkSubmitOptions::kHudiConf)
            ++hudi;
        else if (option == SparkSubmitOptions::kConf)
            ++spark;
    }
    out.sparkConfigs.reserve(spark);
    out.hudiConfigs.reserve(hudi);
}

// Which key=value option a token is: its value is a configuration pair.
enum class PairOption { None, Conf, HudiConf, HoodieConf };

// The value token of the option `t` (its inline "=value", or the next parameter whatever it is).
void classifyValue(const std::string& valueToken, int valueOffset, bool inlineValue, PairOption pair,
                   bool full, ClassifiedToken& value, ClassifiedParameters& out) {
    if (pair == PairOption::None) {
        if (!inlineValue)
            value.cls = TokenClass::OptionValue;
        value.valueRange = {valueOffset, size(valueToken)};
        return;
    }
    splitPair(valueToken, valueOffset, value);
    if (pair == PairOption::Conf)
        value.cls = TokenClass::ConfPair;
    else if (pair == PairOption::HudiConf)
        value.cls = TokenClass::HudiConfPair;
    else if (!inlineValue)
        value.cls = TokenClass::OptionValue;
    if (!full || !hasPair(value))
        return;
    if (pair == PairOption::HudiConf)
        out.hudiConfigs.push_back(settingOf(valueToken, value));
    else if (pair == PairOption::Conf && std::string_view(valueToken)
                                             .substr(static_cast<std::size_t>(value.keyRange.first))
                                             .starts_with("spark."))
        out.sparkConfigs.push_back(settingOf(valueToken, value));
}

// The option at params[i] and its value, if it takes one; returns the index of the next parameter.
std::size_t classifyOption(const std::vector<std::string>& params, std::size_t i, bool full,
                           ClassifiedParameters& out) {
    const std::string& tok = params[i];
    ClassifiedToken t;
    t.index = static_cast<int>(i);
    const auto split = SparkSubmitOptions::splitInline(tok);
    const SparkSubmitOption* opt = SparkSubmitOptions::find(split.option);
    const bool hoodieConf = split.option == SparkSubmitOptions::kHoodieConf;
    t.nameRange = {0, size(split.option)};
    if (!opt && !hoodieConf) {
        // spark-submit stops here ("Unrecognized option"); reading on as a switch keeps the rest useful.
        t.cls = TokenClass::UnknownOption;
        t.nameRange = {0, size(tok)};
        out.tokens.push_back(t);
        return i + 1;
    }
    const bool allowed = opt && opt->policy == OptionPolicy::Allowed;
    t.cls = hoodieConf ? TokenClass::UnknownOption : allowed ? TokenClass::Option : TokenClass::RefusedOption;
    if (opt && !opt->takesValue) {
        if (split.value) // spark-submit ignores a value given to a switch
            t.valueRange = {size(split.option) + 1, size(tok)};
        out.tokens.push_back(t);
        return i + 1;
    }
    const PairOption pair = hoodieConf                                   ? PairOption::HoodieConf
                            : opt->name == SparkSubmitOptions::kConf     ? PairOption::Conf
                            : opt->name == SparkSubmitOptions::kHudiConf ? PairOption::HudiConf
                                                                         : PairOption::None;
    if (split.value) {
        ClassifiedToken value = t;
        classifyValue(tok, size(split.option) + 1, true, pair, full, value, out);
        out.tokens.push_back(value);
        return i + 1;
    }
    if (i + 1 >= params.size()) {
        if (t.cls == TokenClass::Option)
            t.cls = TokenClass::MissingValue;
        out.tokens.push_back(t);
        return i + 1;
    }
    out.tokens.push_back(t);
    ClassifiedToken value;
    value.index = static_cast<int>(i + 1);
    value.optionIndex = t.index;
    classifyValue(params[i + 1], 0, false, pair, full, value, out);
    out.tokens.push_back(value);
    return i + 2;
}

ClassifiedParameters classify(const std::vector<std::string>& params, bool full) {
    ClassifiedParameters out;
    out.tokens.reserve(params.size());
    if (full)
        reserveSettings(params, out);
    std::size_t i = 0;
    while (i < params.size()) {
        if (params[i].starts_with('-')) {
            i = classifyOption(params, i, full, out);
            continue;
        }
        ClassifiedToken path;
        path.index = static_cast<int>(i);
        path.cls = TokenClass::ApplicationPath;
        out.applicationPath = path.index;
        out.tokens.push_back(path);
        classifyArguments(params, i + 1, full, out);
        break;
    }
    return out;
}

} // namespace

ClassifiedParameters classifyParameters(const std::vector<std::string>& params) {
    return classify(params, true);
}

ClassifiedParameters classifyTokens(const std::vector<std::string>& params) {
    return classify(params, false);
}

} // namespace jobdeck
