#pragma once

#include "service/stores/ChangeStamp.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The change stamp of a PostgreSQL database: a 64-bit digest of the server's current snapshot (the
// next transaction id and the ids still in progress). A transaction that commits has an id, which the
// snapshot lists while it runs and no longer once it committed, so the stamp moves whenever anything
// was committed, whichever jobdeckd made it. It also moves when a transaction starts writing or ends
// without committing, and for every database of the server: more often than needed, never too
// seldom, and reading it takes no lock and passes no commit through one row. One small read.
class PgChangeStamp final : public ChangeStamp {
public:
    explicit PgChangeStamp(PgConnections& connections)
        : m_connections(connections) {}
    std::uint64_t current() override;
    Reading read() override;

private:
    PgConnections& m_connections;
};

} // namespace jobdeck
