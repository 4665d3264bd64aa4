#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jobdeck {

// The one UTF-8 reader and writer of core (statements, parameter text forms, JSON strings, header
// values).

// Length of the well-formed UTF-8 sequence starting at text[pos] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one (or pos is past the end).
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

bool isValidUtf8(std::string_view text);

// Text a database column holds whole on both backends: valid UTF-8 without a NUL (PostgreSQL refuses
// bytes that are not UTF-8 and ends text at a NUL). Anything a request supplies is checked with this
// before a query uses it.
bool isQueryableText(std::string_view text);

// The number of characters (code points) of UTF-8 text: the bytes that do not continue a sequence.
std::size_t countUtf8CodePoints(std::string_view text);

// `text` with every byte that does not start a well-formed sequence replaced by U+FFFD, so that
// anything a client sent can be put into JSON or a header line and read back as UTF-8.
std::string replaceInvalidUtf8(std::string_view text);

// Appends code point `cp` (at most U+10FFFF, not a surrogate) encoded as UTF-8.
void appendUtf8(std::string& out, std::uint32_t cp);

} // namespace jobdeck
