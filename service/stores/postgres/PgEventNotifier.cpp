#include "service/stores/postgres/PgEventNotifier.h"

#include "service/stores/postgres/PgEventListener.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <utility>

namespace jobdeck {
namespace {

// The least time from one notification to the next: under a burst of admissions every listener (one
// per replica) is woken once in that time for all the projects announced meanwhile, not once per
// commit; a notification after a quiet spell goes at once.
constexpr auto kSpacing = std::chrono::milliseconds(10);

} // namespace

PgEventNotifier::PgEventNotifier(PgConnections& connections)
    : m_connections(connections)
    , m_thread([this] { loop(); }) {}

PgEventNotifier::~PgEventNotifier() {
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void PgEventNotifier::announce(const std::string& projectUid) {
    {
        const std::lock_guard lock(m_mutex);
        m_announced.insert(projectUid);
    }
    m_wake.notify_one();
}

void PgEventNotifier::announceAdmissions() {
    {
        const std::lock_guard lock(m_mutex);
        m_admissions = true;
    }
    m_wake.notify_one();
}

void PgEventNotifier::loop() {
    std::unique_lock lock(m_mutex);
    std::chrono::steady_clock::time_point lastSent;
    for (;;) {
        m_wake.wait(lock, [&] { return m_stopping || !m_announced.empty() || m_admissions; });
        if (m_announced.empty() && !m_admissions)
            return; // stopping, with everything announced sent
        m_wake.wait_until(lock, lastSent + kSpacing, [&] { return m_stopping; });
        const std::set<std::string> projects = std::move(m_announced);
        m_announced.clear();
        const bool admissions = std::exchange(m_admissions, false);
        lock.unlock();
        lastSent = std::chrono::steady_clock::now();
        send(projects, admissions);
        lock.lock();
    }
}

void PgEventNotifier::send(const std::set<std::string>& projects, bool admissions) {
    try {
        auto connection = m_connections.connection();
        for (const auto& projectUid : projects)
            connection->execute("SELECT pg_notify(?, ?)", PgEventListener::kChannel, projectUid);
        if (admissions)
            connection->execute("SELECT pg_notify(?, '')", PgEventListener::kAdmissionsChannel);
    } catch (const std::exception& e) {
        spdlog::warn(
            "Could not tell other replicas about new events or admissions (their long polls look again "
            "when they time out): {}",
            e.what());
    }
}

} // namespace jobdeck
