#pragma once

#include <string>
#include <string_view>

namespace jobdeck {

// Text helpers shared by core. Case folding is ASCII only on purpose: keywords, keys and option names are
// ASCII, and a locale must never change what a rule decides.

constexpr char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr char asciiUpper(char c) {
    return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
}

constexpr bool isAsciiUpper(char c) {
    return c >= 'A' && c <= 'Z';
}

constexpr bool isAsciiLower(char c) {
    return c >= 'a' && c <= 'z';
}

constexpr bool isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
}

// What std::isalpha and std::isalnum say in the C locale, whatever the process's locale is.
constexpr bool isAsciiAlpha(char c) {
    return isAsciiUpper(c) || isAsciiLower(c);
}

constexpr bool isAsciiAlnum(char c) {
    return isAsciiAlpha(c) || isAsciiDigit(c);
}

// Space, tab, line feed, vertical tab, form feed, carriage return: what std::isspace says in the C locale.
constexpr bool isAsciiSpace(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

// `text` without the isAsciiSpace characters at its ends.
std::string_view asciiTrimmed(std::string_view text);
std::string asciiLowered(std::string_view text);
std::string asciiUppered(std::string_view text);
bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b);
// Whether `needle` occurs in `haystack`, ASCII letters compared without case.
bool containsIgnoringAsciiCase(std::string_view haystack, std::string_view needle);
// `text` lower-cased into `out`, which holds at least text.size() characters: folding without allocating.
std::string_view asciiLoweredInto(std::string_view text, char* out);

// How messages name a key, option or value: 'text', as written (no escaping). A literal in a statement
// doubles its inner quotes instead: quoteString() in core/statements/StatementPrinter.h.
std::string quoted(std::string_view text);
// For a std::string argument, argument-dependent lookup also finds std::quoted (<iomanip>, which
// nlohmann/json includes), a better match than the conversion to std::string_view: these exact
// overloads are chosen over it.
inline std::string quoted(const std::string& text) {
    return quoted(std::string_view(text));
}
inline std::string quoted(std::string& text) {
    return quoted(std::string_view(text));
}
inline std::string quoted(const char* text) {
    return quoted(std::string_view(text));
}

} // namespace jobdeck
