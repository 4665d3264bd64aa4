#include "core/policy/AuditFilter.h"

#include "core/statements/StatementParser.h"
#include "core/text/AsciiText.h"

#include <optional>
#include <variant>

namespace jobdeck {

namespace {

std::string targetOf(const Statement& statement) {
    return std::visit(
        [](const auto& s) -> std::string {
            using T = std::decay_t<decltype(s)>;
            if constexpr (std::is_same_v<T, AlterProjectStatement> ||
                          std::is_same_v<T, DescribeProjectStatement>)
                return "project";
            else if constexpr (requires { s.runId; })
                return s.jobName + " / " + s.runId;
            else if constexpr (requires { s.name; })
                return s.name;
            else if constexpr (requires { s.jobName; })
                return s.jobName.value_or("");
            else
                return {};
        },
        statement);
}

// The first two words, upper-cased: the kind of a statement that did not parse.
std::string firstWords(std::string_view text) {
    std::string out;
    int words = 0;
    std::size_t i = 0;
    while (words < 2) {
        while (i < text.size() && isAsciiSpace(text[i]))
            ++i;
        if (i == text.size())
            break;
        if (words++ > 0)
            out += ' ';
        for (; i < text.size() && !isAsciiSpace(text[i]); ++i)
            out += asciiUpper(text[i]);
    }
    return out;
}

constexpr std::string_view kKeyCommand = "jobdeckd keys ";
constexpr std::string_view kApiKey = ": API key ";

// keyCommandAuditText's text, read back.
std::optional<AuditStatementSummary> keyCommandSummary(std::string_view text) {
    const std::size_t colon = text.find(kApiKey);
    if (!text.starts_with(kKeyCommand) || colon == std::string_view::npos)
        return std::nullopt;
    const std::string_view rest = text.substr(colon + kApiKey.size());
    return AuditStatementSummary{std::string(text.substr(0, colon)),
                                 std::string(rest.substr(0, rest.find(' ')))};
}

} // namespace

std::string keyCommandAuditText(std::string_view command, std::string_view apiKey, std::string_view role,
                                std::string_view osUser) {
    std::string text(kKeyCommand);
    text.append(command).append(kApiKey).append(apiKey);
    text.append(" (").append(role).append(") by OS user ").append(osUser);
    return text;
}

AuditStatementSummary summarizeAuditStatement(std::string_view statement) {
    if (auto command = keyCommandSummary(statement))
        return std::move(*command);
    const ParseResult parsed = parseStatement(statement);
    if (!parsed.statement)
        return {firstWords(statement), {}};
    return {std::string(statementAction(*parsed.statement)), targetOf(*parsed.statement),
            isReadStatement(*parsed.statement)};
}

bool AuditFilter::matches(const AuditEntry& entry) const {
    return matches(entry, summarizeAuditStatement(entry.statement));
}

bool AuditFilter::matches(const AuditEntry& entry, const AuditStatementSummary& summary) const {
    if (!kind.empty() && summary.kind != kind)
        return false;
    if (!includeReads && summary.isRead && kind.empty())
        return false;
    if (outcome && entry.outcome != *outcome)
        return false;
    if ((from && entry.at < *from) || (to && entry.at > *to))
        return false;
    if (text.empty())
        return true;
    const std::string_view error = entry.errorMessage ? std::string_view(*entry.errorMessage) : "";
    for (const std::string_view field :
         {std::string_view(entry.statement), std::string_view(entry.keyId), std::string_view(entry.role),
          std::string_view(summary.target), error, std::string_view(entry.requestId)})
        if (containsIgnoringAsciiCase(field, text))
            return true;
    return false;
}

} // namespace jobdeck
