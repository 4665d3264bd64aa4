// RunTimelineLayout: lanes for overlapping runs, the concurrency level over time and when it was at cap.
#include "core/policy/RunTimelineLayout.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {
const TimePoint t0 = *parseTimestamp("2026-11-30T05:00:00.000Z");
TimePoint at(int seconds) {
    return t0 + std::chrono::seconds(seconds);
}
TimelineRun ended(int from, int to) {
    return {at(from), std::nullopt, at(to)};
}
} // namespace

class TestRunTimelineLayout final : public QObject {
    Q_OBJECT
private slots:
    void emptyInput() {
        const auto layout = layoutRunTimeline({}, 2, at(100));
        QVERIFY(layout.bars.empty());
        QCOMPARE(layout.laneCount, 0);
        QCOMPARE(layout.peak, 0);
        QVERIFY(layout.atCap.empty());
        QCOMPARE(layout.levelAt(at(5)), 0);
    }

    void overlappingRunsGetTheirOwnLanes() {
        // a [0,10)  b [5,15)  c [10,20) touches a's end: it reuses lane 0.
        const auto layout = layoutRunTimeline({ended(0, 10), ended(5, 15), ended(10, 20)}, 3, at(100));
        QCOMPARE(layout.bars.size(), std::size_t{3});
        QCOMPARE(layout.bars[0].lane, 0);
        QCOMPARE(layout.bars[1].lane, 1);
        QCOMPARE(layout.bars[2].lane, 0);
        QCOMPARE(layout.laneCount, 2);
        QCOMPARE(layout.peak, 2);
        QCOMPARE(layout.from, at(0));
        QCOMPARE(layout.to, at(20));
        const std::vector<ConcurrencyStep> expected{{at(0), 1}, {at(5), 2}, {at(15), 1}, {at(20), 0}};
        QCOMPARE(layout.concurrency, expected);
        QCOMPARE(layout.levelAt(at(4)), 1);
        QCOMPARE(layout.levelAt(at(10)), 2); // a ended, c started: still two
        QCOMPARE(layout.levelAt(at(25)), 0);
    }

    void inputOrderIsKeptAndLanesFollowStartTime() {
        const auto layout = layoutRunTimeline({ended(20, 30), ended(0, 25), ended(1, 2)}, 1, at(100));
        QCOMPARE(layout.bars[0].run, std::size_t{0});
        QCOMPARE(layout.bars[1].lane, 0); // earliest start
        QCOMPARE(layout.bars[2].lane, 1);
        QCOMPARE(layout.bars[0].lane, 1); // lane 1 is free again at 20
        QCOMPARE(layout.laneCount, 2);
    }

    void atCapIntervals() {
        // Limit 2: at cap during [5,10) and again during [30,40) where three overlap (after a lowered limit).
        const auto layout = layoutRunTimeline(
            {ended(0, 10), ended(5, 12), ended(12, 13), ended(30, 50), ended(30, 40), ended(35, 45)}, 2,
            at(100));
        const std::vector<TimeInterval> expected{{at(5), at(10)}, {at(30), at(45)}};
        QCOMPARE(layout.atCap, expected);
        QCOMPARE(layout.peak, 3);
        QCOMPARE(layout.levelAt(at(36)), 3);
    }

    void openRunsLastUntilNowAndHoldTheLevel() {
        TimelineRun running{at(0), at(2), std::nullopt};
        TimelineRun queued{at(5), std::nullopt, std::nullopt};
        const auto layout = layoutRunTimeline({running, queued}, 2, at(60));
        QVERIFY(layout.bars[0].open);
        QCOMPARE(layout.bars[0].end, at(60));
        QCOMPARE(layout.bars[0].runningFrom.value(), at(2));
        QVERIFY(!layout.bars[1].runningFrom);
        QCOMPARE(layout.levelAt(at(1000)), 2);
        const std::vector<TimeInterval> expected{{at(5), at(60)}};
        QCOMPARE(layout.atCap, expected);
    }

    void badTimesDoNotBreakTheLayout() {
        // Ended before it was queued; started after it ended; a limit of 0.
        TimelineRun skewed{at(10), at(20), at(5)};
        const auto layout = layoutRunTimeline({skewed, ended(0, 3)}, 0, at(100));
        QCOMPARE(layout.bars[0].end, at(10));
        QCOMPARE(layout.bars[0].runningFrom.value(), at(10));
        QCOMPARE(layout.peak, 1);
        const std::vector<TimeInterval> expected{{at(0), at(3)}}; // limit treated as 1
        QCOMPARE(layout.atCap, expected);
    }

    void manyRuns() {
        std::vector<TimelineRun> runs;
        for (int i = 0; i < 2000; ++i)
            runs.push_back(ended(i, i + 4)); // four at a time in steady state
        const auto layout = layoutRunTimeline(runs, 4, at(10000));
        QCOMPARE(layout.laneCount, 4);
        QCOMPARE(layout.peak, 4);
        QCOMPARE(layout.atCap.size(), std::size_t{1});
        QCOMPARE(layout.atCap.front(), (TimeInterval{at(3), at(2000)}));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunTimelineLayout)
#include "tst_runtimelinelayout.moc"
