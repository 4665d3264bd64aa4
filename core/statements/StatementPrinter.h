#pragma once

#include "core/statements/Statement.h"

#include <string>
#include <string_view>

namespace jobdeck {

enum class StatementLayout {
    OneLine,          // the canonical text
    ParameterPerLine, // CREATE/ALTER JOB's parameters one per line, indented: an editor lays out only what is
                      // in view
};

// Canonical text of a statement: keywords upper-case, one space between tokens, clauses in the
// contract's order, no trailing ';'. For every statement the parser can produce,
// parseStatement(printStatement(s, layout)) gives s back, whatever the layout.
std::string printStatement(const Statement& statement, StatementLayout layout = StatementLayout::OneLine);

// 'it''s'
std::string quoteString(std::string_view text);

// A name as it can be written back: bare when it matches [A-Za-z_][A-Za-z0-9_.-]* and is not a
// keyword, else back-quoted with ` doubled.
std::string quoteName(std::string_view name);

} // namespace jobdeck
