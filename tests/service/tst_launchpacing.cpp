// When the run scheduler starts drivers during a burst of RUN JOBs (LaunchPacing, docs/runs.md,
// "Scheduling"), on made-up times: launches wait the longest deferral, then go for as long, and a pause
// of the burst quiet ends the burst.
#include "service/runs/LaunchPacing.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

using Clock = LaunchPacing::Clock;

const Clock::time_point kStart = Clock::time_point(1h);

// Admissions every 10 ms from kStart until `until`; whether launches were held back at each, in order.
std::vector<bool> heldDuringAdmissions(LaunchPacing& pacing, Clock::duration until) {
    std::vector<bool> held;
    for (auto at = kStart; at < kStart + until; at += 10ms) {
        pacing.admitted(at);
        held.push_back(pacing.holdBack(at + 1ms));
    }
    return held;
}

// The time from kStart at which each stretch of `held` begins (10 ms per entry), and whether it holds.
std::vector<std::pair<int, bool>> stretches(const std::vector<bool>& held) {
    std::vector<std::pair<int, bool>> result;
    for (std::size_t i = 0; i < held.size(); ++i)
        if (i == 0 || held[i] != held[i - 1])
            result.emplace_back(static_cast<int>(i) * 10, held[i]);
    return result;
}

} // namespace

class TestLaunchPacing final : public QObject {
    Q_OBJECT

private slots:
    void launchesGoWhenNothingWasAdmitted() {
        LaunchPacing pacing;
        QVERIFY(!pacing.holdBack(kStart));
        QVERIFY(!pacing.burstUnderWay());
    }

    void launchesWaitASecondThenGoASecond() {
        LaunchPacing pacing;
        const auto held = stretches(heldDuringAdmissions(pacing, 4500ms));
        const std::vector<std::pair<int, bool>> expected{
            {0, true}, {1000, false}, {2000, true}, {3000, false}, {4000, true}};
        QCOMPARE(held, expected);
        QVERIFY(pacing.burstUnderWay());
    }

    void aQuietSpellEndsTheBurst() {
        LaunchPacing pacing;
        pacing.admitted(kStart);
        QVERIFY(pacing.holdBack(kStart + LaunchPacing::kBurstQuiet - 1ms));
        QVERIFY(!pacing.holdBack(kStart + LaunchPacing::kBurstQuiet));
        QVERIFY(!pacing.burstUnderWay());
        // The next burst holds launches back from its own start, for the whole deferral.
        const auto next = kStart + 5s;
        pacing.admitted(next);
        QVERIFY(pacing.holdBack(next));
        pacing.admitted(next + 20ms);
        QVERIFY(pacing.holdBack(next + 40ms));
    }

    void anAdmissionStampedAfterTheLookIsPartOfTheBurst() {
        LaunchPacing pacing;
        pacing.admitted(kStart + 5ms); // another thread, between the scheduler reading the clock and looking
        QVERIFY(pacing.holdBack(kStart));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestLaunchPacing)
#include "tst_launchpacing.moc"
