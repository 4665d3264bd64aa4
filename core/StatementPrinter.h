#pragma once

#include "core/Statement.h"

#include <string>
#include <string_view>

namespace jobdeck {

// Canonical text of a statement: keywords upper-case, one space between tokens, clauses in the
// contract's order, no trailing ';'. For every statement the parser can produce,
// parseStatement(printStatement(s)) gives s back.
std::string printStatement(const Statement& statement);

// 'it''s'
std::string quoteString(std::string_view text);

// A name as it can be written back: bare when it matches [A-Za-z_][A-Za-z0-9_.-]* and is not a
// keyword, else back-quoted with ` doubled.
std::string quoteName(std::string_view name);

} // namespace jobdeck
