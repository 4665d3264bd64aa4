#include "core/deploy/ConfigFileRules.h"

namespace jobdeck {

std::optional<std::string> configValueQuotingError(std::string_view value) {
    const bool opens = value.starts_with('"');
    const bool closes = value.size() >= 2 && value.ends_with('"');
    if (opens && !closes)
        return "the value opens a double quote that is not closed at the end of the line";
    if (!opens && value.ends_with('"'))
        return "the value ends with a double quote that is not opened at its start";
    if (opens && value.substr(1, value.size() - 2).find('"') != std::string_view::npos)
        return "a double-quoted value cannot hold a double quote";
    return std::nullopt;
}

std::string_view unquotedConfigValue(std::string_view value) {
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        return value.substr(1, value.size() - 2);
    return value;
}

std::string configLineWithoutEqualsMessage() {
    return "expected key = value, got a line without '=' (not shown: it may hold a secret)";
}

std::string configFileIsDirectoryMessage(std::string_view path) {
    return "cannot read config file '" + std::string(path) + "': it is a directory; give the file itself";
}

std::string configFileSecretDescription() {
    return "the database password";
}

} // namespace jobdeck
