#include "service/runs/RunScheduler.h"

#include "core/policy/RunEndMessages.h"
#include "core/statements/NotFoundMessages.h"

#include <map>

namespace jobdeck {

RunScheduler::Plan RunScheduler::plan(
    const std::vector<RunRecord>& queued, InUse inUse,
    const std::function<std::optional<int>(const std::string&, const std::string&)>& capacity) {
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
            plan.waiting.emplace_back(r.run.jobRunId,
                                      waitingForDriverSlotReason(r.cluster, used, *known->second));
        }
    }
    return plan;
}

} // namespace jobdeck
