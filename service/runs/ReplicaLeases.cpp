#include "service/runs/ReplicaLeases.h"

#include "core/policy/ReplicaMessages.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

namespace jobdeck {

ReplicaLeases::ReplicaLeases(Stores& stores, ReplicaIdentity self, std::chrono::seconds timeout)
    : m_stores(stores)
    , m_self(std::move(self))
    , m_timeout(timeout) {}

std::int64_t ReplicaLeases::timeoutMs() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(m_timeout).count();
}

void ReplicaLeases::claim() {
    const auto before = Clock::now();
    const auto epoch = takeLease(true);
    const std::lock_guard lock(m_mutex);
    m_epoch = *epoch;
    m_liveUntil = before + m_timeout;
    m_nextRenewal = before + m_timeout / 3;
}

// In one step: the lease with the next epoch, unless another process holds it live. At start a lease
// held by this data directory on this host is taken whatever its age: the data directory's lock says
// that its holder has ended. This replica's active runs that nobody took over get the new epoch.
std::optional<std::int64_t> ReplicaLeases::takeLease(bool atStart) {
    return m_stores.unitOfWork().run([&]() -> std::optional<std::int64_t> {
        auto& runs = m_stores.runs();
        const auto held = runs.findLease(m_self.id());
        const bool live = held && !held->gone && held->ageMs < timeoutMs();
        const bool sameDirectory = held && held->host == m_self.host() && held->dataDir == m_self.dataDir();
        if (held && held->claim != m_self.claim() && live && !(atStart && sameDirectory)) {
            if (atStart)
                throw std::runtime_error(replicaIdInUseMessage(m_self.id(), held->host, held->dataDir));
            return std::nullopt;
        }
        ReplicaLease lease;
        lease.replicaId = m_self.id();
        lease.host = m_self.host();
        lease.dataDir = m_self.dataDir();
        lease.claim = m_self.claim();
        const std::int64_t epoch = runs.takeLease(lease);
        runs.adoptRuns(m_self.id(), epoch);
        return epoch;
    });
}

// Renews this replica's lease, or claims it again when another replica forgot it meanwhile.
void ReplicaLeases::renewOwn() {
    const auto before = Clock::now();
    const std::int64_t epoch = this->epoch();
    bool renewed = m_stores.unitOfWork().run(
        [&] { return epoch != 0 && m_stores.runs().renewLease(m_self.id(), m_self.claim(), epoch); });
    if (!renewed) {
        const auto taken = takeLease(false);
        if (!taken) {
            if (!m_lostLogged)
                spdlog::error(
                    "replica {}: another jobdeckd holds this replica id's lease on the database; this "
                    "one starts and follows no runs while it does",
                    m_self.id());
            m_lostLogged = true;
            m_nextRenewal = before + std::chrono::seconds(1);
            return;
        }
        spdlog::warn(
            "replica {}: its lease had run out (epoch {}) and is claimed again (epoch {}): runs taken "
            "over meanwhile stay with the replicas that took them",
            m_self.id(), epoch, *taken);
        const std::lock_guard lock(m_mutex);
        m_epoch = *taken;
    }
    m_lostLogged = false;
    const std::lock_guard lock(m_mutex);
    m_liveUntil = before + m_timeout;
    m_nextRenewal = before + m_timeout / 3;
}

void ReplicaLeases::renew() {
    if (Clock::now() >= m_nextRenewal)
        renewOwn();
    std::map<std::string, ReplicaLease> others;
    for (auto& lease : m_stores.runs().replicaLeases()) {
        if (lease.replicaId == m_self.id())
            continue;
        if (!lease.gone && lease.ageMs >= timeoutMs() && current())
            forget(lease);
        others[lease.replicaId] = std::move(lease);
    }
    const std::lock_guard lock(m_mutex);
    m_others = std::move(others);
}

bool ReplicaLeases::current() const {
    const std::lock_guard lock(m_mutex);
    return m_epoch != 0 && Clock::now() < m_liveUntil;
}

std::int64_t ReplicaLeases::epoch() const {
    const std::lock_guard lock(m_mutex);
    return m_epoch;
}

bool ReplicaLeases::holds(const std::string& owner) const {
    if (owner.empty())
        return false;
    if (owner == m_self.id())
        return true;
    const std::lock_guard lock(m_mutex);
    const auto it = m_others.find(owner);
    return it != m_others.end() && !it->second.gone && it->second.ageMs < timeoutMs();
}

bool ReplicaLeases::holdsNow(const std::string& owner) {
    if (owner.empty() || owner == m_self.id())
        return !owner.empty();
    const auto lease = m_stores.runs().findLease(owner);
    return lease && !lease->gone && lease->ageMs < timeoutMs();
}

std::optional<ReplicaLease> ReplicaLeases::leaseOf(const std::string& replicaId) const {
    const std::lock_guard lock(m_mutex);
    const auto it = m_others.find(replicaId);
    return it == m_others.end() ? std::nullopt : std::optional<ReplicaLease>(it->second);
}

// A replica whose lease ran out: what it was answering will never be answered by it. One step, which
// does nothing when the replica renewed (or claimed its lease again) since it was read.
void ReplicaLeases::forget(const ReplicaLease& lease) {
    int failed = 0;
    const bool forgotten = m_stores.unitOfWork().run([&] {
        if (!m_stores.runs().forgetReplica(lease.replicaId, lease.epoch, timeoutMs()))
            return false;
        failed = m_stores.statuses().failUnfinishedRequestsOf(lease.replicaId, requestOfGoneReplicaMessage());
        return true;
    });
    if (forgotten)
        spdlog::warn(
            "replica {} on {} has not renewed its lease for {} s: the runs it was launching and its "
            "submitted cluster-mode runs are taken over; {} request(s) it left pending are now FAILED",
            lease.replicaId, lease.host, lease.ageMs / 1000, failed);
}

} // namespace jobdeck
