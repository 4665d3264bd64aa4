#pragma once

#include "client/ApiError.h"
#include "client/RetryBackoff.h"
#include "core/wire/ProjectEvent.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <chrono>

namespace jobdeck {

class ApiClient;

// Follows GET /v1/events as a long poll: the next poll starts only after the previous one answered.
// Errors back off exponentially (capped) and reset on the first good answer. A page with `reload: true`
// means events were dropped: reloadNeeded() asks the owner to reload its state; polling then continues
// from the page's `next`.
class EventsSubscription final : public QObject {
    Q_OBJECT
public:
    explicit EventsSubscription(ApiClient* client, QObject* parent = nullptr);

    void setWaitSeconds(int seconds) { m_waitSeconds = seconds; }
    void setBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds cap);

    // Starts after `after` (0: from the oldest kept event).
    void start(qint64 after = 0);
    void stop();
    bool isRunning() const { return m_running; }
    qint64 position() const { return m_after; }
    // The delay before the next attempt after the last error; 0 while polls succeed.
    std::chrono::milliseconds currentBackoff() const { return m_backoff.current(); }

signals:
    void eventsReceived(const QList<jobdeck::ProjectEvent>& events);
    void reloadNeeded();
    void errorOccurred(const jobdeck::ApiError& error, std::chrono::milliseconds retryIn);

private:
    void poll();

    QPointer<ApiClient> m_client;
    QTimer m_retryTimer;
    int m_waitSeconds = 20;
    RetryBackoff m_backoff{std::chrono::milliseconds(500), std::chrono::milliseconds(30000)};
    qint64 m_after = 0;
    bool m_running = false;
    bool m_inFlight = false;
    // Bumped by stop(), so an answer to a poll from before a restart is dropped.
    int m_generation = 0;
};

} // namespace jobdeck
