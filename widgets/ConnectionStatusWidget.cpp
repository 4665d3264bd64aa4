#include "widgets/ConnectionStatusWidget.h"

#include "client/ApiClient.h"
#include "models/ThemeColors.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

#include <cmath>

namespace jobdeck {

ConnectionStatusWidget::ConnectionStatusWidget(QWidget* parent)
    : QWidget(parent)
    , m_dot(new QLabel(this))
    , m_text(new QLabel(this))
    , m_retry(new QToolButton(this))
    , m_restart(new QToolButton(this)) {
    setObjectName(QStringLiteral("connectionStatus"));
    m_dot->setObjectName(QStringLiteral("connectionDot"));
    m_dot->setFixedSize(12, 12);
    m_text->setObjectName(QStringLiteral("connectionStatusText"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(m_dot);
    layout->addWidget(m_text);
    m_retry->setObjectName(QStringLiteral("retryNowButton"));
    m_retry->setText(tr("Retry now"));
    m_retry->setToolTip(tr("Try to reach the service now instead of at the next attempt"));
    m_retry->setAutoRaise(true);
    m_retry->hide();
    layout->addWidget(m_retry);
    m_restart->setObjectName(QStringLiteral("restartServiceButton"));
    m_restart->setAutoRaise(true);
    m_restart->hide();
    layout->addWidget(m_restart);
    connect(m_retry, &QToolButton::clicked, this, [this] {
        if (m_monitor)
            m_monitor->checkNow();
    });
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &ConnectionStatusWidget::refresh);
    refresh();
}

void ConnectionStatusWidget::setMonitor(ConnectionMonitor* monitor, const ApiClient* client) {
    if (m_monitor)
        m_monitor->disconnect(this);
    m_monitor = monitor;
    m_client = client;
    if (monitor)
        connect(monitor, &ConnectionMonitor::stateChanged, this, &ConnectionStatusWidget::refresh);
    refresh();
}

void ConnectionStatusWidget::setProfileName(const QString& name) {
    m_profile = name;
    refresh();
}

void ConnectionStatusWidget::showNote(const QString& text) {
    m_tick.stop();
    m_dot->setStyleSheet(QStringLiteral("background: %1; border-radius: 6px;")
                             .arg(ThemeColors::css(ThemeColor::StatusQueued, palette())));
    m_text->setText(m_profile.isEmpty() ? text : m_profile + QStringLiteral(" — ") + text);
}

void ConnectionStatusWidget::setRestartAction(QAction* action) {
    m_restart->setDefaultAction(action);
    const auto follow = [this, action] { m_restart->setVisible(action->isEnabled()); };
    connect(action, &QAction::changed, this, follow);
    follow();
}

QString ConnectionStatusWidget::text() const {
    return m_text->text();
}

void ConnectionStatusWidget::refresh() {
    ThemeColor color = ThemeColor::StatusQueued;
    QString text = tr("Not connected");
    if (m_monitor) {
        const QString url = m_client ? m_client->connection().baseUrl.toString() : QString();
        switch (m_monitor->state()) {
        case ConnectionMonitor::State::Idle:
            break;
        case ConnectionMonitor::State::Connecting:
            color = ThemeColor::StatusCanceled;
            text = tr("Connecting to %1…").arg(url);
            break;
        case ConnectionMonitor::State::Connected:
            color = ThemeColor::StatusCompleted;
            text = tr("Connected to %1 (jobdeckd %2)").arg(url, m_monitor->serviceVersion());
            break;
        case ConnectionMonitor::State::Reconnecting: {
            color = ThemeColor::StatusFailed;
            const auto seconds =
                static_cast<int>(std::ceil(static_cast<double>(m_monitor->retryIn().count()) / 1000.0));
            text = seconds > 0
                       ? tr("Disconnected (%1), reconnecting in %2 s").arg(m_monitor->reason()).arg(seconds)
                       : tr("Disconnected (%1), reconnecting…").arg(m_monitor->reason());
            break;
        }
        case ConnectionMonitor::State::Disconnected:
            color = ThemeColor::StatusFailed;
            text = tr("Disconnected: %1").arg(m_monitor->reason());
            break;
        }
        const bool reconnecting = m_monitor->state() == ConnectionMonitor::State::Reconnecting;
        if (reconnecting)
            m_tick.start();
        else
            m_tick.stop();
        m_retry->setVisible(reconnecting);
    }
    m_dot->setStyleSheet(
        QStringLiteral("background: %1; border-radius: 6px;").arg(ThemeColors::css(color, palette())));
    m_text->setText(m_profile.isEmpty() ? text : m_profile + QStringLiteral(" — ") + text);
}

} // namespace jobdeck
