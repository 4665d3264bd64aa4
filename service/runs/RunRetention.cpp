#include "service/runs/RunRetention.h"

#include "core/wire/Timestamp.h"
#include "service/stores/RunStore.h"

#include <filesystem>
#include <system_error>
#include <utility>

namespace jobdeck {
namespace {

constexpr auto kSweepInterval = std::chrono::minutes(10);

} // namespace

RunRetention::RunRetention(RunStore& runs, std::string dataDir, int retentionDays)
    : m_runs(runs)
    , m_dataDir(std::move(dataDir))
    , m_retentionDays(retentionDays) {}

void RunRetention::sweepWhenDue() {
    if (Clock::now() < m_nextSweep)
        return;
    m_nextSweep = Clock::now() + kSweepInterval;
    sweep();
}

void RunRetention::sweep() {
    const auto cutoff = std::chrono::system_clock::now() - std::chrono::hours(24) * m_retentionDays;
    for (const auto& record : m_runs.endedBefore(formatTimestamp(cutoff))) {
        if (!record.runDir.empty()) {
            std::error_code ec;
            std::filesystem::remove_all(record.runDir, ec);
        }
        m_runs.remove(record.run.jobRunId);
    }
    // Directories whose row went with a deleted Job.
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(m_dataDir) / "runs", ec)) {
        std::error_code statError;
        const auto written = fs::last_write_time(entry.path(), statError);
        if (statError ||
            written > fs::file_time_type::clock::now() - std::chrono::hours(24) * m_retentionDays)
            continue;
        if (!m_runs.exists(entry.path().filename().string()))
            fs::remove_all(entry.path(), statError);
    }
}

} // namespace jobdeck
