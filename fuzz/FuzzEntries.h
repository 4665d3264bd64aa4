#pragma once

// The checks behind the libFuzzer targets, header-only so the corpus test (tests/core/tst_fuzzcorpus)
// runs the very same code. Each returns an empty string when the input passes, else what went wrong.

#include "core/ParameterClassifier.h"
#include "core/ParameterTextForms.h"
#include "core/ParameterValidator.h"
#include "core/SparkJobListDecoder.h"
#include "core/StatementParser.h"
#include "core/StatementPrinter.h"

#include <memory>
#include <optional>
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

// The list and status decoders read any text as json::parse and from_json do: the same jobs, the same
// message for a job from_json refuses, and a parse_error for text that is not JSON.
inline std::string checkJobListDecoder(std::string_view input) {
    using nlohmann::json;
    const auto text = std::make_shared<const std::string>(input);
    // Text that is not JSON: a parse_error from both (the decoder words its position differently).
    std::vector<SparkJob> domJobs, decodedJobs;
    std::string domError, decodedError;
    try {
        domJobs = json::parse(*text).get<std::vector<SparkJob>>();
    } catch (const json::parse_error&) {
        domError = "parse_error";
    } catch (const json::exception& e) {
        domError = e.what();
    }
    try {
        decodedJobs = SparkJobListDecoder::decodeList(*text, text).jobs();
    } catch (const json::parse_error&) {
        decodedError = "parse_error";
    } catch (const json::exception& e) {
        decodedError = e.what();
    }
    if (decodedError != domError)
        return "decodeList says '" + decodedError + "' where from_json says '" + domError + "'";
    if (decodedJobs != domJobs)
        return "decodeList gives other jobs than from_json";

    std::optional<json> dom;
    std::string domParseError, statusParseError;
    try {
        dom = json::parse(*text);
    } catch (const json::parse_error&) {
        domParseError = "parse_error";
    }
    std::optional<SparkJobListDecoder::Status> status;
    try {
        status = SparkJobListDecoder::decodeStatus(*text, text);
    } catch (const json::parse_error&) {
        statusParseError = "parse_error";
    } catch (const json::exception&) {
        if (dom && dom->is_object())
            return "decodeStatus refused a JSON object";
    }
    if (statusParseError != domParseError)
        return "decodeStatus says '" + statusParseError + "' where json::parse says '" + domParseError + "'";
    if (!status || !status->jobs)
        return {};
    try {
        if (status->jobs->jobs() !=
            dom->at("apiResponse").at("showJobsApiResponse").at("sparkJobs").get<std::vector<SparkJob>>())
            return "decodeStatus gives other jobs than from_json";
    } catch (const json::exception& e) {
        return std::string("decodeStatus decoded jobs that from_json refuses: ") + e.what();
    }
    return {};
}

} // namespace jobdeck::fuzz
