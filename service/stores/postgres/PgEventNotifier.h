#pragma once

#include "service/stores/postgres/PgConnections.h"

#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace jobdeck {

// Tells the other replicas' PgEventListener which projects have new events, after those events
// committed, and that RUN JOBs were admitted. NOTIFY inside the transaction that stores an event would
// hold PostgreSQL's one lock for notifying writers (cluster-wide, "database 0") until that transaction's
// commit reached the disk, so every such commit of every replica would pass one by one. Here each
// notification is a transaction of its own that writes nothing and so waits for no disk. Notifications
// are 10 ms apart at least: the projects announced meanwhile go together in the next, and admissions
// announced meanwhile are one notification on their own channel, so a burst of admissions wakes each
// listener about a hundred times a second, not once per commit. A notification that cannot be sent is
// dropped with a warning: the listeners' long polls look again when they time out. Thread-safe.
class PgEventNotifier final {
public:
    explicit PgEventNotifier(PgConnections& connections);
    ~PgEventNotifier();
    PgEventNotifier(const PgEventNotifier&) = delete;
    PgEventNotifier& operator=(const PgEventNotifier&) = delete;

    // Events of the project were committed.
    void announce(const std::string& projectUid);
    // RUN JOBs were admitted (committed).
    void announceAdmissions();

private:
    void loop();
    void send(const std::set<std::string>& projects, bool admissions);

    PgConnections& m_connections;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::set<std::string> m_announced;
    bool m_admissions = false; // admissions were announced since the last notification
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace jobdeck
