#include "core/statements/NameLimits.h"

#include "core/text/Utf8.h"

#include <algorithm>

namespace jobdeck {

std::optional<std::string> nameLengthProblem(std::string_view what, std::string_view name) {
    // Bytes first: a name of at most 256 bytes has at most 256 characters, and most names are short.
    if (name.size() <= kMaxNameCharacters)
        return std::nullopt;
    const std::size_t characters = countUtf8CodePoints(name);
    if (characters <= kMaxNameCharacters)
        return std::nullopt;
    return std::string(what) + " can have at most " + std::to_string(kMaxNameCharacters) +
           " characters; this one has " + std::to_string(characters);
}

std::string emptyProjectNameMessage() {
    return "The project name must not be empty";
}

std::optional<std::string> projectNameProblem(std::string_view name) {
    if (name.empty())
        return emptyProjectNameMessage();
    if (!isValidUtf8(name))
        return "The project name must be UTF-8 text";
    if (std::ranges::any_of(name, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        return "The project name must not contain control characters (a line break, a tab)";
    if (name.front() == ' ' || name.back() == ' ')
        return "The project name must not begin or end with a blank";
    return nameLengthProblem("A project name", name);
}

} // namespace jobdeck
