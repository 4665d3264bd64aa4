#pragma once

#include "client/ConnectionMonitor.h"

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QLabel;
class QToolButton;

namespace jobdeck {

class ApiClient;

// The always-visible connection state for the status bar: a coloured dot and
// "Connected to <url>", "Connecting…", "Disconnected (<reason>), reconnecting in N s" or
// "Disconnected: <reason>"; the countdown ticks every second. While it counts down, "Retry now" asks
// at once instead.
class ConnectionStatusWidget final : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionStatusWidget(QWidget* parent = nullptr);

    // `client` says which URL the monitor watches.
    void setMonitor(ConnectionMonitor* monitor, const ApiClient* client);
    // Shown before the state: the profile name, e.g. "Local".
    void setProfileName(const QString& name);
    // A state the monitor does not know about, such as the local service starting.
    void showNote(const QString& text);
    // A button for `action` (restarting the Local profile's own service), shown while it is enabled.
    void setRestartAction(QAction* action);
    QString text() const;

private:
    void refresh();

    QPointer<ConnectionMonitor> m_monitor;
    QPointer<const ApiClient> m_client;
    QString m_profile;
    QLabel* m_dot;
    QLabel* m_text;
    QToolButton* m_retry;
    QToolButton* m_restart;
    QTimer m_tick;
};

} // namespace jobdeck
