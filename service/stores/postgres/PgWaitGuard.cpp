#include "service/stores/postgres/PgWaitGuard.h"

#include "core/wire/DatabaseFaults.h"
#include "service/stores/DatabaseTimeouts.h"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace jobdeck {

namespace {

using Clock = std::chrono::steady_clock;

// The waits under way, and the thread that ends those that outlast their limit. Made on first use and
// never destroyed: guards may live on threads that outlast static destruction.
class Watchdog final {
public:
    static Watchdog& instance() {
        static Watchdog* watchdog = new Watchdog;
        return *watchdog;
    }

    std::uint64_t add(int socket, Clock::time_point deadline) {
        const std::lock_guard lock(m_mutex);
        const std::uint64_t id = ++m_lastId;
        m_waits.emplace(id, Wait{socket, deadline});
        // Waits are added with the same limit, so a new one is rarely the first due: the watchdog is
        // woken only when it is (not once per statement).
        if (deadline < m_wakeAt)
            m_changed.notify_one();
        return id;
    }

    // Whether the wait had been ended by the watchdog.
    bool remove(std::uint64_t id) {
        const std::lock_guard lock(m_mutex);
        m_waits.erase(id);
        return m_expired.erase(id) > 0;
    }

    bool expired(std::uint64_t id) {
        const std::lock_guard lock(m_mutex);
        return m_expired.count(id) > 0;
    }

private:
    struct Wait {
        int socket;
        Clock::time_point deadline;
    };

    Watchdog() {
        std::thread([this] { watch(); }).detach();
    }

    void watch() {
        std::unique_lock lock(m_mutex);
        for (;;) {
            auto next = Clock::time_point::max();
            for (const auto& [id, wait] : m_waits)
                next = std::min(next, wait.deadline);
            m_wakeAt = next;
            if (next == Clock::time_point::max())
                m_changed.wait(lock);
            else
                m_changed.wait_until(lock, next);
            m_wakeAt = Clock::time_point::min(); // awake: a new wait needs no notification
            const auto now = Clock::now();
            for (auto it = m_waits.begin(); it != m_waits.end();) {
                if (it->second.deadline > now) {
                    ++it;
                    continue;
                }
                // The socket stays open (libpq owns it) while its guard is registered: under m_mutex.
                ::shutdown(it->second.socket, SHUT_RDWR);
                spdlog::warn("the PostgreSQL server did not answer in time: closed the connection");
                m_expired.insert(it->first);
                it = m_waits.erase(it);
            }
        }
    }

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<std::uint64_t, Wait> m_waits;
    std::set<std::uint64_t> m_expired;
    std::uint64_t m_lastId = 0;
    Clock::time_point m_wakeAt = Clock::time_point::max(); // when the sleeping watchdog wakes
};

} // namespace

PgWaitGuard::PgWaitGuard(int socket, std::chrono::seconds limit)
    : m_id(socket >= 0 ? Watchdog::instance().add(socket, Clock::now() + limit) : 0) {}

PgWaitGuard::~PgWaitGuard() {
    if (m_id)
        Watchdog::instance().remove(m_id);
}

bool PgWaitGuard::expired() const {
    return m_id && Watchdog::instance().expired(m_id);
}

DatabaseFaultError pgServerTimedOut(std::string_view sql) {
    const std::string verb(sql.substr(0, sql.find_first_of(" \n")));
    return DatabaseFaultError(serverNotAnsweringMessage(verb, DatabaseTimeouts::current().clientWait()),
                              DatabaseFault::TimedOut);
}

} // namespace jobdeck
