#pragma once

#include <cstdint>
#include <deque>
#include <mutex>

namespace jobdeck {

// How far the event seqs of a PostgreSQL database are settled: every seq at or below settled() is
// either committed and visible, or will never be. Seqs are drawn as events are inserted, while their
// transactions run at once, so a higher seq can commit before a lower one; a long poll that handed out
// the higher one first would never hand out the lower. A transaction draws a seq only once it has an id
// (the events_seq trigger), so every seq up to the highest one a poll's snapshot sees was drawn by a
// transaction whose id is below an id the poll's statement is given after its snapshot
// (pg_current_xact_id(); not the snapshot's xmax, which a transaction that is still running can reach).
// Once a later snapshot's xmin (the oldest id still running) has reached that id, all of those
// transactions have ended. Thread-safe.
class SettledEventSeqs final {
public:
    // One poll: its snapshot's xmin (the oldest transaction id still running), an id given after the
    // snapshot was taken, and the highest seq visible in the snapshot. Returns settled() after it.
    std::int64_t observe(std::int64_t xmin, std::int64_t idAfter, std::int64_t newest);
    std::int64_t settled() const;

    // Snapshots kept while they wait for their transactions to end; beyond it newer ones are not kept
    // (they would only settle sooner what an older one settles later).
    static constexpr std::size_t kWaitingLimit = 1024;

private:
    struct Seen {
        std::int64_t idAfter = 0;
        std::int64_t newest = 0;
    };
    void remember(std::int64_t idAfter, std::int64_t newest);

    mutable std::mutex m_mutex;
    std::deque<Seen> m_waiting; // idAfter and newest never decrease along it
    std::int64_t m_settled = 0;
};

} // namespace jobdeck
