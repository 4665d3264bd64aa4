#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// The Idempotency-Key header of RUN JOB (CONTRACT §1/§4): 1 to 64 printable ASCII characters, spaces
// excluded (an HTTP header value loses them at its ends, so "k1 " and "k1" would name one run on one path
// and two on another). The one rule for the service's HTTP layer, its run admission and the console.
inline constexpr std::size_t kMaxIdempotencyKeyLength = 64;

// Why `key` cannot be sent, or nullopt when it can.
std::optional<std::string> idempotencyKeyProblem(std::string_view key);
// The same as the service's refusal of the header: "Invalid Idempotency-Key header: <problem>".
std::optional<std::string> idempotencyKeyHeaderProblem(std::string_view key);
inline bool isValidIdempotencyKey(std::string_view key) {
    return !idempotencyKeyProblem(key);
}

// RUN JOB with a key whose active run was started with other argument overrides (CONTRACT §4):
// "Idempotency key <key> was already used with different arguments."
std::string runKeyConflictMessage(std::string_view key);
// Another write (not RUN JOB) with a key used within `window` by another API key or for another
// statement: the one refusal for every such key, whatever differed.
std::string writeKeyConflictMessage(std::string_view key, std::chrono::minutes window);
// A repeated write whose first request's answer could not be read (503): the client may try again.
std::string firstAnswerUnreadableMessage();

// A key naming one run attempt, "<job>-<YYYYMMDD>-<HHMMSS>-<nonce as 4 hex digits>" (UTC), for a dialog
// that starts a new run on each Run: the same key sent again (a retry after a lost answer) returns the
// attempt's run, a new attempt gets a new key. Characters a key cannot hold become '_' and the job name
// is shortened so the key stays within the limit; the result is always valid.
std::string suggestRunAttemptKey(std::string_view jobName, std::chrono::system_clock::time_point at,
                                 std::uint32_t nonce);

} // namespace jobdeck
