#include "core/parameters/ParameterLineAnalysis.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/hudi/HudiConfigStatus.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/SecretMasking.h"
#include "core/policy/ClusterRules.h"
#include "core/text/AsciiText.h"

#include <algorithm>
#include <optional>

namespace jobdeck {

namespace {

using Style = ParameterSpanStyle;

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

// 1. Gathers the parameters of the lines that could be read, with their lines.
void collectParameters(const std::vector<ParameterLine>& lines, ParameterLineAnalysis& out) {
    out.parameters.clear();
    out.tokenLines.clear();
    out.lineTokens.assign(lines.size(), -1);
    for (std::size_t line = 0; line < lines.size(); ++line) {
        if (!lines[line].parameter)
            continue;
        out.lineTokens[line] = int(out.parameters.size());
        out.parameters.push_back(*lines[line].parameter);
        out.tokenLines.push_back(int(line));
    }
}

// A whole-list error that its per-parameter copy repeats word for word (one key not permitted, the
// feature off) would be listed twice, once without a line: the copy at its line carries it, with the
// whole-list fix added to its own. The dropped one is left with an empty code.
void showOnce(std::vector<Diagnostic>& found) {
    for (Diagnostic& whole : found) {
        if (whole.tokenIndex >= 0 || whole.severity != Severity::Error)
            continue;
        const DiagnosticDescriptor* wholeCode = findDiagnosticDescriptor(whole.code);
        if (!wholeCode)
            continue;
        const auto copy = std::find_if(found.begin(), found.end(), [&](const Diagnostic& d) {
            const DiagnosticDescriptor* part = d.tokenIndex >= 0 ? findDiagnosticDescriptor(d.code) : nullptr;
            return part && part->partOf == wholeCode->code && d.message == whole.message;
        });
        if (copy == found.end())
            continue;
        for (Fix& fix : whole.fixes)
            copy->fixes.push_back(std::move(fix));
        whole.code = {};
    }
}

// A service refusal that a local finding already gives is that finding: it is shown once, at its line.
bool givenLocally(const Diagnostic& refusal, const std::vector<Diagnostic>& found,
                  const ParameterLineContext& context) {
    return std::any_of(found.begin(), found.end(), [&](const Diagnostic& d) {
        return !d.code.empty() && d.severity == Severity::Error && d.message == refusal.message &&
               (context.settingsKnown || !dependsOnProjectSettings(d.code));
    });
}

// A finding's message and fix titles with the parameters' secret values as ****, as the service's refusal.
void scrubDiagnostics(const std::vector<std::string>& parameters,
                      const std::vector<SecretValueRange>& secrets, std::vector<Diagnostic>& diagnostics) {
    if (secrets.empty())
        return;
    std::vector<std::string> values;
    values.reserve(secrets.size());
    for (const SecretValueRange& r : secrets)
        values.push_back(parameters[r.parameter].substr(r.offset, r.length));
    values = mergeSecretValues(std::move(values), {}); // longest first, each once, as the service's list
    for (Diagnostic& d : diagnostics) {
        scrubSecrets(d.message, values);
        for (Fix& fix : d.fixes) {
            scrubSecrets(fix.title, values);
            scrubSecrets(fix.leadsTo, values);
        }
    }
}

// 2. Validates as the service will, and lists every finding with its line.
void collectDiagnostics(const std::vector<ParameterLine>& lines, const ParameterLineContext& context,
                        const std::vector<SecretValueRange>& secrets, ParameterLineAnalysis& out) {
    std::vector<Diagnostic> found = validateParameters(out.parameters, out.classified, context.validation);
    scrubDiagnostics(out.parameters, secrets, found);
    out.diagnostics.clear();
    out.diagnosticLines.clear();
    out.hasTextErrors = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].error)
            continue;
        out.hasTextErrors = true;
        const DiagnosticDescriptor& textLine = descriptorOf(DiagnosticCode::TextLine);
        out.diagnostics.push_back(Diagnostic{textLine.name, textLine.severity, *lines[i].error, -1, {}});
        out.diagnosticLines.push_back(int(i));
    }
    showOnce(found);
    if (context.serviceRefusal && !givenLocally(*context.serviceRefusal, found, context)) {
        out.diagnostics.push_back(*context.serviceRefusal);
        out.diagnosticLines.push_back(out.lineOfToken(context.serviceRefusal->tokenIndex));
    }
    for (Diagnostic& d : found) {
        if (d.code.empty())
            continue; // shown by its per-parameter copy
        if (!context.settingsKnown && dependsOnProjectSettings(d.code))
            continue;
        // A fix rewrites the whole list from the parameters read; with an unreadable line it would drop it.
        if (out.hasTextErrors)
            d.fixes.clear();
        out.diagnosticLines.push_back(d.tokenIndex >= 0 ? out.lineOfToken(d.tokenIndex) : -1);
        out.diagnostics.push_back(std::move(d));
    }
}

// Whether a --hudi-conf pair's key is drawn as not applied.
bool notApplied(const ParameterLineAnalysis& out, const ClassifiedToken& t,
                const ParameterLineContext& context) {
    if (!context.settingsKnown || t.equalsPos < 0)
        return false;
    const HudiConfigStatus status = HudiConfigPolicy::statusOf(
        rangeText(out.parameters[at(t.index)], t.keyRange), context.validation.settings);
    return status == HudiConfigStatus::NotAllowed || status == HudiConfigStatus::Reserved;
}

// Adds the spans of one parameter's line.
class LineSpanner final {
public:
    LineSpanner(const ParameterLine& line, int tokenLength, std::vector<ParameterSpan>& out)
        : m_line(line)
        , m_tokenLength(tokenLength)
        , m_out(out) {}

    void whole(Style s) { push(utf16(m_line.begin), utf16(m_line.end), s); }
    void range(TokenRange r, Style s) {
        if (r.first >= 0)
            push(inLine(r.first), inLine(r.second), s);
    }
    // The line's range of the parameter's bytes [from, to); nullopt when it is empty.
    std::optional<LineRange> lineRange(int from, int to) const {
        const int a = inLine(from);
        const int b = inLine(to);
        return b > a ? std::optional(LineRange{a, b - a}) : std::nullopt;
    }
    void pair(const ClassifiedToken& t, Style key, Style value) {
        range(t.nameRange, Style::OptionName);
        range(t.keyRange, key);
        if (t.equalsPos >= 0)
            push(inLine(t.equalsPos), inLine(t.equalsPos + 1), Style::PairSeparator);
        range(t.valueRange, value);
    }

private:
    int utf16(int byte) const {
        byte = std::clamp(byte, 0, int(m_line.text.size()));
        return m_line.utf16Offsets.empty() ? byte : m_line.utf16Offsets[at(byte)];
    }
    // Byte offset in the parameter -> UTF-16 offset in the line.
    int inLine(int offsetInToken) const {
        const int clamped = std::clamp(offsetInToken, 0, m_tokenLength);
        return utf16(m_line.quoted ? sourceOffsetInToken(m_line.text, ParameterTextForm::PerLine,
                                                         {m_line.begin, m_line.end}, clamped)
                                   : m_line.begin + clamped);
    }
    void push(int a, int b, Style s) {
        if (b > a)
            m_out.push_back(ParameterSpan{a, b - a, s});
    }

    const ParameterLine& m_line;
    int m_tokenLength;
    std::vector<ParameterSpan>& m_out;
};

void spanToken(const ClassifiedToken& t, LineSpanner& line, bool keyNotApplied) {
    switch (t.cls) {
    case TokenClass::Option:
    case TokenClass::MissingValue:
        if (t.valueRange.first >= 0 && t.nameRange.first >= 0) {
            line.range(t.nameRange, Style::OptionName);
            line.range(t.valueRange, Style::OptionValue);
        } else {
            line.whole(Style::OptionName);
        }
        break;
    case TokenClass::OptionValue:
        line.whole(Style::OptionValue);
        break;
    case TokenClass::ConfPair:
        line.pair(t, Style::ConfKey, Style::ConfValue);
        break;
    case TokenClass::HudiConfPair:
        line.pair(t, keyNotApplied ? Style::NotApplied : Style::HudiKey, Style::HudiValue);
        break;
    case TokenClass::RefusedOption:
        line.whole(Style::RefusedOption);
        break;
    case TokenClass::UnknownOption:
        line.whole(Style::UnknownOption);
        break;
    case TokenClass::ApplicationPath:
        line.whole(Style::ApplicationPath);
        break;
    case TokenClass::ApplicationArgument:
        line.whole(Style::ApplicationArgument);
        break;
    case TokenClass::MisplacedHudiConfFlag:
    case TokenClass::MisplacedHudiConfPair:
        line.whole(Style::MisplacedHudiConf);
        break;
    }
}

// 3. The spans of every line, and the gutter's mark: an error wins over a warning on the same line.
void collectSpans(const std::vector<ParameterLine>& lines, const ParameterLineContext& context,
                  const std::vector<SecretValueRange>& secrets, ParameterLineAnalysis& out) {
    out.spans.resize(lines.size());
    for (ParameterLineSpans& line : out.spans) {
        line.spans.clear();
        line.underlines.clear();
        line.secretValues.clear();
    }
    for (const ClassifiedToken& t : out.classified.tokens) {
        const int l = out.tokenLines[at(t.index)];
        LineSpanner spanner(lines[at(l)], int(out.parameters[at(t.index)].size()), out.spans[at(l)].spans);
        spanToken(t, spanner, t.cls == TokenClass::HudiConfPair && notApplied(out, t, context));
    }
    for (const SecretValueRange& secret : secrets) {
        const int l = out.tokenLines[secret.parameter];
        const LineSpanner spanner(lines[at(l)], int(out.parameters[secret.parameter].size()),
                                  out.spans[at(l)].spans);
        if (const auto range = spanner.lineRange(int(secret.offset), int(secret.offset + secret.length)))
            out.spans[at(l)].secretValues.push_back(*range);
    }
    out.lineSeverity.assign(lines.size(), -1);
    for (std::size_t i = 0; i < out.diagnostics.size(); ++i) {
        const int l = out.diagnosticLines[i];
        const Severity severity = out.diagnostics[i].severity;
        if (l < 0 || at(l) >= lines.size() || severity == Severity::Info)
            continue;
        int& mark = out.lineSeverity[at(l)];
        mark = mark < 0 ? int(severity) : std::min(mark, int(severity));
    }
    for (std::size_t l = 0; l < lines.size(); ++l)
        if (out.lineSeverity[l] >= 0)
            out.spans[l].underlines.push_back(
                ParameterSpan{0, lines[l].utf16Length,
                              out.lineSeverity[l] == int(Severity::Error) ? Style::Error : Style::Warning});
}

} // namespace

ParameterLine readParameterLine(std::string text, int utf16Length) {
    ParameterLine info;
    info.read = true;
    info.text = std::move(text);
    info.utf16Length = utf16Length;
    if (info.text.size() != static_cast<std::size_t>(utf16Length))
        info.utf16Offsets = utf16OffsetTable(info.text);
    if (info.text.find_first_not_of(" \t\r") == std::string::npos)
        return info;
    TextParameters read = parseParameterText(info.text, ParameterTextForm::PerLine);
    if (!read.ok() || read.parameters.size() != 1) {
        info.error = read.error.value_or("This line could not be read as one parameter");
        return info;
    }
    info.begin = read.ranges[0].first;
    info.end = read.ranges[0].second;
    info.quoted = info.text[static_cast<std::size_t>(info.begin)] == '"';
    info.parameter = std::move(read.parameters[0]);
    return info;
}

std::vector<LineRange> secretValuesOfPairLine(std::string_view line) {
    const auto pair = splitPairLine(line);
    if (!pair)
        return {};
    const auto valueStart = static_cast<std::size_t>(pair->value.data() - line.data());
    const std::vector<int> utf16 = utf16OffsetTable(line);
    std::vector<LineRange> ranges;
    for (const auto& [offset, length] : pairSecretRanges(std::string(pair->key), std::string(pair->value))) {
        const int start = utf16[valueStart + offset];
        ranges.push_back({start, utf16[valueStart + offset + length] - start});
    }
    return ranges;
}

void scrubSecretValues(const std::vector<std::string>& parameters, std::vector<Diagnostic>& diagnostics) {
    scrubDiagnostics(parameters, secretValueRanges(parameters), diagnostics);
}

int ParameterLineAnalysis::lineOfToken(int tokenIndex) const {
    return tokenIndex >= 0 && at(tokenIndex) < tokenLines.size() ? tokenLines[at(tokenIndex)] : -1;
}

void analyseParameterLines(const std::vector<ParameterLine>& lines, const ParameterLineContext& context,
                           ParameterLineAnalysis& into) {
    collectParameters(lines, into);
    into.classified =
        classifyTokens(into.parameters); // colours and checks read the parameters through ranges
    const std::vector<SecretValueRange> secrets = secretValueRanges(into.parameters);
    collectDiagnostics(lines, context, secrets, into);
    collectSpans(lines, context, secrets, into);
}

ParameterLineAnalysis analyseParameterLines(const std::vector<ParameterLine>& lines,
                                            const ParameterLineContext& context) {
    ParameterLineAnalysis analysis;
    analyseParameterLines(lines, context, analysis);
    return analysis;
}

} // namespace jobdeck
