#pragma once

#include <cstdint>
#include <string>

namespace jobdeck {

// The messages of run ownership among jobdeckd replicas sharing one database (docs/scale-out.md,
// "Several replicas"): what a replica refuses at start, what a run ended for a gone replica says, and
// what a replica that comes back writes into the log of a run whose driver it stops.

// Why jobdeckd refuses to start: another live process holds this data directory's replica id (a copied
// data directory) on the same database.
std::string replicaIdInUseMessage(const std::string& replicaId, const std::string& holderHost,
                                  const std::string& holderDataDir);

// The FAILED message of a request another replica left PENDING, once that replica's lease ran out: it
// will never be answered by it.
std::string requestOfGoneReplicaMessage();

// The FAILED message of a client-mode run whose replica has not renewed its lease for
// --orphaned-run-timeout: the run ends so that its cluster slot is free again.
std::string orphanedRunMessage(const std::string& replicaId, const std::string& host,
                               std::int64_t timeoutSeconds);

// The line a replica appends to a run's log when it stops that run's driver because the run ended
// elsewhere while the replica was away (paused, cut off from the database, or down): `how` is the
// run's final status word and `message` its message.
std::string strayDriverStoppedLogLine(std::int64_t driverPid, const std::string& how,
                                      const std::string& message);

} // namespace jobdeck
