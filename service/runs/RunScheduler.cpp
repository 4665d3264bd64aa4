#include "service/runs/RunScheduler.h"

#include "core/policy/RunEndMessages.h"
#include "core/statements/NotFoundMessages.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace jobdeck {

RunScheduler::Plan RunScheduler::plan(const std::vector<RunRecord>& queued, InUse inUse,
                                      const Capacity& capacity) {
    using Key = InUse::key_type; // project, cluster
    std::map<Key, std::optional<int>> capacities;
    Plan plan;
    for (const auto& r : queued) {
        const Key key{r.projectUid, r.cluster};
        auto known = capacities.find(key);
        if (known == capacities.end())
            known = capacities.emplace(key, capacity(r.projectUid, r.cluster)).first;
        if (!known->second) {
            plan.failing.emplace_back(r.run.jobRunId, clusterNotFoundMessage(r.cluster));
            continue;
        }
        int& used = inUse[key];
        if (used < *known->second) {
            ++used;
            plan.start.push_back(r.run.jobRunId);
        } else {
            plan.waiting.emplace_back(r.run.jobRunId, waitingReason(r.cluster, used, *known->second));
        }
    }
    return plan;
}

// A cluster that is gone fails its runs; one with a free slot starts the oldest; a full one gives each
// the reason naming its slots in use, unchanged by the waiting runs (plan() counts only starts).
bool RunScheduler::changesAny(const std::vector<RunStore::QueuedCount>& queued, const InUse& inUse,
                              const Capacity& capacity) {
    for (const auto& counted : queued) {
        if (counted.launching || counted.count <= 0)
            continue;
        const auto slots = capacity(counted.projectUid, counted.cluster);
        if (!slots)
            return true;
        const auto used = inUse.find({counted.projectUid, counted.cluster});
        const int inUseNow = used == inUse.end() ? 0 : used->second;
        if (inUseNow < *slots || counted.queueReason != waitingReason(counted.cluster, inUseNow, *slots))
            return true;
    }
    return false;
}

// Once the free slots are taken, a cluster has at least as many drivers as slots.
std::string RunScheduler::waitingReason(const std::string& cluster, int inUse, int capacity) {
    return waitingForDriverSlotReason(cluster, std::max(inUse, capacity), capacity);
}

std::vector<RunScheduler::ReasonChange>
RunScheduler::reasonChanges(const std::vector<RunStore::QueuedCount>& queued,
                            const std::map<InUse::key_type, int>& waiting, const InUse& inUse,
                            const Capacity& capacity) {
    std::vector<ReasonChange> changes;
    for (const auto& entry : waiting) {
        const InUse::key_type& cluster = entry.first;
        // A cluster with no run past its free slots is not read: one another replica's step plans (and
        // holds) is among them.
        if (entry.second <= 0)
            continue;
        const auto slots = capacity(cluster.first, cluster.second);
        if (!slots)
            continue;
        const auto found = inUse.find(cluster);
        const int used = found == inUse.end() ? 0 : found->second;
        std::string reason = waitingReason(cluster.second, used, *slots);
        const bool stale = std::ranges::any_of(queued, [&](const RunStore::QueuedCount& c) {
            return !c.launching &&
                   std::tie(c.projectUid, c.cluster) == std::tie(cluster.first, cluster.second) &&
                   c.queueReason != reason;
        });
        if (stale)
            changes.push_back({cluster, std::max(0, *slots - used), std::move(reason)});
    }
    return changes;
}

} // namespace jobdeck
