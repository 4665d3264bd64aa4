#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jobdeck {

// The one UTF-8 reader and writer of core (statements, parameter text forms and JSON strings).

// Length of the well-formed UTF-8 sequence starting at text[pos] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one (or pos is past the end).
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

// Appends code point `cp` (at most U+10FFFF, not a surrogate) encoded as UTF-8.
void appendUtf8(std::string& out, std::uint32_t cp);

} // namespace jobdeck
