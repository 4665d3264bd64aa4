#pragma once

#include "service/ReplicaIdentity.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace jobdeck {

class Stores;

// The leases of the jobdeckd replicas sharing one database (docs/scale-out.md). Each replica renews
// its own every third of the lease timeout (a heartbeat row); one whose heartbeat is older than the
// timeout is gone: its PENDING requests are failed and its row forgotten, and the runs it owned may
// be taken over (RunManager). Heartbeats are on each replica's own clock, so replicas' clocks must
// agree to well within the timeout (NTP).
class ReplicaLeases final {
public:
    ReplicaLeases(Stores& stores, ReplicaIdentity self, std::chrono::seconds timeout);

    // Renews this replica's lease when due and handles the replicas whose lease ran out. Called by
    // the scheduler every tick; throws DatabaseError.
    void renew();
    // Whether `owner` holds a lease now, as of the last renew(): this replica always does, a run
    // without an owner never does.
    bool holds(const std::string& owner) const;
    // The same, read from the database now (for requests' threads).
    bool holdsNow(const std::string& owner);
    const ReplicaIdentity& self() const { return m_self; }
    std::chrono::seconds timeout() const { return m_timeout; }

private:
    static std::int64_t nowMs();
    std::int64_t expiredBeforeMs() const;
    void forget(const std::string& replicaId, std::int64_t heartbeatMs);

    Stores& m_stores;
    const ReplicaIdentity m_self;
    const std::chrono::seconds m_timeout;
    std::chrono::steady_clock::time_point m_nextRenewal{};
    mutable std::mutex m_mutex;
    std::map<std::string, std::int64_t> m_heartbeats; // replica id -> heartbeat (ms), live ones only
};

} // namespace jobdeck
