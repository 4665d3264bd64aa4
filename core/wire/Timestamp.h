#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// Every time on the wire is ISO-8601 UTC with milliseconds: "2026-11-30T05:01:46.123Z".
using TimePoint = std::chrono::system_clock::time_point;

// Formats in UTC, truncated to milliseconds.
std::string formatTimestamp(TimePoint t);

// Accepts "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)"; the fraction is truncated to milliseconds.
// nullopt for anything else (including impossible dates such as February 30).
std::optional<TimePoint> parseTimestamp(std::string_view text);

// The current time at wire precision, so a value written and read back compares equal.
TimePoint timestampNow();

} // namespace jobdeck
