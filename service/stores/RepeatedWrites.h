#pragma once

#include "service/stores/WriteKeyStore.h"

#include <chrono>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace jobdeck {

// Writes other than RUN JOB sent again with the same Idempotency-Key: an HTTP client may send a POST
// twice when its answer was lost (Qt's network stack re-sends once when a kept-alive connection drops
// before any answer), and the console sends a fresh key with every write. Within kWindow of the first
// request, a repeat by the same API key with the same statement is answered with the first request's
// id and status instead of running again; the key sent by another API key or with another statement is
// refused (core writeKeyConflictMessage). A key names the caller's own write: the API key's id is hashed
// with the statement, so a replay never gives one caller's answer to another. Only a write that
// succeeded keeps its key (release()): one refused or failed changed nothing, and its repeat runs again
// (after its role allowed it, or what stood in its way is gone). RUN JOB keeps CONTRACT §4's rules for
// its key (RunAdmissions).
//
// A key is claimed in memory when its first request arrives, so a repeat that arrives while the first
// still runs waits for it; it is recorded in the database with the first request's status, in the same
// transaction (record()), so a repeat after a restart within the window is still answered. A first
// request that never committed (the process ended) leaves no record: its repeat after a restart runs.
class RepeatedWrites final {
public:
    static constexpr std::chrono::minutes kWindow{10};

    explicit RepeatedWrites(WriteKeyStore& writeKeys);

    struct Claim final {
        enum class Kind { First, Repeat, Conflict };
        Kind kind = Kind::First;
        std::string requestId;     // Repeat: the first request's id
        std::string statementHash; // First: what record() stores
    };
    // `requestId` is the id the request has if it is the first with `key`; `callerKeyId` the id of the
    // API key that sends it. Thread-safe.
    Claim claim(const std::string& projectUid, const std::string& key, std::string_view callerKeyId,
                std::string_view statement, const std::string& requestId);
    // The first request with `key` (`requestId`) did not succeed: the key is free again.
    void release(const std::string& projectUid, const std::string& key, const std::string& requestId);
    // Inside the first request's transaction, beside its status (a successful one).
    static void record(WriteKeyStore& writeKeys, const std::string& projectUid, const std::string& key,
                       const std::string& statementHash, const std::string& requestId);

    // writeKeyConflictMessage of core, with this window.
    static std::string conflictMessage(std::string_view key);

private:
    using Clock = std::chrono::steady_clock;
    struct Entry {
        std::string statementHash;
        std::string requestId;
        Clock::time_point at;
    };
    void forgetExpired(Clock::time_point now);

    WriteKeyStore& m_writeKeys;
    std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_claims;               // by project uid + '\n' + key
    std::deque<std::pair<Clock::time_point, std::string>> m_order; // claims' map keys, oldest first
};

} // namespace jobdeck
