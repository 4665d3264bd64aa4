#pragma once

#include "service/stores/ChangeStamp.h"
#include "service/stores/KeyRows.h"
#include "service/stores/KeyStore.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace jobdeck {

// The API keys of either backend, over its KeyRows: only a salted hash of each secret is stored. Keys
// that verified once are cached (salt, hash, principal; never the secret), so a known key costs one
// hash and no lookup of the key; the cache is dropped whenever the rows' generation moves (a
// revocation, by any process), which is read again only when the change stamp moved.
class CachedKeyStore final : public KeyStore {
public:
    CachedKeyStore(KeyRows& rows, ChangeStamp& changeStamp)
        : m_rows(rows)
        , m_changeStamp(changeStamp) {}

    std::optional<Principal> authenticate(std::string_view projectUid, std::string_view apiKey,
                                          std::string_view apiSecret,
                                          std::uint64_t* changeStampRead = nullptr) override;
    CreatedKey createKey(const std::string& projectName, Role role) override;
    bool revokeKey(const std::string& apiKey) override;
    std::vector<KeyRows::Listed> listKeys() override;
    std::uint64_t secretComparisons() const override { return m_secretComparisons.load(); }
    std::uint64_t keyLookups() const override { return m_keyLookups.load(); }

private:
    struct CachedKey {
        std::string salt;
        std::string secretHash;
        Principal principal;
    };
    // The key's row: salt and hash (stand-ins when unknown), and whether it may authenticate.
    struct KeyRow {
        std::string salt;
        std::string secretHash;
        bool usable = false; // found, with a known role and a well-formed hash, and not revoked
        Principal principal;
    };
    KeyRow lookUpKey(std::string_view projectUid, std::string_view apiKey);

    KeyRows& m_rows;
    ChangeStamp& m_changeStamp;
    std::atomic<std::uint64_t> m_secretComparisons{0};
    std::atomic<std::uint64_t> m_keyLookups{0};

    std::mutex m_keysMutex;
    std::uint64_t m_keysStamp = 0; // the change stamp at which m_keysGeneration was read
    std::int64_t m_keysGeneration = -1;
    std::unordered_map<std::string, std::shared_ptr<const CachedKey>>
        m_keys; // by project uid + '\n' + api key
};

} // namespace jobdeck
