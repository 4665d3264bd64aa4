#include "client/EventsSubscription.h"

#include "client/ApiClient.h"

namespace jobdeck {

EventsSubscription::EventsSubscription(ApiClient* client, QObject* parent)
    : QObject(parent)
    , m_client(client) {
    m_retryTimer.setSingleShot(true);
    connect(&m_retryTimer, &QTimer::timeout, this, &EventsSubscription::poll);
}

void EventsSubscription::setBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds cap) {
    m_backoff.setLimits(initial, cap);
}

void EventsSubscription::start(qint64 after) {
    stop();
    m_after = after;
    m_running = true;
    m_backoff.reset();
    poll();
}

void EventsSubscription::stop() {
    m_running = false;
    m_inFlight = false;
    ++m_generation;
    m_retryTimer.stop();
}

void EventsSubscription::poll() {
    if (!m_running || m_inFlight || !m_client)
        return;
    m_inFlight = true;
    const int generation = m_generation;
    m_client->events(m_after, m_waitSeconds)->then(this, [this, generation](const ApiReply<EventsPage>& r) {
        if (generation != m_generation)
            return;
        m_inFlight = false;
        if (r.isError()) {
            const std::chrono::milliseconds wait = m_backoff.afterFailure();
            emit errorOccurred(r.error(), wait);
            m_retryTimer.start(wait);
            return;
        }
        m_backoff.reset();
        const EventsPage& page = r.value();
        m_after = page.next;
        if (page.reload)
            emit reloadNeeded();
        if (!page.events.empty())
            emit eventsReceived(QList<ProjectEvent>(page.events.begin(), page.events.end()));
        // Signals may have stopped or restarted us.
        if (generation == m_generation)
            poll();
    });
}

} // namespace jobdeck
