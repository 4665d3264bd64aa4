#pragma once

#include <ostream>
#include <string>

namespace jobdeck {

// `jobdeckd keys create | list | revoke`: API keys managed on the server, beside a running service or
// without one (docs/service.md, "API keys"). Each opens the database the way `serve` would; a failure
// is thrown with its one-line reason.
struct KeyDatabase final {
    std::string dataDir; // empty: defaultDataDir()
    std::string databaseUrl;
    std::string passwordFile;
};

// Prints the new key's credentials once: `json` one object, else one `name: value` line each.
void createKeyCommand(const KeyDatabase& where, const std::string& project, const std::string& role,
                      bool json, std::ostream& out);
// Prints every key (of `project` when not empty), revoked ones too; never a secret or its hash.
void listKeysCommand(const KeyDatabase& where, const std::string& project, bool json, std::ostream& out);
// Revokes the key: every process serving the database refuses it from its next request on.
void revokeKeyCommand(const KeyDatabase& where, const std::string& apiKey, std::ostream& out);

} // namespace jobdeck
