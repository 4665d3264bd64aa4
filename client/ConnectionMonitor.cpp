#include "client/ConnectionMonitor.h"

#include "client/ApiClient.h"

namespace jobdeck {

ConnectionMonitor::ConnectionMonitor(ApiClient* client, QObject* parent)
    : QObject(parent)
    , m_client(client) {
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ConnectionMonitor::check);
    // A failed request is the earliest sign of a lost service; don't wait for the next health poll.
    connect(client, &ApiClient::unreachable, this, [this] {
        if (m_state == State::Connected)
            checkNow();
    });
    // Any request refused for its credentials (a key revoked while connected): health polls, which
    // carry none, would go on saying Connected.
    connect(client, &ApiClient::credentialsRefused, this, [this](const QString& reason) {
        if (m_state != State::Idle && m_state != State::Disconnected)
            refuseCredentials(reason);
    });
}

void ConnectionMonitor::refuseCredentials(const QString& reason) {
    ++m_generation; // a check in flight is moot
    m_checking = false;
    m_timer.stop();
    setState(State::Disconnected, QStringLiteral("the service refused the credentials (%1)").arg(reason));
}

void ConnectionMonitor::setBackoff(std::chrono::milliseconds initial, std::chrono::milliseconds cap) {
    m_backoff.setLimits(initial, cap);
}

void ConnectionMonitor::start() {
    stop();
    m_backoff.reset();
    setState(State::Connecting);
    check();
}

void ConnectionMonitor::stop() {
    ++m_generation;
    m_checking = false;
    m_timer.stop();
    setState(State::Idle);
}

void ConnectionMonitor::checkNow() {
    if (m_state == State::Idle || m_state == State::Disconnected)
        return;
    m_timer.stop();
    check();
}

std::chrono::milliseconds ConnectionMonitor::retryIn() const {
    if (m_state != State::Reconnecting)
        return std::chrono::milliseconds(0);
    return std::chrono::milliseconds(m_nextAttempt.remainingTime());
}

void ConnectionMonitor::check() {
    if (!m_client || m_checking)
        return;
    m_checking = true;
    const int generation = m_generation;
    m_client->health()->then(this, [this, generation](const ApiReply<QString>& r) {
        if (generation != m_generation)
            return;
        m_checking = false;
        if (r.isError()) {
            scheduleRetry(r.error().message);
            return;
        }
        m_version = r.value();
        if (m_state == State::Connected) {
            m_timer.start(m_healthInterval);
            return;
        }
        verifyCredentials();
    });
}

void ConnectionMonitor::verifyCredentials() {
    m_checking = true;
    const int generation = m_generation;
    m_client->describeProject()->then(this, [this, generation](const ApiReply<Project>& r) {
        if (generation != m_generation)
            return;
        m_checking = false;
        if (r.isError()) {
            if (r.error().kind == ApiError::Kind::Auth) {
                refuseCredentials(r.error().message);
                return;
            }
            scheduleRetry(r.error().message);
            return;
        }
        m_backoff.reset();
        m_callerRole = QString::fromStdString(r.value().callerRole);
        setState(State::Connected);
        m_timer.start(m_healthInterval);
        emit connected();
    });
}

void ConnectionMonitor::scheduleRetry(const QString& reason) {
    const std::chrono::milliseconds wait = m_backoff.afterFailure();
    m_nextAttempt = QDeadlineTimer(wait.count());
    m_timer.start(wait);
    setState(State::Reconnecting, reason);
}

void ConnectionMonitor::setState(State state, const QString& reason) {
    const bool changed = state != m_state || reason != m_reason;
    m_state = state;
    m_reason = reason;
    // Reconnecting is re-announced on every attempt, so the countdown restarts where it is shown.
    if (changed || state == State::Reconnecting)
        emit stateChanged(state);
}

} // namespace jobdeck
