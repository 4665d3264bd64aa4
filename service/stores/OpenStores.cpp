#include "service/stores/OpenStores.h"

#include "core/deploy/DatabaseUrl.h"
#include "core/parameters/SecretMasking.h"
#include "service/stores/DatabaseMarker.h"
#include "service/stores/SqliteStores.h"
#include "service/stores/postgres/PgStores.h"

#include <spdlog/spdlog.h>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace jobdeck {

namespace {

// The connection value libpq gets: the URI's password encoded so that libpq reads it whole, and the
// password file's password added.
std::string postgresConnection(const std::string& databaseUrl, const std::string& passwordFile) {
    std::string connection = normalizedDatabaseValue(databaseUrl);
    if (passwordFile.empty())
        return connection;
    if (hasDatabasePassword(databaseUrl))
        throw std::runtime_error(databasePasswordGivenTwiceMessage());
    return withDatabasePassword(connection, readDatabasePasswordFile(passwordFile));
}

std::unique_ptr<Stores> openPostgres(const std::string& connection) {
    try {
        return PgStores::open(connection);
    } catch (const DatabaseError& e) {
        // libpq quotes what it could not read (a host name, an option): never a piece of a password.
        std::string message = e.what();
        scrubSecrets(message, databaseSecrets(connection));
        throw DatabaseError(message, e.cause());
    }
}

} // namespace

bool isPostgresUrl(const std::string& databaseUrl) {
    return isPostgres(databaseKind(databaseUrl));
}

std::string readDatabasePasswordFile(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        throw std::runtime_error(databasePasswordFileUnreadableMessage(path, std::strerror(errno)));
    if (S_ISDIR(info.st_mode))
        throw std::runtime_error(databasePasswordFileUnreadableMessage(path, std::strerror(EISDIR)));
    std::ifstream in(path, std::ios::binary);
    std::string password;
    if (!in || (!std::getline(in, password) && !in.eof()))
        throw std::runtime_error(databasePasswordFileUnreadableMessage(path, std::strerror(errno)));
    if (password.ends_with('\r'))
        password.pop_back();
    if (password.empty())
        throw std::runtime_error(databasePasswordFileEmptyMessage(path));
    if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0)
        spdlog::warn("{}",
                     secretFileReadableByOthersWarning(path, info.st_mode & 07777, "the database password"));
    return password;
}

namespace {

// The checks of checkDatabaseOptions; returns libpq's connection value for PostgreSQL, "" for SQLite.
std::string checkedConnection(const std::string& databaseUrl, const OpenStoresOptions& options) {
    switch (databaseKind(databaseUrl)) {
    case DatabaseKind::PostgresUri:
    case DatabaseKind::PostgresKeywords:
        return postgresConnection(databaseUrl, options.passwordFile);
    case DatabaseKind::Invalid:
        throw std::runtime_error(invalidDatabaseValueMessage(databaseUrl));
    case DatabaseKind::Sqlite:
        break;
    }
    if (!options.passwordFile.empty())
        throw std::runtime_error(databasePasswordFileForSqliteMessage());
    if (const std::string path = DatabaseMarker::sqlitePath(databaseUrl); !path.empty())
        DatabaseMarker::checkBeforeOpen(path, options.init);
    return {};
}

} // namespace

void checkDatabaseOptions(const std::string& databaseUrl, const OpenStoresOptions& options) {
    checkedConnection(databaseUrl, options);
}

std::unique_ptr<Stores> openStores(const std::string& databaseUrl, const OpenStoresOptions& options) {
    const std::string connection = checkedConnection(databaseUrl, options);
    if (!connection.empty())
        return openPostgres(connection);
    auto stores = SqliteStores::open(databaseUrl);
    if (const std::string path = DatabaseMarker::sqlitePath(databaseUrl); !path.empty())
        DatabaseMarker::record(path);
    return stores;
}

} // namespace jobdeck
