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

std::string asciiLowered(std::string_view text);
std::string asciiUppered(std::string_view text);
bool equalsIgnoringAsciiCase(std::string_view a, std::string_view b);

// How messages name a key, option or value: 'text', as written (no escaping).
std::string quoted(std::string_view text);

} // namespace jobdeck
