#pragma once

#include "service/stores/KeyRows.h"
#include "service/stores/Principal.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace jobdeck {

// What `jobdeckd keys create` prints once; only a salted hash of the secret is stored.
struct CreatedKey final {
    std::string projectUid;
    std::string projectName;
    std::string apiKey;
    std::string apiSecret;
    Role role = Role::Viewer;
};

// The API keys: who may call, for which project, in which role.
class KeyStore {
public:
    virtual ~KeyStore() = default;
    // nullopt for an unknown project or key, a wrong secret or a revoked key; the secret is always
    // hashed and compared in constant time, whichever of these applies. `changeStampRead`, when given,
    // gets the ChangeStamp read before anything else (for the request's RequestContext; never kept with
    // the key).
    virtual std::optional<Principal> authenticate(std::string_view projectUid, std::string_view apiKey,
                                                  std::string_view apiSecret,
                                                  std::uint64_t* changeStampRead = nullptr) = 0;
    // Creates the project when it does not exist yet.
    virtual CreatedKey createKey(const std::string& projectName, Role role) = 0;
    // false when there is no such key. Requests with it are refused from the next one on, in every
    // process sharing the database.
    virtual bool revokeKey(const std::string& apiKey) = 0;
    // Every key, revoked ones too (KeyRows::list).
    virtual std::vector<KeyRows::Listed> listKeys() = 0;
    // How many secret comparisons authenticate() has made; lets tests check that every path compares.
    virtual std::uint64_t secretComparisons() const = 0;
    // How many times authenticate() looked a key up in the database: an unknown key and a known key
    // with a wrong secret each cost one, so that neither answers sooner than the other.
    virtual std::uint64_t keyLookups() const = 0;
};

} // namespace jobdeck
