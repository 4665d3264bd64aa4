#include "core/policy/RunLifecycle.h"

#include <algorithm>
#include <array>

namespace jobdeck {
namespace {

using enum RunPhase;
using enum RunActor;

constexpr std::array kTransitions{
    RunTransition{Queued, Starting, Claimant, "a replica claims it for a free driver slot"},
    RunTransition{Queued, Failed, Claimant, "it can never start (its cluster, job or application is gone)"},
    RunTransition{Queued, Canceled, Cancel, "CANCEL JOB_RUN before any replica claimed it"},

    RunTransition{Starting, Starting, Owner,
                  "its owner claims it again: nothing was started before a restart"},
    RunTransition{Starting, Starting, Cancel,
                  "CANCEL JOB_RUN recorded: its owner stops the driver it starts"},
    RunTransition{Starting, Running, Owner, "its driver started, or was found started after a restart"},
    RunTransition{Starting, Failed, Owner, "its driver could not be started"},
    RunTransition{Starting, Failed, Successor, "its owner's lease ran out while starting it"},
    RunTransition{Starting, Canceled, Successor, "canceled while its owner is gone"},

    RunTransition{Running, Running, Owner, "its owner claimed its lease again (a new epoch)"},
    RunTransition{Running, Running, Cancel, "CANCEL JOB_RUN recorded: its owner stops the driver"},
    RunTransition{Running, Submitted, Owner, "spark-submit reported the driver's submission id"},
    RunTransition{Running, Completed, Owner, "the driver exited with 0"},
    RunTransition{Running, Failed, Owner, "the driver failed, vanished, or was not submitted"},
    RunTransition{Running, Canceled, Owner, "a canceled run's process group is gone"},
    RunTransition{Running, Canceled, Successor, "canceled while its owner is gone"},
    RunTransition{Running, Failed, Successor, "its owner stayed away for --orphaned-run-timeout"},

    RunTransition{Submitted, Submitted, Owner, "its owner claimed its lease again (a new epoch)"},
    RunTransition{Submitted, Submitted, Cancel, "CANCEL JOB_RUN recorded: its owner kills the driver"},
    RunTransition{Submitted, Submitted, Successor, "taken over from an owner that is gone"},
    RunTransition{Submitted, Completed, Owner, "the cluster manager reports the driver finished"},
    RunTransition{Submitted, Failed, Owner, "the cluster manager reports it failed, or lost it"},
    RunTransition{Submitted, Canceled, Owner, "the cluster manager reports it killed"},
};

} // namespace

RunPhase runPhase(JobRunStatus status, bool claimed, bool submitted) {
    switch (status) {
    case JobRunStatus::Queued:
        return claimed ? Starting : Queued;
    case JobRunStatus::Running:
        return submitted ? Submitted : Running;
    case JobRunStatus::Completed:
        return Completed;
    case JobRunStatus::Failed:
        return Failed;
    case JobRunStatus::Canceled:
        break;
    }
    return Canceled;
}

JobRunStatus wireStatus(RunPhase phase) {
    switch (phase) {
    case Queued:
    case Starting:
        return JobRunStatus::Queued;
    case Running:
    case Submitted:
        return JobRunStatus::Running;
    case Completed:
        return JobRunStatus::Completed;
    case Failed:
        return JobRunStatus::Failed;
    case Canceled:
        break;
    }
    return JobRunStatus::Canceled;
}

bool isFinal(RunPhase phase) {
    return !isActive(wireStatus(phase));
}

std::span<const RunTransition> runTransitions() {
    return kTransitions;
}

bool mayChange(RunPhase from, RunPhase to, RunActor by) {
    return std::any_of(kTransitions.begin(), kTransitions.end(),
                       [&](const RunTransition& t) { return t.from == from && t.to == to && t.by == by; });
}

bool mayCreate(RunPhase phase, RunActor by) {
    return phase == Queued && by == Admission;
}

std::string_view runPhaseName(RunPhase phase) {
    switch (phase) {
    case Queued:
        return "Queued";
    case Starting:
        return "Starting";
    case Running:
        return "Running";
    case Submitted:
        return "Submitted";
    case Completed:
        return "Completed";
    case Failed:
        return "Failed";
    case Canceled:
        break;
    }
    return "Canceled";
}

std::string_view runActorName(RunActor actor) {
    switch (actor) {
    case Admission:
        return "admission";
    case Claimant:
        return "claimant";
    case Owner:
        return "owner";
    case Successor:
        return "successor";
    case Cancel:
        break;
    }
    return "cancel";
}

} // namespace jobdeck
