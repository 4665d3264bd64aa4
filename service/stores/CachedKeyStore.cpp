#include "service/stores/CachedKeyStore.h"

#include "core/policy/Role.h"
#include "core/statements/NameLimits.h"
#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseError.h"

#include "service/stores/RandomIds.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>

namespace jobdeck {

namespace {

constexpr std::size_t saltBytes = 16;
// Verified keys kept; beyond it the cache starts over.
constexpr std::size_t keyCacheLimit = 10'000;
constexpr std::size_t keyBytes = 16;
constexpr std::size_t secretBytes = 32;

std::array<unsigned char, SHA256_DIGEST_LENGTH> hashSecret(std::string_view salt, std::string_view secret) {
    // Every request hashes its secret: the algorithm is fetched once (EVP_sha256() would look it up
    // on every init) and each thread reuses its context.
    static const std::unique_ptr<EVP_MD, decltype(&EVP_MD_free)> sha256(
        EVP_MD_fetch(nullptr, "SHA256", nullptr), &EVP_MD_free);
    thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(),
                                                                                   &EVP_MD_CTX_free);
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    unsigned int size = 0;
    if (!sha256 || !ctx || EVP_DigestInit_ex(ctx.get(), sha256.get(), nullptr) != 1 ||
        EVP_DigestUpdate(ctx.get(), salt.data(), salt.size()) != 1 ||
        EVP_DigestUpdate(ctx.get(), secret.data(), secret.size()) != 1 ||
        EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1)
        throw DatabaseError(secretNotHashedMessage());
    return digest;
}

} // namespace

std::optional<Principal> CachedKeyStore::authenticate(std::string_view projectUid, std::string_view apiKey,
                                                      std::string_view apiSecret,
                                                      std::uint64_t* changeStampRead) {
    // key_changes is read again only when something was committed since it was last read, or with the
    // stamp when the backend brings both in one read (ChangeStamp::read).
    const ChangeStamp::Reading reading = m_changeStamp.read();
    const std::uint64_t stamp = reading.stamp;
    if (changeStampRead)
        *changeStampRead = stamp;
    std::int64_t generation = 0;
    bool current = false;
    {
        const std::lock_guard lock(m_keysMutex);
        current = stamp == m_keysStamp && m_keysGeneration >= 0;
        generation = m_keysGeneration;
    }
    if (reading.keyGeneration)
        generation = *reading.keyGeneration;
    else if (!current)
        generation = m_rows.generation();
    // Built in a buffer of the thread's: a cached key costs no allocation to look up.
    thread_local std::string cacheKey;
    cacheKey.assign(projectUid);
    cacheKey += '\n';
    cacheKey += apiKey;
    std::shared_ptr<const CachedKey> cached;
    {
        const std::lock_guard lock(m_keysMutex);
        if (generation != m_keysGeneration) {
            m_keys.clear();
            m_keysGeneration = generation;
        }
        if (!current)
            m_keysStamp = stamp;
        if (const auto it = m_keys.find(cacheKey); it != m_keys.end())
            cached = it->second;
    }
    if (cached) {
        const auto digest = hashSecret(cached->salt, apiSecret);
        ++m_secretComparisons;
        if (CRYPTO_memcmp(digest.data(), cached->secretHash.data(), digest.size()) == 0)
            return cached->principal;
        // The lookup an unknown key costs, so that a wrong secret does not answer sooner and tell
        // that the key exists.
        lookUpKey(projectUid, apiKey);
        return std::nullopt;
    }

    const KeyRow row = lookUpKey(projectUid, apiKey);
    const auto digest = hashSecret(row.salt, apiSecret);
    ++m_secretComparisons;
    const bool matches = CRYPTO_memcmp(digest.data(), row.secretHash.data(), digest.size()) == 0;
    if (!row.usable || !matches)
        return std::nullopt;
    const std::string& salt = row.salt;
    const std::string& storedHash = row.secretHash;
    const Principal& principal = row.principal;
    {
        // Only under the generation read before the lookup: a key revoked since is never cached.
        const std::lock_guard lock(m_keysMutex);
        if (m_keysGeneration == generation) {
            if (m_keys.size() >= keyCacheLimit)
                m_keys.clear();
            m_keys[cacheKey] = std::make_shared<const CachedKey>(CachedKey{salt, storedHash, principal});
        }
    }
    return principal;
}

CachedKeyStore::KeyRow CachedKeyStore::lookUpKey(std::string_view projectUid, std::string_view apiKey) {
    // A fixed stand-in so that an unknown key costs the same hash and comparison as a known one.
    static const std::string dummySalt(saltBytes, '\0');
    static const std::string dummyHash(SHA256_DIGEST_LENGTH, '\0');
    ++m_keyLookups;
    KeyRow row{dummySalt, dummyHash, false, {}};
    auto stored = m_rows.find(projectUid, apiKey);
    if (!stored)
        return row;
    const auto role = roleFromName(stored->role);
    row.salt = std::move(stored->salt);
    row.secretHash = std::move(stored->secretHash);
    const bool wellFormed = role.has_value() && row.secretHash.size() == SHA256_DIGEST_LENGTH;
    if (!wellFormed)
        row.secretHash = dummyHash;
    row.usable = wellFormed && !stored->revoked;
    row.principal = Principal{std::string(projectUid), std::move(stored->projectName),
                              std::move(stored->apiKey), role.value_or(Role::Viewer)};
    return row;
}

CreatedKey CachedKeyStore::createKey(const std::string& projectName, Role role) {
    if (const auto problem = projectNameProblem(projectName))
        throw DatabaseError(*problem);
    CreatedKey created;
    created.projectName = projectName;
    created.role = role;
    created.apiKey = RandomIds::randomHex(keyBytes);
    created.apiSecret = RandomIds::randomHex(secretBytes);
    std::array<unsigned char, saltBytes> salt{};
    RandomIds::fill(salt.data(), salt.size());
    const std::string saltText(reinterpret_cast<const char*>(salt.data()), salt.size());
    const auto digest = hashSecret(saltText, created.apiSecret);

    created.projectUid =
        m_rows.insert({projectName, created.apiKey, std::string(roleName(role)), saltText,
                       std::string(reinterpret_cast<const char*>(digest.data()), digest.size())});
    return created;
}

bool CachedKeyStore::revokeKey(const std::string& apiKey) {
    return m_rows.revoke(apiKey);
}

std::vector<KeyRows::Listed> CachedKeyStore::listKeys() {
    return m_rows.list();
}

} // namespace jobdeck
