#pragma once

#include "core/policy/RunLifecycle.h"
#include "service/stores/RunStore.h"

#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

class EventBus;
class ReplicaLeases;
class Stores;

// Every write of a run's state, each checked against core's lifecycle for the actor making it
// (docs/runs.md, "Lifecycle"): a write the lifecycle does not allow is logged and not made. A run's new
// state and its RUN_STATUS_CHANGED event are one commit, and the project's event waiters are woken after
// it. Each row is read again in the write's step: a run another replica (or a cancel) ended meanwhile
// keeps that end, a cancel asked meanwhile is kept, and a write as the run's owner is made only while
// the run has the owner and owner epoch it was read with and this replica's lease still has that epoch,
// so a replica paused past its lease never takes back a run another replica took over.
class RunWriter final {
public:
    struct Change final {
        RunRecord record;
        RunActor by;
    };

    RunWriter(Stores& stores, EventBus& events, const ReplicaLeases& leases);

    // Within a tick (between beginTick and endTick) save() collects the changes, and flush() writes
    // what was collected so far in one step; otherwise save() writes at once.
    void beginTick();
    void flush();
    void endTick();
    void save(const RunRecord& record, RunActor by);
    // Writes `changes` in one step; returns how many were written (the others ended, changed owner or
    // were not allowed).
    int saveNow(std::vector<Change> changes);
    // Ends the run in `status` with `message` (endedAt now unless set) and saves it.
    void end(RunRecord& record, JobRunStatus status, std::optional<std::string> message, RunActor by);

    // The writes that are not a save of the whole run, each a single conditional statement in the
    // caller's step. claim: `record` (from `seen`) claimed by this replica to start its driver.
    bool claim(const RunRecord& record, const RunRecord& seen);
    // A cancel recorded on an active run.
    void recordCancel(const RunRecord& record);
    // The submitted run of a replica that is gone followed by this one from now on.
    bool takeOver(const RunRecord& record);

private:
    bool allowed(const RunRecord& from, const RunRecord& to, RunActor by) const;

    Stores& m_stores;
    EventBus& m_events;
    RunStore& m_runs;
    const ReplicaLeases& m_leases;
    std::optional<std::vector<Change>> m_tickChanges;
};

// The phase of a run as stored.
RunPhase runPhaseOf(const RunRecord& record);
// Who claims (or fails before it starts) the run `seen`: a claimant while it is Queued, its owner when
// the owner claims it again (nothing was started before a restart).
RunActor claimingActor(const RunRecord& seen);

} // namespace jobdeck
