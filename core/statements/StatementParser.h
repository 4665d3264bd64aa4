#pragma once

#include "core/statements/Statement.h"

#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// Where and why a statement did not parse. `message` ends with " at <line>:<column>", e.g.
// "expected '=' after TYPE at 1:24"; line and column are 1-based, columns count code points.
struct ParseError final {
    int line = 1;
    int column = 1;
    std::string message;
    bool operator==(const ParseError&) const = default;
};

// Exactly one of the two is set.
struct ParseResult final {
    std::optional<Statement> statement;
    std::optional<ParseError> error;
};

// Parses one statement of CONTRACT §2 (or SHOW AUDIT_LOG), with an optional trailing ';'.
// Linear in the input; any input gives a statement or an error, never an exception.
// Purely syntactic: ranges (MAX_OCU >= MIN_OCU, LIMIT >= 1, ...) are the executor's to check.
ParseResult parseStatement(std::string_view text);

// Whether `word` is one of the statement language's keywords (case-insensitive). Names that are
// keywords parse where a name is expected, but the printer back-quotes them to stay unambiguous.
bool isStatementKeyword(std::string_view word);

} // namespace jobdeck
