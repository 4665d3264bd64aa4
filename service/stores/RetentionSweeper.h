#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace jobdeck {

class AuditStore;
class StatusStore;

// Deletes final request statuses older than `statusRetention` and audit entries older than
// `auditRetention`, on a thread of its own: every `interval` it walks each table from its oldest
// row, a small batch per short transaction (StatusStore::sweepExpired, AuditStore::sweepExpired) with a pause
// between batches, so requests never wait for more than one batch; it stops at the first batch that reaches
// rows younger than the cutoff.
class RetentionSweeper final {
public:
    struct Settings {
        std::chrono::seconds statusRetention{std::chrono::hours(24)};
        std::chrono::seconds auditRetention{std::chrono::hours(24 * 90)};
        std::chrono::seconds interval{60};
    };

    RetentionSweeper(StatusStore& statuses, AuditStore& audit, Settings settings);
    ~RetentionSweeper(); // stops the thread (a batch under way finishes)
    RetentionSweeper(const RetentionSweeper&) = delete;
    RetentionSweeper& operator=(const RetentionSweeper&) = delete;

private:
    void run();
    // One walk over both tables; false when stopped meanwhile.
    bool sweep();
    // Waits up to `duration`; false when stopped meanwhile.
    bool pause(std::chrono::milliseconds duration);

    StatusStore& m_statuses;
    AuditStore& m_audit;
    const Settings m_settings;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace jobdeck
