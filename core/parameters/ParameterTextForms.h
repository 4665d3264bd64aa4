#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jobdeck {

// The ways a Job's parameter list is written down. Every form converts to the list and back without
// loss (see docs/parameters.md for the exact rules of each form).
enum class ParameterTextForm {
    JsonArray,      // the console's field: ["--class", "x", ...] (JSON string escapes)
    StatementTuple, // the statement API: ( '--class', 'x' ) with '' for a quote
    PerLine,        // one parameter per line; a line starting with " is a JSON string literal
    ShellCommand,   // a pasted command line: POSIX shell words, quotes and backslashes
};

const char* parameterTextFormName(ParameterTextForm form);

// The result of reading a text. `ranges[i]` is the [begin, end) byte range in the text of the literal
// that produced `parameters[i]` (quotes included), so an editor can colour it. On error, `error` says
// what is wrong, `errorOffset` is the byte offset where it was found, and `parameters`/`ranges` hold
// what was read before it.
struct TextParameters final {
    std::vector<std::string> parameters;
    std::vector<std::pair<int, int>> ranges;
    std::optional<std::string> error;
    int errorOffset = -1;
    bool ok() const { return !error.has_value(); }
};

TextParameters parseParameterText(std::string_view text, ParameterTextForm form);
std::string formatParameterText(const std::vector<std::string>& parameters, ParameterTextForm form);

// Which form a pasted text most likely is: '[' starts a JSON array, '(' or '\'' a tuple; a multi-line
// text is one parameter per line unless its lines look like a command line ("--opt value" on one
// line, a trailing backslash, or a leading spark-submit).
ParameterTextForm detectForm(std::string_view text);

// Where, in the text, byte `offsetInToken` of the decoded parameter whose literal spans `tokenRange` is.
// Lets an editor colour a key and value inside a quoted literal that contains escapes.
// offsetInToken == parameter length gives the end of the literal's content.
int sourceOffsetInToken(std::string_view text, ParameterTextForm form, std::pair<int, int> tokenRange,
                        int offsetInToken);

// UTF-16 offset of every byte offset 0..text.size() of a UTF-8 text (Qt editors count UTF-16 units).
std::vector<int> utf16OffsetTable(std::string_view text);

} // namespace jobdeck
