#include "core/statements/NameLimits.h"

#include "core/text/Utf8.h"

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

} // namespace jobdeck
