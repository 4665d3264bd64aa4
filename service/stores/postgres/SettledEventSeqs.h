#pragma once

#include <cstdint>
#include <deque>
#include <mutex>

namespace jobdeck {

// How far the event seqs of a PostgreSQL database are settled: every seq at or below settled() is
// either committed and visible, or will never be. Seqs are drawn as events are inserted, while their
// transactions run at once, so a higher seq can commit before a lower one; a long poll that handed out
// the higher one first would never hand out the lower. A transaction draws a seq only once it has an id
// (the events_seq trigger), so every seq up to the highest one a snapshot sees was drawn by a
// transaction whose id is below that snapshot's xmax; once a later snapshot's xmin (the oldest id still
// in progress) has reached that xmax, all of those transactions have ended. Thread-safe.
class SettledEventSeqs final {
public:
    // One snapshot: the oldest transaction id in progress, the next id to be given, and the highest
    // seq visible in it. Returns settled() after it.
    std::int64_t observe(std::int64_t xmin, std::int64_t xmax, std::int64_t newest);
    std::int64_t settled() const;

    // Snapshots kept while they wait for their transactions to end; beyond it newer ones are not kept
    // (they would only settle sooner what an older one settles later).
    static constexpr std::size_t kWaitingLimit = 1024;

private:
    struct Seen {
        std::int64_t xmax = 0;
        std::int64_t newest = 0;
    };
    void remember(std::int64_t xmax, std::int64_t newest);

    mutable std::mutex m_mutex;
    std::deque<Seen> m_waiting; // xmax and newest never decrease along it
    std::int64_t m_settled = 0;
};

} // namespace jobdeck
