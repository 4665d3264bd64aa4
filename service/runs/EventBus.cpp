#include "service/runs/EventBus.h"

#include "service/stores/EventStore.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <vector>

namespace jobdeck {

namespace {

// Pruning finds the newest kept event by walking past all the kept ones, then deletes what is older:
// done every tenth of the kept number (at least every 100 events), the walk costs the server about ten
// index entries per event stored, and a project holds up to a tenth more events than it keeps for each
// process that stores them (docs/performance.md, "Replicas").
int pruneEvery(int keepPerProject) {
    return std::max(100, keepPerProject / 10);
}
// A waiter whose project's events are held back (EventStore::EventsAfter) looks again after these,
// doubling: settling takes the transactions in progress to end, which is milliseconds unless one stalls.
constexpr std::chrono::milliseconds kFirstRecheck{2};
constexpr std::chrono::milliseconds kLongestRecheck{250};

} // namespace

EventBus::EventBus(EventStore& store, int keepPerProject)
    : m_store(store)
    , m_keepPerProject(keepPerProject)
    , m_thread([this] { loop(); })
    , m_pruner([this] { pruneLoop(); }) {}

EventBus::~EventBus() {
    stop();
}

std::int64_t EventBus::publish(const std::string& projectUid, ProjectEvent event) {
    if (event.at == TimePoint{})
        event.at = timestampNow();
    const std::int64_t seq = m_store.appendEvent(projectUid, event);
    wake(projectUid);
    return seq;
}

void EventBus::changedElsewhere(const std::string& projectUid) {
    {
        std::lock_guard lock(m_mutex);
        if (projectUid.empty())
            for (auto& waiter : m_waiters)
                waiter.fresh = true;
        else
            m_dirtyProjects.insert(projectUid);
    }
    m_wake.notify_all();
}

void EventBus::wake(const std::string& projectUid) {
    bool prune = false;
    {
        std::lock_guard lock(m_mutex);
        m_dirtyProjects.insert(projectUid);
        prune = ++m_publishCounts[projectUid] % pruneEvery(m_keepPerProject) == 0;
        if (prune)
            m_pruneDue.insert(projectUid);
    }
    m_wake.notify_all();
    if (prune)
        m_pruneWake.notify_all();
}

// A prune walks the kept events and deletes the older ones (docs/performance.md, "Replicas"), tens of
// milliseconds under load: on this thread, the request whose event reached the count is answered
// without waiting for it.
void EventBus::pruneLoop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_pruneWake.wait(lock, [this] { return m_stopping || !m_pruneDue.empty(); });
        if (m_stopping)
            return;
        const std::set<std::string> due = std::move(m_pruneDue);
        m_pruneDue.clear();
        m_pruning = true;
        lock.unlock();
        for (const std::string& projectUid : due) {
            try {
                m_store.pruneEvents(projectUid, m_keepPerProject);
            } catch (const std::exception& e) {
                spdlog::warn("Could not prune old events: {}", e.what());
            }
        }
        lock.lock();
        m_pruning = false;
        m_pruneWake.notify_all();
    }
}

void EventBus::settlePrunes() {
    std::unique_lock lock(m_mutex);
    m_pruneWake.wait(lock, [this] { return m_stopping || (m_pruneDue.empty() && !m_pruning); });
}

EventsPage EventBus::page(const std::string& projectUid, std::int64_t after) {
    bool heldBack = false;
    return page(projectUid, after, heldBack);
}

EventsPage EventBus::page(const std::string& projectUid, std::int64_t after, bool& heldBack) {
    EventsPage page;
    const std::int64_t pruned = m_store.prunedEventSeq(projectUid);
    // A seq from before the kept history, or one this database never handed out (the client followed
    // another database): the client's picture cannot be brought up to date event by event.
    if (after < pruned || after > m_store.latestEventSeqOverall()) {
        page.reload = true;
        page.next = m_store.latestEventSeq(projectUid);
        return page;
    }
    auto found = m_store.eventsAfter(projectUid, after, pageLimit());
    page.events = std::move(found.events);
    heldBack = found.heldBack;
    page.next = page.events.empty() ? after : page.events.back().seq;
    return page;
}

void EventBus::waitForEvents(const std::string& projectUid, std::int64_t after,
                             std::chrono::milliseconds wait, std::function<void(EventsPage)> done) {
    {
        std::lock_guard lock(m_mutex);
        if (!m_stopping) {
            m_waiters.push_back(
                Waiter{projectUid, after, std::chrono::steady_clock::now() + wait, std::move(done), true});
            m_wake.notify_all();
            return;
        }
    }
    EventsPage now;
    now.next = after;
    try {
        now = page(projectUid, after);
    } catch (const std::exception& e) {
        spdlog::warn("Could not read events: {}", e.what());
    }
    deliver(done, std::move(now));
}

void EventBus::stop() {
    {
        std::lock_guard lock(m_mutex);
        if (m_stopping && !m_thread.joinable())
            return;
        m_stopping = true;
    }
    m_wake.notify_all();
    m_pruneWake.notify_all();
    if (m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id())
        m_thread.join();
    if (m_pruner.joinable() && m_pruner.get_id() != std::this_thread::get_id())
        m_pruner.join();
}

void EventBus::deliver(std::function<void(EventsPage)>& done, EventsPage page) {
    try {
        done(std::move(page));
    } catch (const std::exception& e) {
        spdlog::warn("An events waiter failed: {}", e.what());
    }
}

void EventBus::scheduleRecheck(Waiter& waiter, bool heldBack, std::chrono::steady_clock::time_point now) {
    // Events held back wait for transactions in progress, which end in milliseconds; no news says so.
    if (!heldBack) {
        waiter.recheck = std::chrono::steady_clock::time_point::max();
        waiter.recheckDelay = {};
        return;
    }
    const auto delay = std::max(waiter.recheckDelay, kFirstRecheck);
    waiter.recheck = now + delay;
    waiter.recheckDelay = std::min(delay * 2, kLongestRecheck);
}

void EventBus::loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        // Wait for something to do: a new waiter, a publish, a deadline or stop().
        const auto hasWork = [&] {
            if (m_stopping || !m_dirtyProjects.empty())
                return true;
            for (const auto& w : m_waiters)
                if (w.fresh)
                    return true;
            return false;
        };
        if (!hasWork()) {
            auto next = std::chrono::steady_clock::time_point::max();
            for (const auto& w : m_waiters)
                next = std::min({next, w.deadline, w.recheck});
            if (next == std::chrono::steady_clock::time_point::max())
                m_wake.wait(lock, hasWork);
            else
                m_wake.wait_until(lock, next, hasWork);
        }

        const std::set<std::string> dirty = std::move(m_dirtyProjects);
        m_dirtyProjects.clear();
        const bool stopping = m_stopping;
        const auto now = std::chrono::steady_clock::now();

        // Take out the waiters to look at; they are answered (or put back) without the lock held, so
        // publishers and new waiters are never held up by database reads or callbacks.
        std::list<Waiter> candidates;
        for (auto it = m_waiters.begin(); it != m_waiters.end();) {
            const auto current = it++;
            if (stopping || current->fresh || current->deadline <= now || current->recheck <= now ||
                dirty.contains(current->projectUid))
                candidates.splice(candidates.end(), m_waiters, current);
        }
        lock.unlock();

        std::list<Waiter> keep;
        for (auto& w : candidates) {
            EventsPage found;
            found.next = w.after;
            bool heldBack = false;
            try {
                found = page(w.projectUid, w.after, heldBack);
            } catch (const std::exception& e) {
                spdlog::warn("Could not read events: {}", e.what());
            }
            if (found.reload || !found.events.empty() || stopping || w.deadline <= now) {
                deliver(w.done, std::move(found));
            } else {
                w.fresh = false;
                scheduleRecheck(w, heldBack, now);
                keep.push_back(std::move(w));
            }
        }

        lock.lock();
        m_waiters.splice(m_waiters.end(), keep);
        if (stopping && m_waiters.empty())
            return;
    }
}

} // namespace jobdeck
