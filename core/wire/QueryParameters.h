#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// The numbers of a request's query string (GET /v1/events?after=&wait=, GET /v1/jobs/.../log?offset=&limit=)
// and what the service answers (400) when one is not a number it takes.

// A whole number written in decimal digits only (no sign, no spaces) that fits in 64 bits.
std::optional<std::int64_t> parseNonNegative(std::string_view text);

// "<name> must be a non-negative integer, got '<text>'"
std::string nonNegativeIntegerExpectedMessage(std::string_view name, std::string_view got);
// "<name> must be a number of seconds from 0 to <max>, got '<text>'"
std::string secondsInRangeExpectedMessage(std::string_view name, std::int64_t max, std::string_view got);

} // namespace jobdeck
