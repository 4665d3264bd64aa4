#pragma once

#include "core/wire/Timestamp.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace jobdeck {

// Field readers shared by the wire types' from_json. Absent and null optional fields read as nullopt,
// unknown fields are ignored by never being looked at. Errors are nlohmann::json exceptions whose
// what() names the field: out_of_range (403) for a missing required field, type_error (302) for a
// wrong type or an unusable value (unknown enum name, malformed timestamp, integer out of range).
namespace wire {

[[noreturn]] void throwMissing(std::string_view object, std::string_view field);
[[noreturn]] void throwInvalid(std::string_view object, std::string_view field, const std::string& problem);
// "<object>.<field> has an unknown value '<value>'", then " (expected <expected>)" when one is given.
[[noreturn]] void throwUnknownValue(std::string_view object, std::string_view field, std::string_view value,
                                    std::string_view expected = {});
// Re-throws an exception from a nested value's from_json with the enclosing field as context.
[[noreturn]] void rethrowNested(std::string_view object, std::string_view field,
                                const nlohmann::json::exception& e);

// Throws type_error when j is not an object (a wire object must be one).
void requireObject(const nlohmann::json& j, std::string_view object);

template <class T> T convert(const nlohmann::json& v, std::string_view object, std::string_view field) {
    if constexpr (std::is_same_v<T, bool>) {
        if (!v.is_boolean())
            throwInvalid(object, field, std::string("must be a boolean, got ") + v.type_name());
        return v.get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        // nlohmann would silently turn 2.5 or true into an integer and wrap out-of-range values.
        if (!v.is_number_integer())
            throwInvalid(object, field, std::string("must be an integer, got ") + v.type_name());
        const bool fits = v.is_number_unsigned() ? std::in_range<T>(v.get<std::uint64_t>())
                                                 : std::in_range<T>(v.get<std::int64_t>());
        if (!fits)
            throwInvalid(object, field, "is out of range: " + v.dump());
        return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>())
                                      : static_cast<T>(v.get<std::int64_t>());
    } else if constexpr (std::is_same_v<T, TimePoint>) {
        if (!v.is_string())
            throwInvalid(object, field,
                         std::string("must be an ISO-8601 timestamp string, got ") + v.type_name());
        const auto t = parseTimestamp(v.get_ref<const std::string&>());
        if (!t)
            throwInvalid(object, field,
                         "is not an ISO-8601 UTC timestamp like 2026-11-30T05:01:46.123Z: " + v.dump());
        return *t;
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!v.is_string())
            throwInvalid(object, field, std::string("must be a string, got ") + v.type_name());
        return v.get<std::string>();
    } else {
        try {
            return v.get<T>();
        } catch (const nlohmann::json::exception& e) {
            rethrowNested(object, field, e);
        }
    }
}

template <class T> T required(const nlohmann::json& j, std::string_view object, const char* field) {
    const auto it = j.find(field);
    if (it == j.end() || it->is_null())
        throwMissing(object, field);
    return convert<T>(*it, object, field);
}

template <class T>
std::optional<T> optional(const nlohmann::json& j, std::string_view object, const char* field) {
    const auto it = j.find(field);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    return convert<T>(*it, object, field);
}

// Absent optional fields are written as null, so every documented field is always present.
template <class T> void put(nlohmann::json& j, const char* field, const std::optional<T>& v) {
    if (!v)
        j[field] = nullptr;
    else if constexpr (std::is_same_v<T, TimePoint>)
        j[field] = formatTimestamp(*v);
    else
        j[field] = *v;
}

// Ordered pairs (cluster WITH pairs, run argument overrides) travel as an array of two-field objects,
// e.g. [{"key": "spark.executor.memory", "value": "4g"}] with keyField "key".
using Pairs = std::vector<std::pair<std::string, std::string>>;
nlohmann::json pairsToJson(const Pairs& pairs, const char* keyField);
// Absent or null reads as no pairs.
Pairs optionalPairs(const nlohmann::json& j, std::string_view object, const char* field,
                    const char* keyField);

} // namespace wire
} // namespace jobdeck
