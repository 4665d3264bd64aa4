#include "core/wire/Timestamp.h"

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

} // namespace jobdeck
