#include "service/stores/postgres/PgChangeStamp.h"

#include "core/wire/DatabaseFaults.h"
namespace jobdeck {

std::uint64_t PgChangeStamp::current() {
    auto connection = m_connections.freshConnection();
    auto q = connection->query("SELECT value FROM change_stamp WHERE id = 1");
    if (!q.step())
        throw DatabaseError(databaseBookkeepingMissingMessage("the change_stamp row"));
    return static_cast<std::uint64_t>(q.int64(0));
}

} // namespace jobdeck
