#include "core/parameters/ParameterTextForms.h"

#include "core/parameters/SparkSubmitOptions.h"
#include "core/text/Utf8.h"

#include <cstdint>

namespace jobdeck {

namespace {

// Each lexer reads one literal starting at `pos` and leaves `pos` just after it. When `map` is given it
// receives, for every decoded byte, the source offset it came from, plus one entry for the end.
struct Lexed {
    std::string value;
    std::optional<std::string> error;
    int errorOffset = -1;
};

Lexed fail(std::string message, std::size_t offset) {
    Lexed l;
    l.error = std::move(message);
    l.errorOffset = static_cast<int>(offset);
    return l;
}

std::optional<std::uint32_t> hex4(std::string_view text, std::size_t pos) {
    if (pos + 4 > text.size())
        return std::nullopt;
    std::uint32_t v = 0;
    for (std::size_t i = pos; i < pos + 4; ++i) {
        const char c = text[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= static_cast<std::uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= static_cast<std::uint32_t>(c - 'A' + 10);
        else
            return std::nullopt;
    }
    return v;
}

// Every byte decoded since the last call came from the literal character at `src`.
void record(std::vector<int>* map, const std::string& out, std::size_t src) {
    if (map)
        while (map->size() < out.size())
            map->push_back(static_cast<int>(src));
}

// A JSON string literal; text[pos] is the opening quote.
Lexed lexJsonString(std::string_view text, std::size_t& pos, std::vector<int>* map) {
    const std::size_t open = pos;
    Lexed l;
    ++pos;
    while (pos < text.size()) {
        const char c = text[pos];
        const std::size_t src = pos;
        if (c == '"') {
            if (map)
                map->push_back(static_cast<int>(pos));
            ++pos;
            return l;
        }
        if (static_cast<unsigned char>(c) < 0x20)
            return fail("Line break or control character inside a JSON string: write it as an escape "
                        "such as \\n",
                        pos);
        if (c != '\\') {
            l.value += c;
            ++pos;
            record(map, l.value, src);
            continue;
        }
        if (pos + 1 >= text.size())
            break;
        const char e = text[pos + 1];
        switch (e) {
        case '"':
            l.value += '"';
            break;
        case '\\':
            l.value += '\\';
            break;
        case '/':
            l.value += '/';
            break;
        case 'b':
            l.value += '\b';
            break;
        case 'f':
            l.value += '\f';
            break;
        case 'n':
            l.value += '\n';
            break;
        case 'r':
            l.value += '\r';
            break;
        case 't':
            l.value += '\t';
            break;
        case 'u': {
            auto cp = hex4(text, pos + 2);
            if (!cp)
                return fail("\\u must be followed by four hexadecimal digits", pos);
            std::size_t consumed = 6;
            if (*cp >= 0xD800 && *cp <= 0xDBFF && pos + 7 < text.size() && text[pos + 6] == '\\' &&
                text[pos + 7] == 'u') {
                auto low = hex4(text, pos + 8);
                if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
                    *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
                    consumed = 12;
                }
            }
            if (*cp >= 0xD800 && *cp <= 0xDFFF)
                return fail("\\u escape is an unpaired UTF-16 surrogate", pos);
            appendUtf8(l.value, *cp);
            pos += consumed;
            record(map, l.value, src);
            continue;
        }
        default:
            return fail(std::string("Unknown escape \\") + e + " in a JSON string", pos);
        }
        pos += 2;
        record(map, l.value, src);
    }
    return fail("Unterminated string: the closing \" is missing", open);
}

// A statement string literal: '...' with '' for one quote. text[pos] is the opening quote.
Lexed lexTupleString(std::string_view text, std::size_t& pos, std::vector<int>* map) {
    const std::size_t open = pos;
    Lexed l;
    ++pos;
    while (pos < text.size()) {
        const std::size_t src = pos;
        if (text[pos] == '\'') {
            if (pos + 1 < text.size() && text[pos + 1] == '\'') {
                l.value += '\'';
                pos += 2;
                record(map, l.value, src);
                continue;
            }
            if (map)
                map->push_back(static_cast<int>(pos));
            ++pos;
            return l;
        }
        l.value += text[pos++];
        record(map, l.value, src);
    }
    return fail("Unterminated string: the closing ' is missing", open);
}

bool isShellSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// One shell word starting at a non-space. `quoted` tells whether any quoting was used.
Lexed lexShellWord(std::string_view text, std::size_t& pos, std::vector<int>* map, bool* quoted) {
    Lexed l;
    while (pos < text.size() && !isShellSpace(text[pos])) {
        const char c = text[pos];
        if (c == '\'') {
            if (quoted)
                *quoted = true;
            const std::size_t open = pos++;
            while (pos < text.size() && text[pos] != '\'') {
                l.value += text[pos];
                record(map, l.value, pos);
                ++pos;
            }
            if (pos >= text.size())
                return fail("Unterminated single quote", open);
            ++pos;
        } else if (c == '"') {
            if (quoted)
                *quoted = true;
            const std::size_t open = pos++;
            while (pos < text.size() && text[pos] != '"') {
                const std::size_t src = pos;
                if (text[pos] == '\\' && pos + 1 < text.size()) {
                    const char e = text[pos + 1];
                    if (e == '\n') {
                        pos += 2; // line continuation
                        continue;
                    }
                    if (e == '$' || e == '`' || e == '"' || e == '\\') {
                        l.value += e;
                        pos += 2;
                        record(map, l.value, src);
                        continue;
                    }
                }
                l.value += text[pos++];
                record(map, l.value, src);
            }
            if (pos >= text.size())
                return fail("Unterminated double quote", open);
            ++pos;
        } else if (c == '\\') {
            if (quoted)
                *quoted = true;
            if (pos + 1 >= text.size())
                return fail("A backslash at the end escapes nothing", pos);
            if (text[pos + 1] == '\n') {
                pos += 2;
                continue;
            }
            l.value += text[pos + 1];
            record(map, l.value, pos);
            pos += 2;
        } else {
            l.value += c;
            record(map, l.value, pos);
            ++pos;
        }
    }
    if (map)
        map->push_back(static_cast<int>(pos));
    return l;
}

bool isLineSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

void skipJsonSpace(std::string_view text, std::size_t& pos) {
    while (pos < text.size() && (isShellSpace(text[pos])))
        ++pos;
}

void setError(TextParameters& out, std::string message, std::size_t offset) {
    out.error = std::move(message);
    out.errorOffset = static_cast<int>(offset);
}

void take(TextParameters& out, Lexed&& l, std::size_t begin, std::size_t end) {
    out.parameters.push_back(std::move(l.value));
    out.ranges.emplace_back(static_cast<int>(begin), static_cast<int>(end));
}

TextParameters parseJson(std::string_view text) {
    TextParameters out;
    std::size_t pos = 0;
    skipJsonSpace(text, pos);
    if (pos >= text.size() || text[pos] != '[') {
        setError(out, "Expected a JSON array of strings starting with [", pos);
        return out;
    }
    ++pos;
    skipJsonSpace(text, pos);
    if (pos < text.size() && text[pos] == ']') {
        ++pos;
    } else {
        while (true) {
            skipJsonSpace(text, pos);
            if (pos >= text.size()) {
                setError(out, "Unterminated array: the closing ] is missing", pos);
                return out;
            }
            if (text[pos] != '"') {
                setError(out, "Expected a string: every parameter is a JSON string in double quotes", pos);
                return out;
            }
            const std::size_t begin = pos;
            Lexed l = lexJsonString(text, pos, nullptr);
            if (l.error) {
                setError(out, *l.error, static_cast<std::size_t>(l.errorOffset));
                return out;
            }
            take(out, std::move(l), begin, pos);
            skipJsonSpace(text, pos);
            if (pos < text.size() && text[pos] == ',') {
                ++pos;
                continue;
            }
            if (pos < text.size() && text[pos] == ']') {
                ++pos;
                break;
            }
            setError(out,
                     pos >= text.size() ? "Unterminated array: the closing ] is missing"
                                        : "Expected , or ] after a parameter",
                     pos);
            return out;
        }
    }
    skipJsonSpace(text, pos);
    if (pos < text.size())
        setError(out, "Unexpected text after the closing ]", pos);
    return out;
}

TextParameters parseTuple(std::string_view text) {
    TextParameters out;
    std::size_t pos = 0;
    skipJsonSpace(text, pos);
    const bool paren = pos < text.size() && text[pos] == '(';
    if (paren)
        ++pos;
    skipJsonSpace(text, pos);
    const bool empty = paren ? (pos < text.size() && text[pos] == ')') : pos >= text.size();
    while (!empty) {
        skipJsonSpace(text, pos);
        if (pos >= text.size() || text[pos] != '\'') {
            setError(out,
                     pos >= text.size() && paren ? "Unterminated list: the closing ) is missing"
                                                 : "Expected a string in single quotes",
                     pos);
            return out;
        }
        const std::size_t begin = pos;
        Lexed l = lexTupleString(text, pos, nullptr);
        if (l.error) {
            setError(out, *l.error, static_cast<std::size_t>(l.errorOffset));
            return out;
        }
        take(out, std::move(l), begin, pos);
        skipJsonSpace(text, pos);
        if (pos < text.size() && text[pos] == ',') {
            ++pos;
            continue;
        }
        break;
    }
    if (paren) {
        if (pos >= text.size() || text[pos] != ')') {
            setError(out,
                     pos >= text.size() ? "Unterminated list: the closing ) is missing"
                                        : "Expected , or ) after a parameter",
                     pos);
            return out;
        }
        ++pos;
    }
    skipJsonSpace(text, pos);
    if (pos < text.size())
        setError(out, paren ? "Unexpected text after the closing )" : "Expected , between parameters", pos);
    return out;
}

TextParameters parsePerLine(std::string_view text) {
    TextParameters out;
    std::size_t lineBegin = 0;
    while (lineBegin <= text.size()) {
        std::size_t lineEnd = text.find('\n', lineBegin);
        if (lineEnd == std::string_view::npos)
            lineEnd = text.size();
        std::size_t b = lineBegin, e = lineEnd;
        while (b < e && isLineSpace(text[b]))
            ++b;
        while (e > b && isLineSpace(text[e - 1]))
            --e;
        if (b < e) {
            if (text[b] == '"') {
                std::size_t pos = b;
                Lexed l = lexJsonString(text.substr(0, e), pos, nullptr);
                if (l.error) {
                    setError(out, *l.error, static_cast<std::size_t>(l.errorOffset));
                    return out;
                }
                if (pos != e) {
                    setError(out,
                             "Unexpected text after a quoted parameter: a quoted line holds one JSON "
                             "string",
                             pos);
                    return out;
                }
                take(out, std::move(l), b, e);
            } else {
                Lexed l;
                l.value = std::string(text.substr(b, e - b));
                take(out, std::move(l), b, e);
            }
        }
        lineBegin = lineEnd + 1;
    }
    return out;
}

bool isSparkSubmitCommand(std::string_view word) {
    constexpr std::string_view name = "spark-submit";
    return word == name ||
           (word.size() > name.size() && word.ends_with(name) && word[word.size() - name.size() - 1] == '/');
}

TextParameters parseShell(std::string_view text) {
    TextParameters out;
    std::size_t pos = 0;
    bool first = true;
    while (true) {
        while (pos < text.size()) {
            if (isShellSpace(text[pos]))
                ++pos;
            else if (text[pos] == '\\' && pos + 1 < text.size() && text[pos + 1] == '\n')
                pos += 2;
            else
                break;
        }
        if (pos >= text.size())
            break;
        const std::size_t begin = pos;
        bool quoted = false;
        Lexed l = lexShellWord(text, pos, nullptr, &quoted);
        if (l.error) {
            setError(out, *l.error, static_cast<std::size_t>(l.errorOffset));
            return out;
        }
        // A pasted "spark-submit ..." line: the command itself is not a parameter.
        if (!(first && !quoted && isSparkSubmitCommand(l.value)))
            take(out, std::move(l), begin, pos);
        first = false;
    }
    return out;
}

void appendJsonString(std::string& out, const std::string& s) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (const char c : s) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += hex[(c >> 4) & 0xF];
                out += hex[c & 0xF];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

bool startsOption(const std::string& s) {
    return s.size() > 1 && s[0] == '-';
}

// Whether `value` reads as the value of `previous` ("--class", "x"), so the two share a line.
bool isValueOf(const std::string& previous, const std::string& value) {
    if (startsOption(value) || !startsOption(previous) || previous.find('=') != std::string::npos)
        return false;
    const SparkSubmitOption* opt = SparkSubmitOptions::find(previous);
    return !opt || opt->takesValue; // unknown ones are application arguments such as "--date 2026-01-01"
}

std::string formatJson(const std::vector<std::string>& params) {
    // Like the console shows it: an option and its value share a line.
    std::string out = "[";
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (i > 0)
            out += isValueOf(params[i - 1], params[i]) ? ", " : ",\n ";
        appendJsonString(out, params[i]);
    }
    out += ']';
    return out;
}

std::string formatTuple(const std::vector<std::string>& params) {
    if (params.empty())
        return "()";
    std::string out = "( ";
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (i > 0)
            out += ", ";
        out += '\'';
        for (const char c : params[i]) {
            out += c;
            if (c == '\'')
                out += '\'';
        }
        out += '\'';
    }
    out += " )";
    return out;
}

bool needsLineQuoting(const std::string& s) {
    if (s.empty() || s.front() == '"' || isLineSpace(s.front()) || isLineSpace(s.back()))
        return true;
    return s.find_first_of("\n\r") != std::string::npos;
}

std::string formatPerLine(const std::vector<std::string>& params) {
    std::string out;
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (i > 0)
            out += '\n';
        if (needsLineQuoting(params[i]))
            appendJsonString(out, params[i]);
        else
            out += params[i];
    }
    return out;
}

bool isShellSafe(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           std::string_view("_@%+=:,./-").find(c) != std::string_view::npos;
}

std::string formatShell(const std::vector<std::string>& params) {
    std::string out;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const std::string& p = params[i];
        if (i > 0)
            out += ' ';
        bool safe = !p.empty() && !(i == 0 && isSparkSubmitCommand(p));
        for (const char c : p)
            safe = safe && isShellSafe(c);
        if (safe) {
            out += p;
            continue;
        }
        out += '\'';
        for (const char c : p) {
            if (c == '\'')
                out += "'\\''";
            else
                out += c;
        }
        out += '\'';
    }
    return out;
}

} // namespace

const char* parameterTextFormName(ParameterTextForm form) {
    switch (form) {
    case ParameterTextForm::JsonArray:
        return "json";
    case ParameterTextForm::StatementTuple:
        return "tuple";
    case ParameterTextForm::PerLine:
        return "lines";
    case ParameterTextForm::ShellCommand:
        return "shell";
    }
    return "json";
}

TextParameters parseParameterText(std::string_view text, ParameterTextForm form) {
    switch (form) {
    case ParameterTextForm::JsonArray:
        return parseJson(text);
    case ParameterTextForm::StatementTuple:
        return parseTuple(text);
    case ParameterTextForm::PerLine:
        return parsePerLine(text);
    case ParameterTextForm::ShellCommand:
        return parseShell(text);
    }
    return parseJson(text);
}

std::string formatParameterText(const std::vector<std::string>& parameters, ParameterTextForm form) {
    switch (form) {
    case ParameterTextForm::JsonArray:
        return formatJson(parameters);
    case ParameterTextForm::StatementTuple:
        return formatTuple(parameters);
    case ParameterTextForm::PerLine:
        return formatPerLine(parameters);
    case ParameterTextForm::ShellCommand:
        return formatShell(parameters);
    }
    return formatJson(parameters);
}

ParameterTextForm detectForm(std::string_view text) {
    std::size_t pos = 0;
    skipJsonSpace(text, pos);
    if (pos < text.size() && text[pos] == '[')
        return ParameterTextForm::JsonArray;
    if (pos < text.size() && (text[pos] == '(' || text[pos] == '\''))
        return ParameterTextForm::StatementTuple;
    const std::string_view rest = text.substr(pos);
    const std::size_t firstSpace = rest.find_first_of(" \t\r\n");
    if (isSparkSubmitCommand(rest.substr(0, firstSpace)))
        return ParameterTextForm::ShellCommand;
    bool multiLine = false;
    std::size_t lineBegin = pos;
    while (lineBegin < text.size()) {
        std::size_t lineEnd = text.find('\n', lineBegin);
        const bool last = lineEnd == std::string_view::npos;
        if (last)
            lineEnd = text.size();
        else
            multiLine = multiLine || text.find_first_not_of(" \t\r\n", lineEnd) != std::string_view::npos;
        std::string_view line = text.substr(lineBegin, lineEnd - lineBegin);
        while (!line.empty() && isLineSpace(line.back()))
            line.remove_suffix(1);
        while (!line.empty() && isLineSpace(line.front()))
            line.remove_prefix(1);
        if (!line.empty() && line.back() == '\\')
            return ParameterTextForm::ShellCommand;
        // "--opt value" on one line is a command line, never a single parameter.
        if (line.starts_with("--") && line.find_first_of(" \t") != std::string_view::npos)
            return ParameterTextForm::ShellCommand;
        if (last)
            break;
        lineBegin = lineEnd + 1;
    }
    if (multiLine)
        return ParameterTextForm::PerLine;
    return rest.find_first_of(" \t\"\\") != std::string_view::npos ? ParameterTextForm::ShellCommand
                                                                   : ParameterTextForm::PerLine;
}

int sourceOffsetInToken(std::string_view text, ParameterTextForm form, std::pair<int, int> tokenRange,
                        int offsetInToken) {
    if (tokenRange.first < 0 || tokenRange.second > static_cast<int>(text.size()) ||
        tokenRange.first > tokenRange.second)
        return -1;
    const std::string_view literal = text.substr(0, static_cast<std::size_t>(tokenRange.second));
    std::size_t pos = static_cast<std::size_t>(tokenRange.first);
    std::vector<int> map;
    Lexed l;
    const char open = pos < literal.size() ? literal[pos] : '\0';
    if ((form == ParameterTextForm::JsonArray || form == ParameterTextForm::PerLine) && open == '"') {
        l = lexJsonString(literal, pos, &map);
    } else if (form == ParameterTextForm::StatementTuple && open == '\'') {
        l = lexTupleString(literal, pos, &map);
    } else if (form == ParameterTextForm::ShellCommand) {
        l = lexShellWord(literal, pos, &map, nullptr);
    } else {
        const int offset = tokenRange.first + offsetInToken;
        return offsetInToken < 0 || offset > tokenRange.second ? -1 : offset;
    }
    if (l.error || offsetInToken < 0 || offsetInToken >= static_cast<int>(map.size()))
        return -1;
    return map[static_cast<std::size_t>(offsetInToken)];
}

std::vector<int> utf16OffsetTable(std::string_view text) {
    std::vector<int> table(text.size() + 1);
    int units = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        table[i] = units;
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) != 0x80) // a lead byte starts a code point; 4-byte ones need a surrogate pair
            units += (c >= 0xF0) ? 2 : 1;
    }
    table[text.size()] = units;
    return table;
}

} // namespace jobdeck
