#include "core/policy/JobFilter.h"

#include "core/text/AsciiText.h"

namespace jobdeck {

namespace {

// Splits at whitespace outside double quotes; the quotes themselves are dropped.
std::vector<std::string> splitTokens(std::string_view text) {
    std::vector<std::string> tokens;
    std::string current;
    bool inQuotes = false, any = false;
    for (char c : text) {
        if (c == '"') {
            inQuotes = !inQuotes;
            any = true;
        } else if (!inQuotes && isAsciiSpace(c)) {
            if (any)
                tokens.push_back(std::move(current));
            current.clear();
            any = false;
        } else {
            current += c;
            any = true;
        }
    }
    if (any)
        tokens.push_back(std::move(current));
    return tokens;
}

} // namespace

JobFilter JobFilter::parse(std::string_view text) {
    JobFilter filter;
    for (std::string token : splitTokens(text)) {
        Term term;
        if (token.size() > 1 && token.front() == '-') {
            term.negated = true;
            token.erase(0, 1);
        }
        const auto colon = token.find(':');
        if (colon != std::string::npos) {
            const std::string key = asciiLowered(std::string_view(token).substr(0, colon));
            const bool known = key == "name" || key == "cluster" || key == "type";
            if (known) {
                term.field = key == "cluster" ? Field::Cluster : key == "type" ? Field::Type : Field::Name;
                token.erase(0, colon + 1);
            }
        }
        if (token.empty())
            continue;
        term.needle = asciiLowered(token);
        filter.m_terms.push_back(std::move(term));
    }
    return filter;
}

bool JobFilter::matches(std::string_view name, std::string_view cluster, std::string_view type) const {
    for (const Term& term : m_terms) {
        const std::string_view field = term.field == Field::Cluster ? cluster
                                       : term.field == Field::Type  ? type
                                                                    : name;
        if (containsIgnoringAsciiCase(field, term.needle) == term.negated)
            return false;
    }
    return true;
}

} // namespace jobdeck
