#pragma once

#include "core/wire/ProjectEvent.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace jobdeck {

class EventStore;

// The per-project event feed behind GET /v1/events: events are persisted with an increasing seq (so a
// client can resume after a restart of either side) and long-poll waiters are woken when their project
// gets one. The waiting happens on the bus's own thread: waitForEvents() returns at once and `done` is
// called later from that thread, exactly once per call.
class EventBus final {
public:
    // Keeps the newest `keepPerProject` events of each project, pruning the older ones every tenth of
    // that number of events this process stores for it, on a thread of its own (no request waits for a
    // prune); a client asking from before them is told to reload (EventsPage::reload).
    explicit EventBus(EventStore& store, int keepPerProject = 10000);
    ~EventBus();
    EventBus(const EventBus&) = delete;
    EventBus& operator=(const EventBus&) = delete;

    // Persists the event (seq assigned; `at` set to now when left empty), wakes the project's waiters and
    // returns the seq. Throws DatabaseError when it cannot be stored.
    std::int64_t publish(const std::string& projectUid, ProjectEvent event);

    // Wakes the project's waiters after a commit that stored events with EventStore::appendEvent inside a
    // larger transaction (so the event is atomic with the change it reports).
    void wake(const std::string& projectUid);
    // Another process sharing the database stored events of the project (ReplicaNews::eventsStored): its
    // waiters look again. An empty uid: of any project (the news may have been missed).
    void changedElsewhere(const std::string& projectUid);

    // Calls `done` as soon as the project has events after `after`, or with an empty page (next = after)
    // once `wait` has run out. Pages hold at most pageLimit() events; `next` is the seq to ask after next.
    // After stop(), `done` is called at once with what is there now.
    void waitForEvents(const std::string& projectUid, std::int64_t after, std::chrono::milliseconds wait,
                       std::function<void(EventsPage)> done);

    // The page a waiter would get right now (possibly empty), read on the caller's thread.
    EventsPage page(const std::string& projectUid, std::int64_t after);

    // Returns once every prune asked for before the call has run (or failed, which is logged).
    void settlePrunes();

    // Answers every pending waiter with what there is now and ends the bus's threads; a prune asked
    // for and not begun is dropped (the next one catches up). Idempotent.
    void stop();

    static constexpr int pageLimit() { return 1000; }

private:
    struct Waiter {
        std::string projectUid;
        std::int64_t after = 0;
        std::chrono::steady_clock::time_point deadline;
        std::function<void(EventsPage)> done;
        bool fresh = true; // not checked against the database yet
        // When to look again without news: its events are held back until transactions end.
        std::chrono::steady_clock::time_point recheck = std::chrono::steady_clock::time_point::max();
        std::chrono::milliseconds recheckDelay{}; // the next wait; EventBus.cpp starts and caps it
    };

    void loop();
    void pruneLoop();
    EventsPage page(const std::string& projectUid, std::int64_t after, bool& heldBack);
    // When `waiter` looks again without news: soon while its events are `heldBack`, else never.
    static void scheduleRecheck(Waiter& waiter, bool heldBack, std::chrono::steady_clock::time_point now);
    static void deliver(std::function<void(EventsPage)>& done, EventsPage page);

    EventStore& m_store;
    const int m_keepPerProject;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::list<Waiter> m_waiters;
    std::set<std::string> m_dirtyProjects;      // published to since the loop last looked
    std::map<std::string, int> m_publishCounts; // per project, to prune every so often
    std::set<std::string> m_pruneDue;           // projects whose events the pruner thread prunes next
    bool m_pruning = false;                     // the pruner thread is pruning what it took
    std::condition_variable m_pruneWake;        // m_pruneDue or m_pruning changed, or stop()
    bool m_stopping = false;
    std::thread m_thread;
    std::thread m_pruner;
};

} // namespace jobdeck
