#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// How jobdeckd reads one `key = value` line of its --config file (docs/service.md, "Configuration
// file"), and what it says about a bad one. No message quotes a value: a line may hold a password.

// A value in double quotes keeps its blanks and may be empty: "a b" -> a b. A value that starts with a
// double quote must end with one, with no double quote between; a value that ends with a double quote
// must start with one. Why the value is refused, nullopt when it is fine.
std::optional<std::string> configValueQuotingError(std::string_view value);
// The value without its quotes (configValueQuotingError(value) must be nullopt).
std::string_view unquotedConfigValue(std::string_view value);

std::string configLineWithoutEqualsMessage();
std::string configKeyMissingMessage();
// A key's value is refused: "'<key>': <reason>" (the reason never quotes the value).
std::string configValueRefusedMessage(std::string_view key, std::string_view reason);
// `command` is the jobdeckd command whose --help lists the keys ("serve").
std::string configKeyUnknownMessage(std::string_view key, std::string_view command);
std::string configKeyRepeatedMessage(std::string_view key, int firstLine);
std::string configFileUnreadableMessage(std::string_view path, std::string_view reason);
std::string configFileIsDirectoryMessage(std::string_view path);
// What a config file holding the database password (a `database` value with one) is said to hold in
// secretFileReadableByOthersWarning.
std::string configFileSecretDescription();

} // namespace jobdeck
