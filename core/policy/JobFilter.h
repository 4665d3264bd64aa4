#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// The Jobs list's filter-as-you-type: whitespace-separated terms, all of which must match.
//   count                 the name contains "count"
//   name:count            the same, explicitly
//   cluster:demo          the cluster contains "demo"
//   type:python           the type contains "python" (JAR | PYTHON)
//   -type:jar  -tmp       a leading '-' excludes rows that match the term
//   name:"a b"            double quotes keep spaces in a value
// Matching is case-insensitive (ASCII). An unknown prefix ("foo:bar") is part of a name term, and a
// term with an empty value ("cluster:") matches everything, so half-typed input never hides all rows.
class JobFilter final {
public:
    enum class Field { Name, Cluster, Type };
    struct Term {
        Field field = Field::Name;
        std::string needle; // lower-case
        bool negated = false;
        bool operator==(const Term&) const = default;
    };

    static JobFilter parse(std::string_view text);

    bool isEmpty() const { return m_terms.empty(); }
    const std::vector<Term>& terms() const { return m_terms; }
    bool matches(std::string_view name, std::string_view cluster, std::string_view type) const;

private:
    std::vector<Term> m_terms;
};

} // namespace jobdeck
