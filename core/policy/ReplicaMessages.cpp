#include "core/policy/ReplicaMessages.h"

namespace jobdeck {

std::string replicaIdInUseMessage(const std::string& replicaId, const std::string& holderHost,
                                  const std::string& holderDataDir) {
    return "Replica id " + replicaId + " is held by a running jobdeckd on " + holderHost +
           " (data directory " + holderDataDir +
           ") on this database: this data directory is a copy of that one's. Stop that jobdeckd, or "
           "remove this data directory's replica-id file to make this one a new replica";
}

std::string requestOfGoneReplicaMessage() {
    return "The service replica that was running this request stopped before it finished; use SHOW or "
           "DESCRIBE to see whether its statement took effect";
}

std::string orphanedRunMessage(const std::string& replicaId, const std::string& host,
                               std::int64_t timeoutSeconds) {
    return "The service replica " + replicaId + " on host " + host +
           " that started this run's driver has not renewed its lease for " + std::to_string(timeoutSeconds) +
           " s (--orphaned-run-timeout): the run ended so that its driver slot is free. If the driver "
           "still runs on that host, the replica stops it when it comes back";
}

std::string strayDriverStoppedLogLine(std::int64_t driverPid, const std::string& how,
                                      const std::string& message) {
    return "[jobdeckd: stopped the driver (pid " + std::to_string(driverPid) + "): the run ended " + how +
           " while this replica was away (" + message + ")]\n";
}

} // namespace jobdeck
