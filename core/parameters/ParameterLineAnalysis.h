#pragma once

#include "core/parameters/Diagnostic.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterValidator.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// What a parameter editor shows for its text, one parameter per line, computed without any widget: the
// parameters read, their classification, the diagnostics with their lines, and per line the spans to
// colour and underline. The editor keeps its lines as last read and applies the result.

// How a span of a line is drawn.
enum class ParameterSpanStyle {
    OptionName,
    OptionValue,
    ConfKey,
    ConfValue,
    HudiKey,
    HudiValue,
    PairSeparator,
    ApplicationPath,
    ApplicationArgument,
    MisplacedHudiConf, // --hudi-conf flag or pair after the path: passed to the application, not applied
    NotApplied,        // a --hudi-conf key the project will not apply (NOT_ALLOWED / RESERVED)
    RefusedOption,
    UnknownOption,
    Error,   // wave underline, red
    Warning, // wave underline, orange
    Count
};

struct ParameterSpan final {
    int start = 0; // UTF-16 offset within the line
    int length = 0;
    ParameterSpanStyle style = ParameterSpanStyle::OptionName;
    bool operator==(const ParameterSpan&) const = default;
};

// A range of a line: UTF-16 offsets.
struct LineRange final {
    int start = 0;
    int length = 0;
    bool operator==(const LineRange&) const = default;
};

struct ParameterLineSpans final {
    std::vector<ParameterSpan> spans;      // base colours, in order
    std::vector<ParameterSpan> underlines; // Error/Warning, drawn over the base colours
    // The secret values on the line, where maskParameters shows **** (core/parameters/SecretMasking.h):
    // an editor hides them while the line is not being edited. An empty value has no range.
    std::vector<LineRange> secretValues;
    bool stale = false; // edited since its spans were set: re-highlight it whatever they are
    bool operator==(const ParameterLineSpans&) const = default;
};

// A line as read with the core's per-line form.
struct ParameterLine final {
    bool read = false; // false: edited since, read it again
    std::string text;  // UTF-8
    int utf16Length = 0;
    std::vector<int> utf16Offsets;        // byte -> UTF-16 offset; empty when the line is ASCII
    std::optional<std::string> parameter; // nullopt for a blank or malformed line
    int begin = 0;                        // UTF-8 range of the literal within the line
    int end = 0;
    bool quoted = false;
    std::optional<std::string> error; // the text form's reason a line could not be read
};

// `utf16Length` is the line's length as the editor counts it.
ParameterLine readParameterLine(std::string text, int utf16Length);

struct ParameterLineContext final {
    ValidationContext validation;
    // False while the project's settings are not known: the findings that depend on them are left out
    // and no --hudi-conf key is drawn as not applied.
    bool settingsKnown = true;
    std::optional<Diagnostic> serviceRefusal; // shown on its parameter (tokenIndex), listed first
};

struct ParameterLineAnalysis final {
    std::vector<std::string> parameters;
    std::vector<int> tokenLines; // parameter index -> line
    std::vector<int> lineTokens; // line -> parameter index, -1 for a blank or unreadable line
    ClassifiedParameters classified;
    // The lines' text errors (DiagnosticCode::TextLine), the service refusal, then the validator's findings.
    std::vector<Diagnostic> diagnostics;
    std::vector<int> diagnosticLines; // -1: about the whole list
    std::vector<ParameterLineSpans> spans;
    std::vector<int> lineSeverity; // per line: -1 none, else the most severe Severity underlined there
    bool hasTextErrors = false;    // then no fix is offered: it would drop the unreadable lines

    int lineOfToken(int tokenIndex) const;
};

// The secret values of one line of a pair list (a cluster's WITH defaults, read by splitPairLine), where
// maskPairs shows ****; UTF-16 ranges of the line.
std::vector<LineRange> secretValuesOfPairLine(std::string_view line);

// A finding quoting a parameter shows its secret values as ****, in its message and its fixes' titles,
// as the service's refusal does (it scrubs the statement's secret values from its message): the console
// says what the service will say. analyseParameterLines does it to the diagnostics it lists.
void scrubSecretValues(const std::vector<std::string>& parameters, std::vector<Diagnostic>& diagnostics);

// Every line must be read. `into` keeps its buffers, so re-analysing after a keystroke allocates little.
void analyseParameterLines(const std::vector<ParameterLine>& lines, const ParameterLineContext& context,
                           ParameterLineAnalysis& into);
ParameterLineAnalysis analyseParameterLines(const std::vector<ParameterLine>& lines,
                                            const ParameterLineContext& context);

} // namespace jobdeck
