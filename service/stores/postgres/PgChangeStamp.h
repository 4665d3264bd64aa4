#pragma once

#include "service/stores/ChangeStamp.h"
#include "service/stores/postgres/PgConnections.h"

namespace jobdeck {

// The change stamp of a PostgreSQL database: the change_stamp row (see PgSchema), which every
// committed write moves, whichever jobdeckd made it. One small read.
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
