#include "core/policy/RunTimelineLayout.h"

#include <algorithm>
#include <numeric>

namespace jobdeck {

int RunTimelineLayout::levelAt(TimePoint t) const {
    // The last step at or before t.
    const auto after =
        std::upper_bound(concurrency.begin(), concurrency.end(), t,
                         [](TimePoint value, const ConcurrencyStep& s) { return value < s.at; });
    return after == concurrency.begin() ? 0 : std::prev(after)->level;
}

RunTimelineLayout layoutRunTimeline(const std::vector<TimelineRun>& runs, int limit, TimePoint now) {
    RunTimelineLayout layout;
    limit = std::max(1, limit);
    layout.bars.resize(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const TimelineRun& run = runs[i];
        TimelineBar& bar = layout.bars[i];
        bar.run = i;
        bar.start = run.queuedAt;
        bar.open = !run.endedAt;
        bar.end = std::max(bar.start, run.endedAt.value_or(now));
        if (run.startedAt)
            bar.runningFrom = std::clamp(*run.startedAt, bar.start, bar.end);
    }
    if (runs.empty())
        return layout;

    // Lanes: earliest start first; the lowest lane that is free again at this start.
    std::vector<std::size_t> order(runs.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return layout.bars[a].start < layout.bars[b].start;
    });
    std::vector<TimePoint> laneFreeAt;
    for (std::size_t i : order) {
        TimelineBar& bar = layout.bars[i];
        auto lane = std::find_if(laneFreeAt.begin(), laneFreeAt.end(),
                                 [&](TimePoint freeAt) { return freeAt <= bar.start; });
        if (lane == laneFreeAt.end())
            lane = laneFreeAt.insert(laneFreeAt.end(), bar.start);
        *lane = bar.end;
        bar.lane = static_cast<int>(lane - laneFreeAt.begin());
    }
    layout.laneCount = static_cast<int>(laneFreeAt.size());

    // Concurrency: +1 at each start, -1 at each end; at one instant the ends come first, so runs that
    // touch do not count as overlapping. Instant runs (start == end) never raise the level.
    std::vector<std::pair<TimePoint, int>> changes;
    changes.reserve(runs.size() * 2);
    for (const TimelineBar& bar : layout.bars) {
        if (bar.start == bar.end)
            continue;
        changes.emplace_back(bar.start, +1);
        if (!bar.open || bar.end < now)
            changes.emplace_back(bar.end, -1);
    }
    std::sort(changes.begin(), changes.end());
    int level = 0;
    for (std::size_t i = 0; i < changes.size();) {
        const TimePoint at = changes[i].first;
        for (; i < changes.size() && changes[i].first == at; ++i)
            level += changes[i].second;
        if (layout.concurrency.empty() || layout.concurrency.back().level != level)
            layout.concurrency.push_back({at, level});
        layout.peak = std::max(layout.peak, level);
    }

    layout.from = layout.bars.front().start;
    layout.to = layout.bars.front().end;
    for (const TimelineBar& bar : layout.bars) {
        layout.from = std::min(layout.from, bar.start);
        layout.to = std::max(layout.to, bar.end);
    }

    for (std::size_t i = 0; i < layout.concurrency.size(); ++i) {
        if (layout.concurrency[i].level < limit)
            continue;
        const TimePoint end = i + 1 < layout.concurrency.size() ? layout.concurrency[i + 1].at : layout.to;
        if (!layout.atCap.empty() && layout.atCap.back().end == layout.concurrency[i].at)
            layout.atCap.back().end = end;
        else
            layout.atCap.push_back({layout.concurrency[i].at, end});
    }
    return layout;
}

} // namespace jobdeck
