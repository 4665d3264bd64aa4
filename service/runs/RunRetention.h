#pragma once

#include <chrono>
#include <string>

namespace jobdeck {

class RunStore;

// Finished runs are removed with their run directories once they ended more than the retention period
// ago (docs/runs.md, "Retention"), and so are run directories whose row went with a deleted Job. The
// scheduler thread asks every tick; the sweep runs every ten minutes.
class RunRetention final {
public:
    RunRetention(RunStore& runs, std::string dataDir, int retentionDays);
    void sweepWhenDue();

private:
    using Clock = std::chrono::steady_clock;
    void sweep();

    RunStore& m_runs;
    const std::string m_dataDir;
    const int m_retentionDays;
    Clock::time_point m_nextSweep{};
};

} // namespace jobdeck
