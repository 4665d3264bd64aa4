#include "service/stores/OpenStores.h"

#include "service/stores/SqliteStores.h"
#include "service/stores/postgres/PgStores.h"

namespace jobdeck {

bool isPostgresUrl(const std::string& databaseUrl) {
    return databaseUrl.starts_with("postgresql://") || databaseUrl.starts_with("postgres://");
}

std::unique_ptr<Stores> openStores(const std::string& databaseUrl) {
    if (isPostgresUrl(databaseUrl))
        return PgStores::open(databaseUrl);
    return SqliteStores::open(databaseUrl);
}

} // namespace jobdeck
