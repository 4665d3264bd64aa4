#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

// The one schema of jobdeckd's database, for both backends, and its shared version numbering
// (docs/storage.md, "Schema and migrations").
namespace jobdeck::schema {

enum class Dialect { Sqlite, Postgresql };

// One change of the schema, written once. `sql` holds both dialects' DDL with the type map's
// placeholders ({INTEGER}, {BOOLEAN}, {BLOB}, {TIMESTAMP}, {ROWID}, {SEQUENCE}; see typeMap()); the
// other two hold what only one backend has (its triggers), run after `sql`, also through the map.
struct Migration {
    const char* sql = "";
    const char* sqliteOnly = "";
    const char* postgresqlOnly = "";
};

// One placeholder of the type map and its spelling in each dialect.
struct TypeSpelling {
    std::string_view placeholder;
    std::string_view sqlite;
    std::string_view postgresql;
};
std::span<const TypeSpelling> typeMap();

// The shared version both released histories reach: SQLite's 6 and PostgreSQL's 4.
constexpr int baselineVersion = 6;

// The migrations: [0] creates the schema at baselineVersion in an empty database, [i] makes shared
// version baselineVersion + i. Adding a migration is appending one entry; never edit a released one.
std::span<const Migration> migrations();
// The version `list` brings a database to.
int latestVersion(std::span<const Migration> list);

// `neutral` in `dialect`'s spelling; throws std::logic_error on a placeholder the map lacks.
std::string dialectSql(Dialect dialect, std::string_view neutral);
// A migration's whole script in `dialect`.
std::string migrationSql(Dialect dialect, const Migration& migration);

// Databases record their version in schema_version: SQLite's released numbers are the shared ones;
// PostgreSQL's released 1-4 are shared 3-6 (it began at SQLite's 3). From shared 7 on, both record
// the shared number, so a jobdeckd of either released history refuses it as newer.
int sharedVersion(Dialect dialect, int recorded);
int recordedVersion(Dialect dialect, int shared);

// The scripts that bring a database at shared version `shared` (0: empty) to latestVersion(list):
// the rest of the dialect's released history `released` (its entry i made its version i + 1) when the
// database is older than the baseline, then the shared entries.
std::vector<std::string> upgradeScripts(Dialect dialect, int shared, std::span<const char* const> released,
                                        std::span<const Migration> list);

} // namespace jobdeck::schema
