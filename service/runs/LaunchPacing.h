#pragma once

#include <atomic>
#include <chrono>
#include <optional>

namespace jobdeck {

// When the run scheduler starts drivers while RUN JOBs keep coming (docs/runs.md, "Scheduling"):
// admissions first. A burst is admissions less than kBurstQuiet apart, on this replica or, as heard,
// on another one sharing the database. While it lasts, launches wait kLongestDeferral, then go on for
// as long, and so on, so that a steady stream of RUN JOBs still has its runs started. Times are passed
// in, so the pacing is tested without waiting.
class LaunchPacing final {
public:
    using Clock = std::chrono::steady_clock;

    static constexpr auto kBurstQuiet = std::chrono::milliseconds(30);
    static constexpr auto kLongestDeferral = std::chrono::milliseconds(1000);

    // A run was admitted at `at` (any thread).
    void admitted(Clock::time_point at);
    // Whether launches wait at `now`.
    bool holdBack(Clock::time_point now);
    // Whether the last holdBack() found a burst under way.
    bool burstUnderWay() const { return m_burstSince.has_value(); }

private:
    std::atomic<Clock::rep> m_lastAdmission{0};    // 0: none yet (the clock's epoch is the machine's boot)
    std::optional<Clock::time_point> m_burstSince; // when launches began to wait, this time round
};

} // namespace jobdeck
