#include "core/policy/IdempotencyKey.h"

#include <cstdio>

namespace jobdeck {

namespace {
bool isKeyCharacter(char c) {
    return c > 0x20 && c < 0x7f;
}
} // namespace

std::optional<std::string> idempotencyKeyProblem(std::string_view key) {
    if (key.empty())
        return std::string("The idempotency key is empty.");
    if (key.size() > kMaxIdempotencyKeyLength) {
        return "The idempotency key has " + std::to_string(key.size()) + " characters; at most " +
               std::to_string(kMaxIdempotencyKeyLength) + " are allowed.";
    }
    for (std::size_t i = 0; i < key.size(); ++i) {
        const auto c = static_cast<unsigned char>(key[i]);
        if (!isKeyCharacter(key[i])) {
            char code[8];
            std::snprintf(code, sizeof code, "0x%02X", c);
            return "The idempotency key may only hold printable ASCII characters without spaces; character " +
                   std::to_string(i + 1) + " is " + (c == ' ' ? std::string("a space") : std::string(code)) +
                   ".";
        }
    }
    return std::nullopt;
}

std::optional<std::string> idempotencyKeyHeaderProblem(std::string_view key) {
    if (auto problem = idempotencyKeyProblem(key))
        return "Invalid Idempotency-Key header: " + *problem;
    return std::nullopt;
}

std::string runKeyConflictMessage(std::string_view key) {
    return "Idempotency key " + std::string(key) + " was already used with different arguments.";
}

std::string writeKeyConflictMessage(std::string_view key, std::chrono::minutes window) {
    return "Idempotency-Key " + std::string(key) + " was already used in the last " +
           std::to_string(window.count()) +
           " minutes with a different statement or another API key; send a new key for a new statement.";
}

std::string firstAnswerUnreadableMessage() {
    return "The service could not read the first answer to this Idempotency-Key; try again";
}

namespace {

// `jobName` as a key's head before `tail`, within the limit.
std::string keyWithTail(std::string_view jobName, const std::string& tail) {
    std::string name;
    for (char c : jobName)
        name += isKeyCharacter(c) ? c : '_';
    if (name.empty())
        name = "run";
    if (name.size() + tail.size() > kMaxIdempotencyKeyLength)
        name.resize(kMaxIdempotencyKeyLength - tail.size());
    return name + tail;
}

} // namespace

std::string suggestRunAttemptKey(std::string_view jobName, std::chrono::system_clock::time_point at,
                                 std::uint32_t nonce) {
    using namespace std::chrono;
    const auto day = floor<days>(at);
    const year_month_day date(day);
    const hh_mm_ss time(floor<seconds>(at - day));
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "-%04d%02u%02u-%02d%02d%02d-%04x", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                  static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                  static_cast<int>(time.seconds().count()), static_cast<unsigned>(nonce & 0xffffu));
    return keyWithTail(jobName, suffix);
}

} // namespace jobdeck
