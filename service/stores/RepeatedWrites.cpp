#include "service/stores/RepeatedWrites.h"

#include "core/policy/IdempotencyKey.h"
#include "core/wire/Timestamp.h"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace jobdeck {

namespace {

std::string sha256Hex(std::string_view text) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256 is not available");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * size);
    for (unsigned int i = 0; i < size; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 0xf];
    }
    return hex;
}

} // namespace

RepeatedWrites::RepeatedWrites(WriteKeyStore& writeKeys)
    : m_writeKeys(writeKeys) {}

std::string RepeatedWrites::conflictMessage(std::string_view key) {
    return writeKeyConflictMessage(key, kWindow);
}

void RepeatedWrites::forgetExpired(Clock::time_point now) {
    while (!m_order.empty() && now - m_order.front().first > kWindow) {
        // A key claimed again since has a newer entry: that one stays.
        if (const auto it = m_claims.find(m_order.front().second);
            it != m_claims.end() && it->second.at == m_order.front().first)
            m_claims.erase(it);
        m_order.pop_front();
    }
}

RepeatedWrites::Claim RepeatedWrites::claim(const std::string& projectUid, const std::string& key,
                                            std::string_view callerKeyId, std::string_view statement,
                                            const std::string& requestId) {
    // The caller's key id, length first so that no key id and statement run into another pair.
    const std::string hash = sha256Hex(std::to_string(callerKeyId.size()) + ':' + std::string(callerKeyId) +
                                       std::string(statement));
    const auto answer = [&](const std::string& firstHash, const std::string& firstRequestId) {
        if (firstHash != hash)
            return Claim{Claim::Kind::Conflict, {}, {}};
        return Claim{Claim::Kind::Repeat, firstRequestId, {}};
    };
    const Clock::time_point now = Clock::now();
    std::string mapKey = projectUid + '\n' + key;
    // Held across the database look-up: two requests with one key must not both be first.
    const std::lock_guard lock(m_mutex);
    forgetExpired(now);
    if (const auto it = m_claims.find(mapKey); it != m_claims.end())
        return answer(it->second.statementHash, it->second.requestId);
    // Recorded by an earlier process within the window.
    if (const auto stored = m_writeKeys.findWriteKey(projectUid, key, timestampNow() - kWindow))
        return answer(stored->statementHash, stored->requestId);
    m_claims[mapKey] = Entry{hash, requestId, now};
    m_order.emplace_back(now, std::move(mapKey));
    return Claim{Claim::Kind::First, {}, hash};
}

void RepeatedWrites::release(const std::string& projectUid, const std::string& key,
                             const std::string& requestId) {
    const std::lock_guard lock(m_mutex);
    // Its entry in m_order stays until it expires; forgetExpired() skips what is no longer there.
    if (const auto it = m_claims.find(projectUid + '\n' + key);
        it != m_claims.end() && it->second.requestId == requestId)
        m_claims.erase(it);
}

void RepeatedWrites::record(WriteKeyStore& writeKeys, const std::string& projectUid, const std::string& key,
                            const std::string& statementHash, const std::string& requestId) {
    const TimePoint now = timestampNow();
    writeKeys.saveWriteKey(projectUid, {key, statementHash, requestId, now}, now - kWindow);
}

} // namespace jobdeck
