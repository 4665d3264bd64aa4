#include "service/runs/ReplicaLeases.h"

#include "service/statements/RequestRegistry.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

namespace jobdeck {

ReplicaLeases::ReplicaLeases(Stores& stores, ReplicaIdentity self, std::chrono::seconds timeout)
    : m_stores(stores)
    , m_self(std::move(self))
    , m_timeout(timeout) {}

std::int64_t ReplicaLeases::nowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A heartbeat older than this (ms since the epoch) is of a replica that is gone.
std::int64_t ReplicaLeases::expiredBeforeMs() const {
    return nowMs() - std::chrono::duration_cast<std::chrono::milliseconds>(m_timeout).count();
}

void ReplicaLeases::renew() {
    const auto now = std::chrono::steady_clock::now();
    if (now >= m_nextRenewal) {
        m_stores.runs().heartbeat(m_self.id(), m_self.host(), m_self.dataDir(), nowMs());
        m_nextRenewal = now + m_timeout / 3;
    }
    auto heartbeats = m_stores.runs().replicaHeartbeats();
    const std::int64_t expired = expiredBeforeMs();
    for (auto it = heartbeats.begin(); it != heartbeats.end();) {
        if (it->first != m_self.id() && it->second < expired) {
            forget(it->first, it->second);
            it = heartbeats.erase(it);
        } else {
            ++it;
        }
    }
    const std::lock_guard lock(m_mutex);
    m_heartbeats = std::move(heartbeats);
}

bool ReplicaLeases::holds(const std::string& owner) const {
    if (owner.empty())
        return false;
    if (owner == m_self.id())
        return true;
    const std::lock_guard lock(m_mutex);
    return m_heartbeats.count(owner) > 0;
}

bool ReplicaLeases::holdsNow(const std::string& owner) {
    if (owner.empty() || owner == m_self.id())
        return !owner.empty();
    const auto heartbeats = m_stores.runs().replicaHeartbeats();
    const auto it = heartbeats.find(owner);
    return it != heartbeats.end() && it->second >= expiredBeforeMs();
}

// A replica whose lease ran out: what it was answering will never be answered by it.
void ReplicaLeases::forget(const std::string& replicaId, std::int64_t heartbeatMs) {
    const int failed = m_stores.unitOfWork().run([&] {
        m_stores.runs().forgetReplica(replicaId);
        return m_stores.statuses().failUnfinishedRequestsOf(replicaId, RequestRegistry::replicaGoneMessage());
    });
    spdlog::warn("replica {} has not renewed its lease for {} s: the runs it was launching and its "
                 "submitted cluster-mode runs are taken over; {} request(s) it left pending are now FAILED",
                 replicaId, (nowMs() - heartbeatMs) / 1000, failed);
}

} // namespace jobdeck
