#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QSystemTrayIcon;

namespace jobdeck {

// Shows a desktop notification: through org.freedesktop.Notifications on the session bus (QtDBus)
// when a notification service answers there, otherwise as a QSystemTrayIcon message where a system
// tray exists, otherwise nowhere (the caller's status bar message remains). The D-Bus call is
// asynchronous; its failure (no service, no bus) falls back to the tray.
class DesktopNotifier : public QObject {
    Q_OBJECT
public:
    enum class Backend { DBus, Tray, None };
    Q_ENUM(Backend)

    explicit DesktopNotifier(QObject* parent = nullptr);
    ~DesktopNotifier() override;

    void notify(const QString& title, const QString& body);
    // Whether this build can reach D-Bus at all (Qt6 DBus found at build time).
    static bool hasDBusSupport();

signals:
    // Where a notification went, once that is known.
    void shown(jobdeck::DesktopNotifier::Backend backend, const QString& title, const QString& body);

private:
    void notifyByTray(const QString& title, const QString& body);

    QPointer<QSystemTrayIcon> m_tray;
};

} // namespace jobdeck
