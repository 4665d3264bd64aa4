#include "service/stores/postgres/PgEventNotifier.h"

#include "service/stores/postgres/PgEventListener.h"

#include <spdlog/spdlog.h>

namespace jobdeck {

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

void PgEventNotifier::loop() {
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stopping || !m_announced.empty(); });
        if (m_announced.empty())
            return; // stopping, with everything announced sent
        const std::set<std::string> projects = std::move(m_announced);
        m_announced.clear();
        lock.unlock();
        send(projects);
        lock.lock();
    }
}

void PgEventNotifier::send(const std::set<std::string>& projects) {
    try {
        auto connection = m_connections.connection();
        for (const auto& projectUid : projects)
            connection->execute("SELECT pg_notify(?, ?)", PgEventListener::kChannel, projectUid);
    } catch (const std::exception& e) {
        spdlog::warn("Could not tell other replicas about new events (their long polls look again when they "
                     "time out): {}",
                     e.what());
    }
}

} // namespace jobdeck
