#include "service/stores/DeferredWrites.h"

#include "service/stores/UnitOfWork.h"

#include <spdlog/spdlog.h>

#include <exception>
#include <iterator>
#include <memory>
#include <utility>

namespace jobdeck {

DeferredWrites::DeferredWrites(UnitOfWork& unitOfWork, Writer writer, std::chrono::milliseconds interval,
                               std::size_t batch, TurnTaker takeTurn)
    : m_unitOfWork(unitOfWork)
    , m_writer(std::move(writer))
    , m_takeTurn(std::move(takeTurn))
    , m_interval(interval)
    , m_batch(batch)
    , m_thread([this] { run(); }) {}

DeferredWrites::~DeferredWrites() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
    try {
        flush();
    } catch (const std::exception& e) {
        spdlog::error("could not write the queued audit entries and statuses: {}", e.what());
    }
}

bool DeferredWrites::queuedOne() {
    // The first row starts the interval; a full batch ends it early.
    const std::size_t size = m_queue.size();
    return size == 1 || size >= m_batch || m_callbackQueued;
}

void DeferredWrites::addAudit(AuditEntry entry) {
    bool wake = false;
    {
        const std::lock_guard lock(m_mutex);
        m_queue.audit.push_back(std::move(entry));
        wake = queuedOne();
    }
    if (wake)
        m_wake.notify_one();
}

void DeferredWrites::addStatus(StatusRow row) {
    bool wake = false;
    {
        const std::lock_guard lock(m_mutex);
        m_callbackQueued = m_callbackQueued || static_cast<bool>(row.committed);
        m_queue.statuses.push_back(std::move(row));
        wake = queuedOne();
    }
    if (wake)
        m_wake.notify_one();
}

void DeferredWrites::notify(Batch& rows, bool committed) {
    for (auto& row : rows.statuses)
        if (row.committed)
            std::exchange(row.committed, {})(committed);
}

bool DeferredWrites::empty() const {
    const std::lock_guard lock(m_mutex);
    return m_queue.empty() && m_groupsInFlight == 0;
}

void DeferredWrites::flush() {
    // With the queue empty, a group the background thread took may still be being written: then this
    // joins the queue's turn below and so waits for it (a reader that flushes first, as SHOW AUDIT_LOG
    // does, must find every entry queued before it).
    if (empty())
        return;
    flushRows(Rows::All);
}

void DeferredWrites::flushAuditEntries() {
    {
        const std::lock_guard lock(m_mutex);
        if (m_queue.audit.empty() && m_auditGroupsInFlight == 0)
            return;
    }
    flushRows(Rows::AuditOnly);
}

void DeferredWrites::flushRows(Rows rows) {
    // Inside a durable write's transaction the group lands only when that transaction commits: until
    // then it stays in flight, and a rollback puts it back at the head of the queue.
    const bool joined = m_unitOfWork.inStepOnThisThread();
    bool took = false, tookAudit = false;
    bool handedOver = false; // handed over: the outer transaction's end settles the group
    struct Landed {
        DeferredWrites& writes;
        bool& took;
        bool& tookAudit;
        bool& handedOver;
        ~Landed() {
            if (!took || handedOver)
                return;
            const std::lock_guard lock(writes.m_mutex);
            writes.landed(tookAudit);
        }
    } landedHere{*this, took, tookAudit, handedOver};
    // Callbacks of a group this flush commits by itself, called once the outcome is known.
    Batch waiting;
    // The queue is taken inside the transaction, that is while holding the connection: a durable write
    // on another thread then either commits these first or waits until they are committed.
    try {
        m_unitOfWork.run([&] {
            // Flushes take turns (the transaction holds the writer, or the turn where steps run at
            // once): the group one flush took is written before the next flush takes the queue.
            if (m_takeTurn)
                m_takeTurn();
            took = takeQueue(rows);
            tookAudit = took && !m_writing.audit.empty();
            if (!joined)
                for (auto& row : m_writing.statuses)
                    if (row.committed)
                        waiting.statuses.push_back({{}, {}, {}, std::exchange(row.committed, {})});
            struct Clear {
                Batch& rows;
                ~Clear() {
                    rows.audit.clear();
                    rows.statuses.clear();
                }
            } clear{m_writing};
            m_writer(m_writing);
            if (took && joined) {
                m_unitOfWork.onStepEnd([this, group = std::make_shared<Batch>(std::move(m_writing))](
                                           bool committed) { settleJoined(*group, committed); });
                handedOver = true;
            }
        });
    } catch (...) {
        notify(waiting, false);
        throw;
    }
    notify(waiting, true);
}

void DeferredWrites::landed(bool withAudit) {
    --m_groupsInFlight;
    if (withAudit)
        --m_auditGroupsInFlight;
}

bool DeferredWrites::takeQueue(Rows rows) {
    // The written group's vectors become the next group's: no large allocation, and no large free,
    // per group.
    const std::lock_guard lock(m_mutex);
    if (rows == Rows::All) {
        std::swap(m_writing, m_queue);
        m_callbackQueued = false;
    } else {
        std::swap(m_writing.audit, m_queue.audit);
    }
    const bool took = !m_writing.empty();
    if (took)
        ++m_groupsInFlight;
    if (!m_writing.audit.empty())
        ++m_auditGroupsInFlight;
    return took;
}

void DeferredWrites::settleJoined(Batch& group, bool committed) {
    if (committed) {
        {
            const std::lock_guard lock(m_mutex);
            landed(!group.audit.empty());
        }
        notify(group, true);
        return;
    }
    // Rolled back with the transaction it joined: the group goes back to the head of the queue.
    const std::lock_guard lock(m_mutex);
    landed(!group.audit.empty());
    for (const auto& row : group.statuses)
        m_callbackQueued = m_callbackQueued || static_cast<bool>(row.committed);
    group.audit.insert(group.audit.end(), std::make_move_iterator(m_queue.audit.begin()),
                       std::make_move_iterator(m_queue.audit.end()));
    group.statuses.insert(group.statuses.end(), std::make_move_iterator(m_queue.statuses.begin()),
                          std::make_move_iterator(m_queue.statuses.end()));
    m_queue = std::move(group);
    m_wake.notify_one();
}

void DeferredWrites::run() {
    std::unique_lock lock(m_mutex);
    while (!m_stopping) {
        m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if (m_stopping)
            break;
        // Gather for up to one interval, unless a batch is already waiting.
        m_wake.wait_for(lock, m_interval,
                        [this] { return m_stopping || m_queue.size() >= m_batch || m_callbackQueued; });
        lock.unlock();
        try {
            flush();
        } catch (const std::exception& e) {
            spdlog::error("could not write the queued audit entries and statuses: {}", e.what());
        }
        lock.lock();
    }
}

} // namespace jobdeck
