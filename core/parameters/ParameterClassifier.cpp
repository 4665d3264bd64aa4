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

ClassifiedParameters classify(const std::vector<std::string>& params, bool full) {
    ClassifiedParameters out;
    out.tokens.reserve(params.size());
    if (full)
        reserveSettings(params, out);
    std::size_t i = 0;
    while (i < params.size()) {
        const std::string& tok = params[i];
        ClassifiedToken t;
        t.index = static_cast<int>(i);
        if (!tok.starts_with('-')) {
            t.cls = TokenClass::ApplicationPath;
            out.applicationPath = t.index;
            out.tokens.push_back(t);
            classifyArguments(params, i + 1, full, out);
            return out;
        }
        const auto split = SparkSubmitOptions::splitInline(tok);
        const SparkSubmitOption* opt = SparkSubmitOptions::find(split.option);
        const bool hoodieConf = split.option == SparkSubmitOptions::kHoodieConf;
        t.nameRange = {0, size(split.option)};
        if (!opt && !hoodieConf) {
            // spark-submit stops here ("Unrecognized option"); reading on as a switch keeps the rest useful.
            t.cls = TokenClass::UnknownOption;
            t.nameRange = {0, size(tok)};
            out.tokens.push_back(t);
            ++i;
            continue;
        }
        const bool allowed = opt && opt->policy == OptionPolicy::Allowed;
        const bool isConf = opt && opt->name == SparkSubmitOptions::kConf;
        const bool isHudiConf = opt && opt->name == SparkSubmitOptions::kHudiConf;
        t.cls = hoodieConf ? TokenClass::UnknownOption
                : allowed  ? TokenClass::Option
                           : TokenClass::RefusedOption;
        if (opt && !opt->takesValue) {
            if (split.value) // spark-submit ignores a value given to a switch
                t.valueRange = {size(split.option) + 1, size(tok)};
            out.tokens.push_back(t);
            ++i;
            continue;
        }
        // The value: inline after '=', or the next parameter whatever it is.
        ClassifiedToken value;
        const std::string* valueToken = &tok;
        int valueOffset = size(split.option) + 1;
        if (split.value) {
            value = t;
        } else if (i + 1 < params.size()) {
            out.tokens.push_back(t);
            ++i;
            value.index = static_cast<int>(i);
            value.optionIndex = t.index;
            valueToken = &params[i];
            valueOffset = 0;
        } else {
            if (t.cls == TokenClass::Option)
                t.cls = TokenClass::MissingValue;
            out.tokens.push_back(t);
            ++i;
            continue;
        }
        if (isConf || isHudiConf || hoodieConf) {
            splitPair(*valueToken, valueOffset, value);
            if (isConf || isHudiConf)
                value.cls = isConf ? TokenClass::ConfPair : TokenClass::HudiConfPair;
            else if (!split.value)
                value.cls = TokenClass::OptionValue;
            if (full && hasPair(value)) {
                if (isHudiConf)
                    out.hudiConfigs.push_back(settingOf(*valueToken, value));
                else if (isConf && std::string_view(*valueToken)
                                       .substr(static_cast<std::size_t>(value.keyRange.first))
                                       .starts_with("spark."))
                    out.sparkConfigs.push_back(settingOf(*valueToken, value));
            }
        } else {
            if (!split.value)
                value.cls = TokenClass::OptionValue;
            value.valueRange = {valueOffset, size(*valueToken)};
        }
        out.tokens.push_back(value);
        ++i;
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
