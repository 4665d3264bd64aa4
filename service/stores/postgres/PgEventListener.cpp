#include "service/stores/postgres/PgEventListener.h"

#include "service/stores/postgres/PgConnection.h"

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace jobdeck {

PgEventListener::PgEventListener(std::string url, ReplicaNews news)
    : m_url(std::move(url))
    , m_news(std::move(news))
    , m_stopFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    m_thread = std::thread([this] { loop(); });
}

PgEventListener::~PgEventListener() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_stop.notify_all();
    if (m_stopFd >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(m_stopFd, &one, sizeof one);
    }
    m_thread.join();
    if (m_stopFd >= 0)
        ::close(m_stopFd);
}

void PgEventListener::loop() {
    bool missed = false; // notifications may have been sent while there was no connection
    std::string failing;
    for (;;) {
        try {
            const auto connection = PgConnection::open(m_url);
            connection->execute(std::string("LISTEN ") + kChannel);
            connection->execute(std::string("LISTEN ") + kAdmissionsChannel);
            if (!failing.empty())
                spdlog::info("events of other replicas: listening again");
            failing.clear();
            if (missed && m_news.eventsStored)
                m_news.eventsStored("");
            missed = true;
            while (waitReadable(*connection, 1000))
                for (const auto& notification : connection->takeNotifications())
                    tell(notification);
            return;
        } catch (const std::exception& e) {
            if (failing != e.what())
                spdlog::warn("events of other replicas: {} (trying again every second)", e.what());
            failing = e.what();
            missed = true;
        }
        if (!pause(std::chrono::seconds(1)))
            return;
    }
}

void PgEventListener::tell(const PgConnection::Notification& notification) const {
    if (notification.channel == kAdmissionsChannel) {
        if (m_news.runsAdmitted)
            m_news.runsAdmitted();
    } else if (m_news.eventsStored) {
        m_news.eventsStored(notification.payload);
    }
}

bool PgEventListener::waitReadable(PgConnection& connection, int timeoutMs) {
    pollfd fds[2] = {{connection.socket(), POLLIN, 0}, {m_stopFd, POLLIN, 0}};
    ::poll(fds, m_stopFd >= 0 ? 2 : 1, timeoutMs);
    std::lock_guard lock(m_mutex);
    return !m_stopping;
}

bool PgEventListener::pause(std::chrono::milliseconds duration) {
    std::unique_lock lock(m_mutex);
    return !m_stop.wait_for(lock, duration, [this] { return m_stopping; });
}

} // namespace jobdeck
