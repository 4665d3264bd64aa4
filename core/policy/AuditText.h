#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// The audit keeps at most this many bytes of a statement's text and of its error message: what one
// request stores is bounded by this, not by the request body's limit times the retention.
inline constexpr std::size_t kAuditedTextLimit = 8 * 1024;

// The text to store instead of `text` (a statement or an error message, already masked), or nullopt
// when it can be stored as it is. Over kAuditedTextLimit bytes: its first bytes (never half a UTF-8
// character) and a note of how many bytes were cut. A NUL, which one database would cut the text at
// and the other keep, becomes U+FFFD.
std::optional<std::string> auditedTextReplacement(std::string_view text);

} // namespace jobdeck
