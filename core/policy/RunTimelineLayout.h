#pragma once

#include "core/wire/Timestamp.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace jobdeck {

// One run on the timeline: active (counting against the Job's limit) from queuedAt until endedAt, or
// until now while it has not ended; running from startedAt.
struct TimelineRun final {
    TimePoint queuedAt{};
    std::optional<TimePoint> startedAt;
    std::optional<TimePoint> endedAt;
};

// The bar of one run: [start, end) on its lane. Intervals touching at one instant do not overlap.
struct TimelineBar final {
    std::size_t run = 0; // index into the input
    int lane = 0;
    TimePoint start{};
    std::optional<TimePoint> runningFrom; // within [start, end] when the run got its driver
    TimePoint end{};
    bool open = false; // still active: `end` is "now"
};

// The concurrency level is `level` from `at` until the next step (the last step holds onwards).
struct ConcurrencyStep final {
    TimePoint at{};
    int level = 0;
    bool operator==(const ConcurrencyStep&) const = default;
};

struct TimeInterval final {
    TimePoint start{};
    TimePoint end{};
    bool operator==(const TimeInterval&) const = default;
};

// Where a timeline of runs puts each run and how many were active at once, so the console can show
// when a Job ran at its cap. Pure computation, no painting.
struct RunTimelineLayout final {
    std::vector<TimelineBar> bars; // one per input run, in input order
    int laneCount = 0;
    std::vector<ConcurrencyStep> concurrency; // starts at the first run, ends with a step to 0 unless open
    int peak = 0;
    std::vector<TimeInterval> atCap; // maximal intervals where the level is at or above the limit
    TimePoint from{};                // earliest start
    TimePoint to{};                  // latest end

    // The level at instant t (0 before the first step).
    int levelAt(TimePoint t) const;
};

// Lanes are assigned greedily by start time, so overlapping runs never share a lane and the number of
// lanes equals the peak concurrency. A run with no end is active until `now`; an end before its start
// (clock skew) is treated as an instant run. `limit` below 1 is treated as 1.
RunTimelineLayout layoutRunTimeline(const std::vector<TimelineRun>& runs, int limit, TimePoint now);

} // namespace jobdeck
