#include "core/Timestamp.h"

#include <cstdio>

namespace jobdeck {

namespace {

// Reads exactly n decimal digits at pos.
std::optional<int> digits(std::string_view s, std::size_t pos, std::size_t n) {
    if (pos + n > s.size())
        return std::nullopt;
    int v = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return std::nullopt;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

} // namespace

std::string formatTimestamp(TimePoint t) {
    using namespace std::chrono;
    const auto ms = floor<milliseconds>(t);
    const auto day = floor<days>(ms);
    const year_month_day ymd{day};
    const hh_mm_ss hms{ms - day};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                  static_cast<int>(hms.seconds().count()), static_cast<int>(hms.subseconds().count()));
    return buf;
}

std::optional<TimePoint> parseTimestamp(std::string_view s) {
    using namespace std::chrono;
    const auto y = digits(s, 0, 4), mo = digits(s, 5, 2), d = digits(s, 8, 2);
    const auto h = digits(s, 11, 2), mi = digits(s, 14, 2), se = digits(s, 17, 2);
    if (!y || !mo || !d || !h || !mi || !se || s[4] != '-' || s[7] != '-' || (s[10] != 'T' && s[10] != 't') ||
        s[13] != ':' || s[16] != ':')
        return std::nullopt;
    const year_month_day ymd{year{*y}, month{static_cast<unsigned>(*mo)}, day{static_cast<unsigned>(*d)}};
    if (!ymd.ok() || *h > 23 || *mi > 59 || *se > 59)
        return std::nullopt;

    std::size_t pos = 19;
    int millis = 0;
    if (pos < s.size() && s[pos] == '.') {
        std::size_t n = 0;
        for (++pos; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++n)
            if (n < 3)
                millis = millis * 10 + (s[pos] - '0');
        if (n == 0 || n > 9)
            return std::nullopt;
        for (; n < 3; ++n)
            millis *= 10;
    }

    minutes offset{0};
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
    } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
        const auto oh = digits(s, pos + 1, 2), om = digits(s, pos + 4, 2);
        if (!oh || !om || s[pos + 3] != ':' || *oh > 23 || *om > 59)
            return std::nullopt;
        offset = hours{*oh} + minutes{*om};
        if (s[pos] == '-')
            offset = -offset;
        pos += 6;
    } else {
        return std::nullopt; // a time without a zone is ambiguous
    }
    if (pos != s.size())
        return std::nullopt;

    const auto local = sys_days{ymd} + hours{*h} + minutes{*mi} + seconds{*se} + milliseconds{millis};
    return time_point_cast<system_clock::duration>(local - offset);
}

TimePoint timestampNow() {
    return std::chrono::time_point_cast<TimePoint::duration>(
        std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now()));
}

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
