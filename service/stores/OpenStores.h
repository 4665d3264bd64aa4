#pragma once

#include "service/stores/Stores.h"

#include <memory>
#include <string>

namespace jobdeck {

// The stores a database URL names: postgresql://… or postgres://… (PgStores), sqlite:<path> or a plain
// file path (SqliteStores). Throws DatabaseError with one clear line.
std::unique_ptr<Stores> openStores(const std::string& databaseUrl);

// Whether the URL names a PostgreSQL database.
bool isPostgresUrl(const std::string& databaseUrl);

} // namespace jobdeck
