#pragma once

#include "service/stores/RunStore.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// Which queued runs may start now: each cluster (per project) runs at most MAX_OCU drivers, across
// all jobs on it, and its queue is served first come, first served. Pure policy, no side effects.
class RunScheduler final {
public:
    struct Plan {
        std::vector<std::string> start;                           // run ids, oldest first
        std::vector<std::pair<std::string, std::string>> waiting; // run id -> queue reason
        std::vector<std::pair<std::string, std::string>> failing; // run id -> why it can never start
    };

    // Driver slots in use per (project, cluster).
    using InUse = std::map<std::pair<std::string, std::string>, int>;

    // `queued` oldest first; `capacity(projectUid, cluster)` is the cluster's MAX_OCU, nullopt when the
    // cluster is gone.
    using Capacity = std::function<std::optional<int>(const std::string&, const std::string&)>;
    static Plan plan(const std::vector<RunRecord>& queued, InUse inUse, const Capacity& capacity);

    // Whether plan() would start or fail any of the counted runs whose driver is not being started, or
    // give one a queue reason it does not have; `inUse` counts the runs being launched.
    static bool changesAny(const std::vector<RunStore::QueuedCount>& queued, const InUse& inUse,
                           const Capacity& capacity);

    // The reason of every run that waits for a slot of `cluster` (`capacity` slots, `inUse` of them
    // taken before this plan's starts), as plan() gives it.
    static std::string waitingReason(const std::string& cluster, int inUse, int capacity);

    // A cluster whose waiting runs are to be given `reason`, all but its `skip` oldest (those that start).
    struct ReasonChange {
        InUse::key_type cluster;
        int skip = 0;
        std::string reason;
    };
    // Of the clusters in `waiting` (each with the number of its counted runs that find no free slot),
    // those where a counted run whose driver is not being started lacks the reason plan() would give.
    static std::vector<ReasonChange> reasonChanges(const std::vector<RunStore::QueuedCount>& queued,
                                                   const std::map<InUse::key_type, int>& waiting,
                                                   const InUse& inUse, const Capacity& capacity);
};

} // namespace jobdeck
