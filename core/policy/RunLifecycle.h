#pragma once

#include "core/wire/SparkJobRun.h"

#include <span>
#include <string_view>

namespace jobdeck {

// A run's lifecycle (docs/runs.md, "Lifecycle"): its phases, the changes between them and who may make
// each, in one place. The wire status is coarser: QUEUED covers Queued and Starting, RUNNING covers
// Running and Submitted. A cancel asked of an active run is recorded on it without changing its phase;
// whoever then ends it ends it CANCELED.
enum class RunPhase {
    Queued,    // admitted, waiting for a driver slot; no replica has claimed it
    Starting,  // claimed by a replica, its run directory recorded: the driver is being started
    Running,   // the driver (in cluster mode, spark-submit's submission client) runs on its owner's host
    Submitted, // cluster mode: the cluster manager has the driver under the run's submission id
    Completed,
    Failed,
    Canceled,
};

enum class RunActor {
    Admission, // RUN JOB
    Claimant,  // a replica claiming a Queued run to start it, or failing one that can never start
    Owner,     // the replica that claimed the run, while its lease is current
    Successor, // a replica acting for an owner whose lease ran out
    Cancel,    // CANCEL JOB_RUN, through any replica
};

struct RunTransition final {
    RunPhase from;
    RunPhase to;
    RunActor by;
    std::string_view when; // what makes it, for the docs and the log
};

// The phase of a run as stored: `claimed` when its run directory is recorded, `submitted` when it has
// a submission id.
RunPhase runPhase(JobRunStatus status, bool claimed, bool submitted);
JobRunStatus wireStatus(RunPhase phase);
bool isFinal(RunPhase phase);

// Every change the service may make to a run, each by the one actor named. A change to the same phase
// is a write that keeps the phase (a cancel recorded, a claim renewed, an owner taking over).
std::span<const RunTransition> runTransitions();
// Whether `by` may change a run from `from` to `to`.
bool mayChange(RunPhase from, RunPhase to, RunActor by);
// Whether `by` may create a run in `phase`: only RUN JOB, and only Queued.
bool mayCreate(RunPhase phase, RunActor by);

std::string_view runPhaseName(RunPhase phase);
std::string_view runActorName(RunActor actor);

} // namespace jobdeck
