#pragma once

#include "service/stores/Stores.h"

#include <memory>
#include <string>

namespace jobdeck {

struct OpenStoresOptions final {
    // serve --init: a SQLite database whose data directory shows one was there (DatabaseMarker) may be
    // created anew.
    bool init = false;
};

// The stores a database URL names: postgresql://… or postgres://… (PgStores), sqlite:<path> or a plain
// file path (SqliteStores). A SQLite database that was deleted is refused (DatabaseMarker), and one
// that opens gets its marker. Throws DatabaseError (or std::runtime_error) with one clear line.
std::unique_ptr<Stores> openStores(const std::string& databaseUrl, const OpenStoresOptions& options = {});

// Whether the URL names a PostgreSQL database.
bool isPostgresUrl(const std::string& databaseUrl);

} // namespace jobdeck
