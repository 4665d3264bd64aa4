#include "service/runs/RunWriter.h"

#include "core/wire/Timestamp.h"
#include "service/runs/EventBus.h"
#include "service/runs/ReplicaLeases.h"
#include "service/runs/RunStatusEvent.h"
#include "service/stores/Stores.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <set>
#include <utility>

namespace jobdeck {

RunPhase runPhaseOf(const RunRecord& record) {
    return runPhase(record.run.status, !record.runDir.empty(), record.run.submissionId.has_value());
}

RunActor claimingActor(const RunRecord& seen) {
    return runPhaseOf(seen) == RunPhase::Queued ? RunActor::Claimant : RunActor::Owner;
}

RunWriter::RunWriter(Stores& stores, EventBus& events, const ReplicaLeases& leases)
    : m_stores(stores)
    , m_events(events)
    , m_runs(stores.runs())
    , m_leases(leases) {}

void RunWriter::beginTick() {
    m_tickChanges.emplace();
}

void RunWriter::flush() {
    if (m_tickChanges)
        saveNow(std::exchange(*m_tickChanges, {}));
}

void RunWriter::endTick() {
    m_tickChanges.reset(); // after a tick that threw, what it saw is seen again next tick
}

void RunWriter::save(const RunRecord& record, RunActor by) {
    if (m_tickChanges)
        m_tickChanges->push_back({record, by});
    else
        saveNow({{record, by}});
}

void RunWriter::end(RunRecord& record, JobRunStatus status, std::optional<std::string> message, RunActor by) {
    record.run.status = status;
    record.run.queueReason.reset();
    record.run.message = std::move(message);
    if (!record.run.endedAt)
        record.run.endedAt = timestampNow();
    save(record, by);
    spdlog::info("job run {} of job {} ended {}", record.run.jobRunId, record.run.jobName,
                 jobRunStatusName(status));
}

bool RunWriter::allowed(const RunRecord& from, const RunRecord& to, RunActor by) const {
    const RunPhase before = runPhaseOf(from);
    const RunPhase after = runPhaseOf(to);
    if (mayChange(before, after, by))
        return true;
    spdlog::error("job run {}: internal error: the run lifecycle does not let the {} change it from {} to "
                  "{}; not written",
                  to.run.jobRunId, runActorName(by), runPhaseName(before), runPhaseName(after));
    return false;
}

namespace {

std::vector<std::pair<std::string, std::string>> runsOf(const std::vector<RunWriter::Change>& changes) {
    std::vector<std::pair<std::string, std::string>> runs;
    runs.reserve(changes.size());
    for (const auto& change : changes)
        runs.emplace_back(change.record.projectUid, change.record.run.jobRunId);
    return runs;
}

} // namespace

int RunWriter::saveNow(std::vector<Change> changes) {
    if (changes.empty())
        return 0;
    int written = 0;
    m_stores.unitOfWork().run([&] {
        written = 0; // a step tried again starts over
        auto projects = std::make_shared<std::set<std::string>>();
        // Woken once the outermost step committed (a cancel's step may hold this one).
        m_stores.unitOfWork().onStepEnd([this, projects](bool committed) {
            if (committed)
                for (const auto& project : *projects)
                    m_events.wake(project);
        });
        // Every run's row read (and held) in one round trip; a run met again in `changes` is read again,
        // as the step wrote it.
        auto seen = m_runs.findEach(runsOf(changes));
        std::set<std::string> met;
        const auto currentRow = [&](const RunRecord& record) -> std::optional<RunRecord> {
            if (!met.insert(record.run.jobRunId).second)
                return m_runs.find(record.projectUid, record.run.jobRunId);
            const auto it = seen.find(record.run.jobRunId);
            return it == seen.end() ? std::nullopt : std::optional<RunRecord>(std::move(it->second));
        };
        for (auto& [record, by] : changes) {
            const auto current = currentRow(record);
            if (!current || !isActive(current->run.status))
                continue;
            if (current->cancelRequested && !record.cancelRequested) {
                record.cancelRequested = true;
                record.canceledBy = current->canceledBy;
            }
            if (!allowed(*current, record, by))
                continue;
            const bool asOwner = record.owner == m_leases.self().id();
            if (current->owner != record.owner || current->ownerEpoch != record.ownerEpoch ||
                !m_runs.updateIfOwner(record, *current, asOwner)) {
                spdlog::info("job run {}: not written, its owner changed (now {})", record.run.jobRunId,
                             current->owner.empty() ? std::string("none") : current->owner);
                continue;
            }
            m_stores.events().recordEvent(record.projectUid, statusEvent(record));
            projects->insert(record.projectUid);
            ++written;
        }
    });
    return written;
}

bool RunWriter::claim(const RunRecord& record, const RunRecord& seen) {
    return allowed(seen, record, claimingActor(seen)) && m_runs.updateIfOwner(record, seen, false);
}

void RunWriter::recordCancel(const RunRecord& record) {
    if (allowed(record, record, RunActor::Cancel))
        m_runs.update(record);
}

bool RunWriter::takeOver(const RunRecord& record) {
    if (!allowed(record, record, RunActor::Successor))
        return false;
    return m_stores.unitOfWork().run([&] {
        return m_runs.takeOverRun(record.run.jobRunId, record.owner, m_leases.self().id(), m_leases.epoch(),
                                  m_leases.timeoutMs());
    });
}

} // namespace jobdeck
