#include "core/parameters/SubmitResources.h"

#include "core/text/AsciiText.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <iterator>

namespace jobdeck {
namespace {

constexpr std::array kResources{
    SubmitResource{"--driver-memory", "spark.driver.memory", "Driver memory", true},
    SubmitResource{"--executor-memory", "spark.executor.memory", "Executor memory", true},
    SubmitResource{"--driver-cores", "spark.driver.cores", "Driver cores", false},
    SubmitResource{"--executor-cores", "spark.executor.cores", "Executor cores", false},
    SubmitResource{"--total-executor-cores", "spark.cores.max", "Total executor cores", false},
    SubmitResource{"--num-executors", "spark.executor.instances", "Number of executors", false, true},
};

// Spark's byte-string units (JavaUtils.byteSuffixes), each with the next smaller one.
struct ByteUnit final {
    std::string_view suffix;
    std::string_view smaller; // the unit a fraction of this one is written in, or empty
};
constexpr std::array kUnits{
    ByteUnit{"b", ""},   ByteUnit{"k", "b"}, ByteUnit{"kb", "b"}, ByteUnit{"m", "k"},
    ByteUnit{"mb", "k"}, ByteUnit{"g", "m"}, ByteUnit{"gb", "m"}, ByteUnit{"t", "g"},
    ByteUnit{"tb", "g"}, ByteUnit{"p", "t"}, ByteUnit{"pb", "t"},
};

const ByteUnit* unitOf(std::string_view suffix) {
    const auto it = std::ranges::find(kUnits, suffix, &ByteUnit::suffix);
    return it == kUnits.end() ? nullptr : &*it;
}

std::size_t digitsAt(std::string_view s, std::size_t from) {
    std::size_t end = from;
    while (end < s.size() && isAsciiDigit(s[end]))
        ++end;
    return end - from;
}

// A size as Spark reads it, trimmed and lowered: "<digits><unit?>", above 0.
bool isSize(std::string_view lower) {
    const std::size_t digits = digitsAt(lower, 0);
    if (digits == 0 || digits > 18)
        return false;
    const std::string_view suffix = lower.substr(digits);
    if (!suffix.empty() && unitOf(suffix) == nullptr)
        return false;
    return lower.substr(0, digits).find_first_not_of('0') != std::string_view::npos;
}

// Scala's String.toInt: an optional sign and digits, nothing else, within an int.
bool isPositiveInt(std::string_view value) {
    int parsed = 0;
    const std::string_view digits = value.starts_with('+') ? value.substr(1) : value;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), parsed);
    return error == std::errc() && end == digits.data() + digits.size() && !digits.starts_with('-') &&
           parsed > 0;
}

// "1.5g" as a whole number of the next smaller unit ("1536m"), when it is one.
std::optional<std::string> wholeInSmallerUnit(std::string_view lower) {
    const std::size_t whole = digitsAt(lower, 0);
    if (whole == 0 || whole > 9 || whole >= lower.size() || lower[whole] != '.')
        return std::nullopt;
    const std::size_t fraction = digitsAt(lower, whole + 1);
    if (fraction == 0 || fraction > 6)
        return std::nullopt;
    const ByteUnit* unit = unitOf(lower.substr(whole + 1 + fraction));
    if (unit == nullptr || unit->smaller.empty())
        return std::nullopt;
    std::uint64_t units = 0;
    std::from_chars(lower.data(), lower.data() + whole, units);
    std::uint64_t decimals = 0;
    std::from_chars(lower.data() + whole + 1, lower.data() + whole + 1 + fraction, decimals);
    std::uint64_t scale = 1;
    for (std::size_t i = 0; i < fraction; ++i)
        scale *= 10;
    const std::uint64_t scaled = (units * scale + decimals) * 1024; // in the smaller unit, times `scale`
    if (scaled % scale != 0 || scaled == 0)
        return std::nullopt;
    return std::to_string(scaled / scale) + std::string(unit->smaller);
}

} // namespace

std::span<const SubmitResource> SubmitResources::all() {
    return kResources;
}

const SubmitResource* SubmitResources::ofOption(std::string_view option) {
    const auto it = std::ranges::find(kResources, option, &SubmitResource::option);
    return it == kResources.end() ? nullptr : &*it;
}

const SubmitResource* SubmitResources::ofConfKey(std::string_view key) {
    const auto it = std::ranges::find(kResources, key, &SubmitResource::confKey);
    return it == kResources.end() ? nullptr : &*it;
}

bool SubmitResources::accepts(const SubmitResource& resource, std::string_view value) {
    return resource.isSize ? isSize(asciiLowered(asciiTrimmed(value))) : isPositiveInt(value);
}

std::optional<std::string> SubmitResources::corrected(const SubmitResource& resource,
                                                      std::string_view value) {
    std::string squeezed; // without its blanks
    std::ranges::copy_if(value, std::back_inserter(squeezed), [](char c) { return !isAsciiSpace(c); });
    if (!resource.isSize)
        return isPositiveInt(squeezed) ? std::optional(squeezed) : std::nullopt;
    const std::string lower = asciiLowered(squeezed);
    if (isSize(lower))
        return lower;
    return wholeInSmallerUnit(lower);
}

} // namespace jobdeck
