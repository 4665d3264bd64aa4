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

ChangeStamp::Reading PgChangeStamp::read() {
    auto connection = m_connections.freshConnection();
    auto q = connection->query("SELECT (SELECT value FROM change_stamp WHERE id = 1), "
                               "(SELECT generation FROM key_changes WHERE id = 1)");
    if (!q.step() || q.isNull(0) || q.isNull(1))
        throw DatabaseError(databaseBookkeepingMissingMessage("the change_stamp or key_changes row"));
    return {static_cast<std::uint64_t>(q.int64(0)), q.int64(1)};
}

} // namespace jobdeck
