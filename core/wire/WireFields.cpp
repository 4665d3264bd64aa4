#include "core/wire/WireFields.h"

#include "core/text/AsciiText.h"
#include "core/text/Concat.h"

namespace jobdeck {
namespace wire {

namespace {

std::string path(std::string_view object, std::string_view field) {
    std::string p(object);
    p += '.';
    p += field;
    return p;
}

} // namespace

void throwMissing(std::string_view object, std::string_view field) {
    throw nlohmann::json::out_of_range::create(403, path(object, field) + " is required but missing",
                                               nullptr);
}

void throwInvalid(std::string_view object, std::string_view field, const std::string& problem) {
    throw nlohmann::json::type_error::create(302, path(object, field) + " " + problem, nullptr);
}

void throwUnknownValue(std::string_view object, std::string_view field, std::string_view value,
                       std::string_view expected) {
    std::string problem = concat({"has an unknown value ", quoted(value)});
    if (!expected.empty())
        problem += concat({" (expected ", expected, ")"});
    throwInvalid(object, field, problem);
}

void rethrowNested(std::string_view object, std::string_view field, const nlohmann::json::exception& e) {
    // Drop nlohmann's "[json.exception.type_error.302] " prefix so the message reads as one sentence.
    std::string inner = e.what();
    if (const auto end = inner.find("] "); !inner.empty() && inner.front() == '[' && end != std::string::npos)
        inner.erase(0, end + 2);
    const std::string msg = "in " + path(object, field) + ": " + inner;
    if (e.id >= 400 && e.id < 500)
        throw nlohmann::json::out_of_range::create(e.id, msg, nullptr);
    throw nlohmann::json::type_error::create(302, msg, nullptr);
}

void requireObject(const nlohmann::json& j, std::string_view object) {
    if (!j.is_object())
        throw nlohmann::json::type_error::create(
            302, std::string(object) + " must be a JSON object, got " + j.type_name(), nullptr);
}

nlohmann::json pairsToJson(const Pairs& pairs, const char* keyField) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& [key, value] : pairs)
        a.push_back({{keyField, key}, {"value", value}});
    return a;
}

Pairs optionalPairs(const nlohmann::json& j, std::string_view object, const char* field,
                    const char* keyField) {
    Pairs pairs;
    const auto it = j.find(field);
    if (it == j.end() || it->is_null())
        return pairs;
    if (!it->is_array())
        throwInvalid(object, field,
                     std::string("must be an array of {\"") + keyField + "\", \"value\"} objects, got " +
                         it->type_name());
    for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string item = path(object, field) + "[" + std::to_string(i) + "]";
        requireObject((*it)[i], item);
        auto key = required<std::string>((*it)[i], item, keyField);
        auto value = required<std::string>((*it)[i], item, "value");
        pairs.emplace_back(std::move(key), std::move(value));
    }
    return pairs;
}

} // namespace wire
} // namespace jobdeck
