#pragma once

#include "service/stores/SqliteConnections.h"
#include "service/stores/StoreAccess.h"

namespace jobdeck {

// SQLite's connections as the shared stores use them (StoreAccess): reads on a pooled read-only
// connection (the writer inside a step), writes on the one writer.
struct SqliteAccess {
    static constexpr bool kLocksRows = false; // a step holds the one writer
    SqliteConnections& connections;

    SqliteConnections::Reader read() { return connections.reader(); }
    SqliteConnections::Reader readFresh() { return connections.freshReader(); }
    SqliteDatabase* write() { return &connections.writer(); }
    UnitOfWork& steps() { return connections; }
};

static_assert(StoreAccess<SqliteAccess>);

} // namespace jobdeck
