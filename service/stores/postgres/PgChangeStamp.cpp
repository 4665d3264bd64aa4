#include "service/stores/postgres/PgChangeStamp.h"

#include "core/wire/DatabaseFaults.h"
namespace jobdeck {

namespace {

// The first 64 bits of the MD5 of the snapshot's text form ("xmin:xmax:xip,..."). A digest, because
// the list of ids in progress has no bound; two different snapshots share one only by chance (2^-64).
constexpr const char* kStampSql = "('x' || substr(md5(pg_current_snapshot()::text), 1, 16))::bit(64)::bigint";

// 0 means "not read" to the stamp's users (RequestContext).
std::uint64_t stampOf(std::int64_t digest) {
    const auto stamp = static_cast<std::uint64_t>(digest);
    return stamp == 0 ? 1 : stamp;
}

} // namespace

std::uint64_t PgChangeStamp::current() {
    return read().stamp; // the generation comes in the same round trip
}

ChangeStamp::Reading PgChangeStamp::read() {
    auto connection = m_connections.freshConnection();
    static const std::string sql =
        std::string("SELECT ") + kStampSql + ", (SELECT generation FROM key_changes WHERE id = 1)";
    auto q = connection->query(sql);
    if (!q.step() || q.isNull(0) || q.isNull(1))
        throw DatabaseError(databaseBookkeepingMissingMessage("the key_changes row"));
    return {stampOf(q.int64(0)), q.int64(1)};
}

} // namespace jobdeck
