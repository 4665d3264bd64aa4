#include "core/deploy/ConfigFileRules.h"

#include "core/text/AsciiText.h"

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

std::string configKeyMissingMessage() {
    return "a key is missing before '='";
}

std::string configValueRefusedMessage(std::string_view key, std::string_view reason) {
    return quoted(key) + ": " + std::string(reason);
}

std::string configKeyUnknownMessage(std::string_view key, std::string_view command) {
    return "unknown key " + quoted(key) + " (see jobdeckd " + std::string(command) + " --help)";
}

std::string configKeyRepeatedMessage(std::string_view key, int firstLine) {
    return quoted(key) + " is already set on line " + std::to_string(firstLine);
}

std::string configFileUnreadableMessage(std::string_view path, std::string_view reason) {
    return "cannot read config file " + quoted(path) + ": " + std::string(reason);
}

std::string configFileIsDirectoryMessage(std::string_view path) {
    return "cannot read config file " + quoted(path) + ": it is a directory; give the file itself";
}

std::string configFileSecretDescription() {
    return "the database password";
}

} // namespace jobdeck
