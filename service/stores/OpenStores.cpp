#include "service/stores/OpenStores.h"

#include "service/stores/DatabaseMarker.h"
#include "service/stores/SqliteStores.h"
#include "service/stores/postgres/PgStores.h"

namespace jobdeck {

bool isPostgresUrl(const std::string& databaseUrl) {
    return databaseUrl.starts_with("postgresql://") || databaseUrl.starts_with("postgres://");
}

std::unique_ptr<Stores> openStores(const std::string& databaseUrl, const OpenStoresOptions& options) {
    if (isPostgresUrl(databaseUrl))
        return PgStores::open(databaseUrl);
    const std::string path = DatabaseMarker::sqlitePath(databaseUrl);
    if (!path.empty())
        DatabaseMarker::checkBeforeOpen(path, options.init);
    auto stores = SqliteStores::open(databaseUrl);
    if (!path.empty())
        DatabaseMarker::record(path);
    return stores;
}

} // namespace jobdeck
