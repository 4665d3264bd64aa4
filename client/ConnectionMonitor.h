#pragma once

#include "client/RetryBackoff.h"

#include <QDeadlineTimer>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>

namespace jobdeck {

class ApiClient;

// Keeps the connection state visible and recovers by itself: polls GET /v1/health while connected,
// and after a failure retries with exponential back-off until the service answers again. Credentials
// are checked (DESCRIBE PROJECT) each time the service comes back, and any request refused for them
// (a key revoked meanwhile) disconnects; a refusal stops the retries, since only new credentials can fix
// it.
class ConnectionMonitor final : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Connecting, Connected, Reconnecting, Disconnected };
    Q_ENUM(State)

    explicit ConnectionMonitor(ApiClient* client, QObject* parent = nullptr);

    void setHealthInterval(std::chrono::milliseconds interval) { m_healthInterval = interval; }
    void setBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds cap);

    // Starts checking the client's current connection.
    void start();
    void stop();
    void checkNow();

    State state() const { return m_state; }
    QString reason() const { return m_reason; }
    QString serviceVersion() const { return m_version; }
    // The key's role as the last credentials check (DESCRIBE PROJECT's callerRole) read it; "" before.
    QString callerRole() const { return m_callerRole; }
    // Time left until the next attempt while Reconnecting.
    std::chrono::milliseconds retryIn() const;

signals:
    void stateChanged(jobdeck::ConnectionMonitor::State state);
    // Entered Connected (first time or after a loss): reload what the service holds.
    void connected();

private:
    void check();
    void verifyCredentials();
    void setState(State state, const QString& reason = {});
    void scheduleRetry(const QString& reason);
    // Disconnected until new credentials are given: no retry can help.
    void refuseCredentials(const QString& reason);

    QPointer<ApiClient> m_client;
    QTimer m_timer;
    QDeadlineTimer m_nextAttempt;
    State m_state = State::Idle;
    QString m_reason;
    QString m_version;
    QString m_callerRole;
    std::chrono::milliseconds m_healthInterval{3000};
    RetryBackoff m_backoff{std::chrono::milliseconds(1000), std::chrono::milliseconds(30000)};
    bool m_checking = false;
    int m_generation = 0;
};

} // namespace jobdeck
