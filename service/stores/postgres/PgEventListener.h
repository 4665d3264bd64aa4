#pragma once

#include "service/stores/Stores.h"
#include "service/stores/postgres/PgConnection.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace jobdeck {

// What other jobdeckd replicas sharing the database tell (ReplicaNews), as it commits: PgEventNotifier
// notifies channel kChannel with the project's uid once a transaction that stored events committed, and
// kAdmissionsChannel once RUN JOBs were admitted. This listener (its own connection, its own thread)
// LISTENs on both and hands each uid to news.eventsStored, each admission notice to news.runsAdmitted.
// While the database cannot be reached it tries again every second; once back it calls
// eventsStored("") because notifications sent meanwhile are lost.
class PgEventListener final : public ReplicaWatch {
public:
    static constexpr const char* kChannel = "jobdeck_events";
    static constexpr const char* kAdmissionsChannel = "jobdeck_admissions";

    PgEventListener(std::string url, ReplicaNews news);
    ~PgEventListener() override;
    PgEventListener(const PgEventListener&) = delete;
    PgEventListener& operator=(const PgEventListener&) = delete;

private:
    void loop();
    void tell(const PgConnection::Notification& notification) const;
    // Waits up to `timeout` for the connection's socket; false when stopping.
    bool waitReadable(PgConnection& connection, int timeoutMs);
    bool pause(std::chrono::milliseconds duration); // false when stopping

    const std::string m_url;
    const ReplicaNews m_news;
    std::mutex m_mutex;
    std::condition_variable m_stop;
    bool m_stopping = false;
    int m_stopFd = -1; // an eventfd written at stop, so the socket wait returns at once
    std::thread m_thread;
};

} // namespace jobdeck
