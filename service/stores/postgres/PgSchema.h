#pragma once

#include "service/stores/postgres/PgConnections.h"

#include <string>

namespace jobdeck {

// The one schema of jobdeckd's PostgreSQL database and its versioned migrations, run when a jobdeckd
// opens it. The tables and columns are SqliteSchema's (see there), with PostgreSQL's types: BIGINT for
// integers and flags, BYTEA for salts and hashes, identity columns for seq, and requests.seq (the order
// rows were made, which SQLite's rowid gives the sweep). Besides them:
//   change_stamp(id PK = 1, value): moved by statement triggers on every table in the transaction that
//            writes, so PgChangeStamp reads a value that changes exactly when something was committed
//   schema_version(version)
class PgSchema final {
public:
    // Brings the database up to version() in one step (replicas that start together take turns); a
    // database whose schema is newer than this binary is refused (DatabaseError with one clear line)
    // and left untouched. `where` names the database in that line (no password).
    static void migrate(PgConnections& connections, const std::string& where);
    // The schema version this binary creates and understands.
    static int version();
};

} // namespace jobdeck
