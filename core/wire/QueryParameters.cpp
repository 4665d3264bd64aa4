#include "core/wire/QueryParameters.h"

#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

#include <charconv>

namespace jobdeck {

std::optional<std::int64_t> parseNonNegative(std::string_view text) {
    // std::from_chars takes a leading '-' ("-0" would be read as 0): a sign is refused before it.
    if (text.empty() || text.front() == '-')
        return std::nullopt;
    std::int64_t value = 0;
    const char* const end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc{} || stop != end)
        return std::nullopt;
    return value;
}

std::string nonNegativeIntegerExpectedMessage(std::string_view name, std::string_view got) {
    return concat({name, " must be a non-negative integer, got ", quoted(got)});
}

std::string secondsInRangeExpectedMessage(std::string_view name, std::int64_t max, std::string_view got) {
    return concat(
        {name, " must be a number of seconds from 0 to ", std::to_string(max), ", got ", quoted(got)});
}

} // namespace jobdeck
