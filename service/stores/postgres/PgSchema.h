#pragma once

#include "service/stores/Migrations.h"
#include "service/stores/postgres/PgConnections.h"

#include <cstdint>
#include <span>
#include <string>

namespace jobdeck {

// jobdeckd's PostgreSQL database: the schema (schema::migrations(), written once for both backends) and
// the versions it was released at before the shared numbering, brought up to date when a jobdeckd
// opens it. The tables and columns are SqliteSchema's (see there), with PostgreSQL's types (the type
// map: BIGINT for integers and flags, BYTEA for salts and hashes, identity columns for ids and seq),
// and requests.seq (the order rows were made, which SQLite's rowid gives the sweep). events.seq is drawn
// by the events_seq trigger once the inserting transaction has its id (PgEventStore). Besides them:
//   schema_version(version)
class PgSchema final {
public:
    // The advisory lock a migration holds for its transaction ("jobdeck" in ASCII); no other step takes it.
    static constexpr std::int64_t kMigrationLock = 0x6a6f626465636b;

    // Brings the database up to version() in one step (replicas that start together take turns); a
    // database whose schema is newer than this binary is refused (DatabaseError with one clear line)
    // and left untouched. `where` names the database in that line (no password).
    // `list` is schema::migrations() but in tests.
    static void migrate(PgConnections& connections, const std::string& where,
                        std::span<const schema::Migration> list = schema::migrations());
    // The shared schema version this binary creates and understands.
    static int version();
    // PostgreSQL's released versions 1-4 (entry i made version i + 1, shared i + 3), as released.
    static std::span<const char* const> releasedMigrations();
};

} // namespace jobdeck
