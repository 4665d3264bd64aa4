#pragma once

// The checks behind the libFuzzer targets, header-only so the corpus test (tests/core/tst_fuzzcorpus)
// runs the very same code. Each returns an empty string when the input passes, else what went wrong.

#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/ParameterValidator.h"
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck::fuzz {

// A parsed statement must print to text that parses back to the same statement.
inline std::string checkStatementParser(std::string_view input) {
    const ParseResult result = parseStatement(input);
    if (result.statement.has_value() == result.error.has_value())
        return "parseStatement must give exactly one of a statement or an error";
    if (result.error && (result.error->line < 1 || result.error->column < 1 || result.error->message.empty()))
        return "parse error without a position or message";
    if (!result.statement)
        return {};
    const std::string printed = printStatement(*result.statement);
    const ParseResult again = parseStatement(printed);
    if (!again.statement)
        return "printed statement does not parse: <" + printed + "> " +
               (again.error ? again.error->message : std::string());
    if (!(*again.statement == *result.statement))
        return "printed statement parses to a different statement: <" + printed + ">";
    return {};
}

inline std::vector<std::string> splitParameters(std::string_view input) {
    std::vector<std::string> params;
    std::string current;
    for (const char c : input) {
        if (c == '\n' || c == '\0') {
            params.push_back(std::move(current));
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty() || !params.empty())
        params.push_back(std::move(current));
    return params;
}

// Classification and validation must cope with any parameters, and every text form must carry them
// unchanged; the raw input read as each form must parse or fail with an offset inside the text.
inline std::string checkParameterPipeline(std::string_view input) {
    const std::vector<std::string> params = splitParameters(input);
    const ClassifiedParameters classified = classifyParameters(params);
    if (classified.tokens.size() != params.size())
        return "classifyParameters gave " + std::to_string(classified.tokens.size()) + " tokens for " +
               std::to_string(params.size()) + " parameters";
    if (classified.applicationPath < -1 || classified.applicationPath >= int(params.size()))
        return "application path index out of range";
    validateParameters(params, ValidationContext{});

    for (const auto form : {ParameterTextForm::JsonArray, ParameterTextForm::StatementTuple,
                            ParameterTextForm::PerLine, ParameterTextForm::ShellCommand}) {
        const std::string name = parameterTextFormName(form);
        const std::string text = formatParameterText(params, form);
        const TextParameters back = parseParameterText(text, form);
        if (!back.ok())
            return name + ": formatted parameters do not parse: " + *back.error;
        if (back.parameters != params)
            return name + ": formatted parameters parse to different parameters";

        const TextParameters any = parseParameterText(input, form);
        if (any.parameters.size() != any.ranges.size())
            return name + ": parameters and ranges differ in number";
        if (!any.ok() && (any.errorOffset < 0 || any.errorOffset > int(input.size())))
            return name + ": error offset outside the text";
        for (const auto& [begin, end] : any.ranges)
            if (begin < 0 || begin > end || end > int(input.size()))
                return name + ": parameter range outside the text";
    }
    return {};
}

} // namespace jobdeck::fuzz
