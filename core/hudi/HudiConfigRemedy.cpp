#include "core/hudi/HudiConfigRemedy.h"

#include "core/statements/StatementParser.h"

#include <variant>

namespace jobdeck {

namespace {

bool isAlterProject(std::string_view text) {
    const ParseResult parsed = parseStatement(text);
    return parsed.statement && std::holds_alternative<AlterProjectStatement>(*parsed.statement);
}

} // namespace

std::vector<std::string> alterProjectRemedyIn(std::string_view explanation) {
    const std::size_t lead = explanation.rfind(kAdminRemedyLead);
    if (lead == std::string_view::npos || !explanation.ends_with('.'))
        return {};
    std::string_view rest = explanation.substr(lead + kAdminRemedyLead.size());
    rest.remove_suffix(1); // the sentence's full stop
    // The statements are joined by "; ": a piece that does not parse yet (a "; " inside a quoted entry)
    // is read on with the next one.
    std::vector<std::string> statements;
    std::size_t start = 0;
    std::size_t end = rest.find("; ");
    while (start < rest.size()) {
        const std::size_t stop = end == std::string_view::npos ? rest.size() : end;
        const std::string_view piece = rest.substr(start, stop - start);
        if (isAlterProject(piece)) {
            statements.emplace_back(piece);
            start = stop + 2;
        } else if (stop == rest.size()) {
            return {};
        }
        end = stop == rest.size() ? std::string_view::npos : rest.find("; ", stop + 2);
    }
    return statements;
}

} // namespace jobdeck
