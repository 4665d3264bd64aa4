#pragma once

#include "service/stores/Stores.h"

#include <memory>
#include <string>

namespace jobdeck {

struct OpenStoresOptions final {
    // serve --init: a SQLite database whose data directory shows one was there (DatabaseMarker) may be
    // created anew.
    bool init = false;
    // --database-password-file: its first line is the PostgreSQL password.
    std::string passwordFile;
};

// The stores a --database value names (core databaseKind): a postgresql:// or postgres:// URI or a
// libpq keyword string ("host=… dbname=…") opens PgStores, sqlite:<path> or a plain file path
// SqliteStores; a value shaped like a keyword string with a word libpq does not know is refused
// (it is never taken as a file name). A SQLite database that was deleted is refused (DatabaseMarker),
// and one that opens gets its marker. Throws DatabaseError or std::runtime_error with one clear line, in
// which every password, in every form, is ****.
std::unique_ptr<Stores> openStores(const std::string& databaseUrl, const OpenStoresOptions& options = {});

// What openStores would refuse before connecting to or opening anything (`jobdeckd serve --check`):
// the value itself, the password given twice or its file, a password file with SQLite, a SQLite
// database that was deleted. Throws as openStores does.
void checkDatabaseOptions(const std::string& databaseUrl, const OpenStoresOptions& options);

// Whether the value names a PostgreSQL database (a URI or a keyword string).
bool isPostgresUrl(const std::string& databaseUrl);

// The password of --database-password-file: the file's first line without its line ending. Throws
// std::runtime_error for a missing, unreadable or empty file or a directory; warns (log) when others
// may read it.
std::string readDatabasePasswordFile(const std::string& path);

} // namespace jobdeck
