#include "core/text/AsciiText.h"

#include <algorithm>

namespace jobdeck {

std::string_view asciiTrimmed(std::string_view text) {
    while (!text.empty() && isAsciiSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isAsciiSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

std::string asciiLowered(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = asciiLower(c);
    return out;
}

std::string asciiUppered(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = asciiUpper(c);
    return out;
}

bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(),
                                              [](char x, char y) { return asciiLower(x) == asciiLower(y); });
}

bool containsIgnoringAsciiCase(std::string_view haystack, std::string_view needle) {
    if (needle.empty()) // std::search finds nothing in an empty haystack, even an empty needle
        return true;
    return std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                       [](char x, char y) { return asciiLower(x) == asciiLower(y); }) != haystack.end();
}

std::string_view asciiLoweredInto(std::string_view text, char* out) {
    for (std::size_t i = 0; i < text.size(); ++i)
        out[i] = asciiLower(text[i]);
    return {out, text.size()};
}

// Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "'" + std::string(s).
std::string quoted(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out += text;
    out += '\'';
    return out;
}

} // namespace jobdeck
