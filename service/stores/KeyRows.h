#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jobdeck {

// The api_keys table of one backend, for CachedKeyStore (which hashes, compares and caches).
class KeyRows {
public:
    // One key as stored.
    struct Row final {
        std::string role; // roleName() text
        std::string salt;
        std::string secretHash;
        bool revoked = false;
        std::string projectName;
        std::string apiKey;
    };
    // What a new key stores.
    struct NewKey final {
        std::string projectName; // the project is created when it does not exist yet
        std::string apiKey;
        std::string role;
        std::string salt;
        std::string secretHash;
    };

    // A key as `jobdeckd keys list` shows it: never its salt or hash.
    struct Listed final {
        std::string projectName;
        std::string projectUid;
        std::string apiKey;
        std::string role;
        std::string createdAt; // as stored (formatTimestamp)
        bool revoked = false;
        bool operator==(const Listed&) const = default;
    };

    virtual ~KeyRows() = default;
    // A number that moves whenever a key is changed or removed, by any process (key_changes).
    virtual std::int64_t generation() = 0;
    virtual std::optional<Row> find(std::string_view projectUid, std::string_view apiKey) = 0;
    // Stores the key in one step with its project; returns the project's uid.
    virtual std::string insert(const NewKey& key) = 0;
    // false when there is no such key.
    virtual bool revoke(const std::string& apiKey) = 0;
    // Every key, revoked ones too, by project name, then in the order they were created.
    virtual std::vector<Listed> list() = 0;
};

} // namespace jobdeck
