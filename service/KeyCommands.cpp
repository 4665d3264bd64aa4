#include "service/KeyCommands.h"

#include "core/policy/AuditFilter.h"
#include "core/statements/NameLimits.h"
#include "core/text/AsciiText.h"
#include "core/wire/Timestamp.h"
#include "service/ServiceApp.h"
#include "service/stores/OpenStores.h"
#include "service/stores/Principal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <vector>

#include <unistd.h>

namespace jobdeck {
namespace {

// `create` makes the data directory and the database when they are new; `list` and `revoke` only read
// and change one that exists, so a mistyped --data-dir is an error, not an empty list.
enum class Missing { Create, Refuse };

std::unique_ptr<Stores> openKeyDatabase(const KeyDatabase& where, Missing missing) {
    const std::string dataDir = where.dataDir.empty() ? defaultDataDir() : where.dataDir;
    const std::string url = databaseUrlFor(dataDir, where.databaseUrl);
    if (missing == Missing::Create) {
        prepareDataDir(dataDir);
    } else {
        refuseMissingSqliteDatabase(url);
    }
    refuseOtherUsersDatabase(url);
    refuseEmptyDatabase(dataDir, url);
    OpenStoresOptions options;
    options.passwordFile = where.passwordFile;
    return openStores(url, options);
}

std::vector<KeyRows::Listed> keysOf(Stores& stores, const std::string& project) {
    std::vector<KeyRows::Listed> keys = stores.keys().listKeys();
    if (project.empty())
        return keys;
    if (!stores.projects().findProjectUidByName(project))
        throw std::runtime_error("there is no project " + quoted(project) +
                                 " (jobdeckd keys list shows them all)");
    std::erase_if(keys, [&](const KeyRows::Listed& key) { return key.projectName != project; });
    return keys;
}

// Columns as wide as their widest cell, two blanks apart.
void printTable(const std::vector<std::array<std::string, 6>>& rows, std::ostream& out) {
    std::array<std::size_t, 6> widths{};
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c)
            line += c + 1 == row.size() ? row[c] : row[c] + std::string(widths[c] - row[c].size() + 2, ' ');
        out << line << "\n";
    }
}

// The audit entry of a key command, in the key's project: what the project's admins read with SHOW
// AUDIT_LOG. The command runs as the host's OS user, so the entry names that user and no API key.
AuditEntry keyCommandAudit(std::string_view command, const std::string& projectUid, const std::string& apiKey,
                           const std::string& role) {
    AuditEntry entry;
    entry.at = timestampNow();
    entry.projectUid = projectUid;
    entry.statement = keyCommandAuditText(command, apiKey, role, userName(::geteuid()));
    entry.outcome = ApiOperationStatus::Success;
    return entry;
}

} // namespace

void createKeyCommand(const KeyDatabase& where, const std::string& project, const std::string& roleText,
                      bool json, std::ostream& out) {
    const auto role = roleFromName(roleText);
    if (!role)
        throw std::runtime_error("invalid role " + quoted(roleText) + ": expected viewer, operator or admin");
    if (const auto problem = projectNameProblem(project))
        throw std::runtime_error(*problem);
    const auto stores = openKeyDatabase(where, Missing::Create);
    // The key and its audit entry together, or neither.
    const CreatedKey key = stores->unitOfWork().run([&] {
        CreatedKey created = stores->keys().createKey(project, *role);
        stores->audit().appendAudit(keyCommandAudit("create", created.projectUid, created.apiKey,
                                                    std::string(roleName(created.role))));
        return created;
    });
    if (json) {
        out << nlohmann::json{{"projectUid", key.projectUid},
                              {"apiKey", key.apiKey},
                              {"apiSecret", key.apiSecret},
                              {"role", roleName(key.role)}}
                   .dump()
            << std::endl;
        return;
    }
    out << "project:    " << key.projectName << "\n"
        << "projectUid: " << key.projectUid << "\n"
        << "apiKey:     " << key.apiKey << "\n"
        << "apiSecret:  " << key.apiSecret << "\n"
        << "role:       " << roleName(key.role) << "\n"
        << "The secret is shown only this once; jobdeckd keeps only a hash of it." << std::endl;
}

void listKeysCommand(const KeyDatabase& where, const std::string& project, bool json, std::ostream& out) {
    const auto stores = openKeyDatabase(where, Missing::Refuse);
    const std::vector<KeyRows::Listed> keys = keysOf(*stores, project);
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& key : keys)
            list.push_back({{"project", key.projectName},
                            {"projectUid", key.projectUid},
                            {"apiKey", key.apiKey},
                            {"role", key.role},
                            {"createdAt", key.createdAt},
                            {"revoked", key.revoked}});
        out << list.dump() << std::endl;
        return;
    }
    if (keys.empty()) {
        out << (project.empty() ? "No API keys." : "No API keys in project " + quoted(project) + ".")
            << std::endl;
        return;
    }
    std::vector<std::array<std::string, 6>> rows{
        {"PROJECT", "PROJECT UID", "API KEY", "ROLE", "CREATED", "STATE"}};
    for (const auto& key : keys)
        rows.push_back({key.projectName, key.projectUid, key.apiKey, key.role, key.createdAt,
                        key.revoked ? "revoked" : "active"});
    printTable(rows, out);
    out.flush();
}

void revokeKeyCommand(const KeyDatabase& where, const std::string& apiKey, std::ostream& out) {
    const auto stores = openKeyDatabase(where, Missing::Refuse);
    const std::vector<KeyRows::Listed> keys = stores->keys().listKeys();
    const auto key = std::ranges::find(keys, apiKey, &KeyRows::Listed::apiKey);
    const bool revoked = key != keys.end() && stores->unitOfWork().run([&] {
        if (!stores->keys().revokeKey(apiKey))
            return false;
        if (!key->revoked)
            stores->audit().appendAudit(keyCommandAudit("revoke", key->projectUid, key->apiKey, key->role));
        return true;
    });
    if (!revoked)
        throw std::runtime_error("there is no API key " + quoted(apiKey) +
                                 " (jobdeckd keys list shows them)");
    out << (key->revoked ? "API key " + key->apiKey + " was already revoked"
                         : "Revoked API key " + key->apiKey)
        << " (" << key->role << " of project " << quoted(key->projectName)
        << "): requests with it are refused from now on." << std::endl;
}

} // namespace jobdeck
