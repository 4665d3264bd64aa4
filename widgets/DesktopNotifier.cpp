#include "widgets/DesktopNotifier.h"

#include <QApplication>
#include <QIcon>
#include <QSystemTrayIcon>

#ifdef JOBDECK_HAVE_QTDBUS
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#endif

namespace jobdeck {

DesktopNotifier::DesktopNotifier(QObject* parent)
    : QObject(parent) {}

DesktopNotifier::~DesktopNotifier() {
    delete m_tray;
}

bool DesktopNotifier::hasDBusSupport() {
#ifdef JOBDECK_HAVE_QTDBUS
    return true;
#else
    return false;
#endif
}

void DesktopNotifier::notify(const QString& title, const QString& body) {
#ifdef JOBDECK_HAVE_QTDBUS
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (bus.isConnected()) {
        // org.freedesktop.Notifications.Notify(app_name, replaces_id, app_icon, summary, body, actions,
        // hints, expire_timeout); desktop-entry ties it to jobdeck.desktop.
        QDBusMessage call = QDBusMessage::createMethodCall(
            QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
            QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
        call << QStringLiteral("Jobdeck") << uint(0) << QStringLiteral("jobdeck") << title << body
             << QStringList() << QVariantMap{{QStringLiteral("desktop-entry"), QStringLiteral("jobdeck")}}
             << int(-1);
        auto* watcher = new QDBusPendingCallWatcher(bus.asyncCall(call), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, title, body] {
            watcher->deleteLater();
            if (watcher->isError())
                notifyByTray(title, body);
            else
                emit shown(Backend::DBus, title, body);
        });
        return;
    }
#endif
    notifyByTray(title, body);
}

void DesktopNotifier::notifyByTray(const QString& title, const QString& body) {
    if (!QSystemTrayIcon::isSystemTrayAvailable() || !QSystemTrayIcon::supportsMessages()) {
        emit shown(Backend::None, title, body);
        return;
    }
    if (!m_tray) {
        m_tray = new QSystemTrayIcon(QApplication::windowIcon());
        m_tray->setToolTip(QStringLiteral("Jobdeck"));
    }
    m_tray->show();
    m_tray->showMessage(title, body, QSystemTrayIcon::Information);
    emit shown(Backend::Tray, title, body);
}

} // namespace jobdeck
