#pragma once

#include "service/runs/ReplicaIdentity.h"
#include "service/stores/RunStore.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace jobdeck {

class Stores;

// The leases of the jobdeckd replicas sharing one database (docs/scale-out.md). A replica claims its
// id's lease at start (claim(): refused while another process holds it live) and renews it every third
// of the lease timeout; the database stamps each renewal with its own clock, so the hosts' clocks play
// no part. A lease not renewed for the timeout is forgotten by the first replica that sees it (one
// conditional step, which also fails the PENDING requests it left): its epoch moves on, so its holder's
// writes as the runs' owner fail until it claims the lease again with a new epoch. A replica whose own
// lease may have run out (it could not renew it in time: paused, cut off from the database) neither
// launches nor follows runs until it renewed it (current()).
class ReplicaLeases final {
public:
    ReplicaLeases(Stores& stores, ReplicaIdentity self, std::chrono::seconds timeout);

    // Claims this replica's lease at start; throws std::runtime_error (replicaIdInUseMessage) when a
    // live process of another data directory or host holds the same replica id, and DatabaseError.
    void claim();
    // Renews this replica's lease when due (claiming it again when it was forgotten) and forgets the
    // replicas whose lease ran out. Called by the scheduler every tick; throws DatabaseError.
    void renew();
    // Whether this replica's lease is surely still live: renewed less than the timeout ago, measured
    // from before the renewal was sent. Only then does it launch and follow runs.
    bool current() const;
    // This replica's epoch: its writes as a run's owner check it (RunStore::updateIfOwner).
    std::int64_t epoch() const;
    // Whether `owner` holds a lease now, as of the last renew(): this replica always does, a run
    // without an owner never does.
    bool holds(const std::string& owner) const;
    // The same, read from the database now (for requests' threads).
    bool holdsNow(const std::string& owner);
    // The lease of a replica other than this one as of the last renew(), gone ones included.
    std::optional<ReplicaLease> leaseOf(const std::string& replicaId) const;
    const ReplicaIdentity& self() const { return m_self; }
    std::chrono::seconds timeout() const { return m_timeout; }
    std::int64_t timeoutMs() const;

private:
    using Clock = std::chrono::steady_clock;

    std::optional<std::int64_t> takeLease(bool atStart);
    void renewOwn();
    void forget(const ReplicaLease& lease);

    Stores& m_stores;
    const ReplicaIdentity m_self;
    const std::chrono::seconds m_timeout;
    Clock::time_point m_nextRenewal{};
    bool m_lostLogged = false;
    mutable std::mutex m_mutex;
    std::int64_t m_epoch = 0;                     // 0: no lease claimed
    Clock::time_point m_liveUntil{};              // this replica's lease is surely live before this
    std::map<std::string, ReplicaLease> m_others; // every other replica's lease, gone ones included
};

} // namespace jobdeck
