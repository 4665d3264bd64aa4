#pragma once

#include "service/stores/Stores.h"

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace jobdeck {

class PgConnection;

// The events other jobdeckd replicas store in the same database, as they commit: PgEventNotifier
// notifies channel kChannel with the project's uid once a transaction that stored events committed, and this
// listener (its own connection, its own thread) LISTENs on it and hands each uid to `changed`. While the
// database cannot be reached it tries again every second; once back it calls changed("") because
// notifications sent meanwhile are lost.
class PgEventListener final : public EventWatch {
public:
    static constexpr const char* kChannel = "jobdeck_events";

    PgEventListener(std::string url, std::function<void(const std::string& projectUid)> changed);
    ~PgEventListener() override;
    PgEventListener(const PgEventListener&) = delete;
    PgEventListener& operator=(const PgEventListener&) = delete;

private:
    void loop();
    // Waits up to `timeout` for the connection's socket; false when stopping.
    bool waitReadable(PgConnection& connection, int timeoutMs);
    bool pause(std::chrono::milliseconds duration); // false when stopping

    const std::string m_url;
    const std::function<void(const std::string&)> m_changed;
    std::mutex m_mutex;
    std::condition_variable m_stop;
    bool m_stopping = false;
    int m_stopFd = -1; // an eventfd written at stop, so the socket wait returns at once
    std::thread m_thread;
};

} // namespace jobdeck
