#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace jobdeck {

// Length of the well-formed UTF-8 sequence starting at text[pos] (RFC 3629: no overlongs, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one.
std::size_t utf8SequenceLength(std::string_view text, std::size_t pos);

bool isValidUtf8(std::string_view text);

// `text` with every byte that does not start a well-formed sequence replaced by U+FFFD, so that
// anything a client sent can be put into JSON or a header line and read back as UTF-8.
std::string replaceInvalidUtf8(std::string_view text);

} // namespace jobdeck
