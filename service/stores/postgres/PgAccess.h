#pragma once

#include "service/stores/StoreAccess.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// PostgreSQL's connections as the shared stores use them (StoreAccess): every query on the step's
// connection inside a step; else reads on the snapshot's inside a snapshot, and writes (as with
// SQLite's writer, never a read-only snapshot's) and fresh reads on a pooled one in autocommit.
struct PgAccess {
    static constexpr bool kLocksRows = true; // steps run at once; each locks the rows it decides on
    PgConnections& connections;

    PgConnections::Lease read() { return connections.connection(); }
    PgConnections::Lease readFresh() { return connections.freshConnection(); }
    PgConnections::Lease write() { return connections.freshConnection(); }
    UnitOfWork& steps() { return connections; }
};

static_assert(StoreAccess<PgAccess>);

} // namespace jobdeck
