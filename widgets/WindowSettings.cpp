#include "widgets/WindowSettings.h"

#include "widgets/ColumnFitter.h"

#include <QAbstractItemView>
#include <QHeaderView>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QUrl>

namespace jobdeck {

namespace {

// The header of a named table or tree, with the key its state is kept under.
QList<std::pair<QString, QHeaderView*>> headers(const QMainWindow& window) {
    QList<std::pair<QString, QHeaderView*>> found;
    for (QTableView* view : window.findChildren<QTableView*>())
        if (!view->objectName().isEmpty())
            found.append({QStringLiteral("headers/") + view->objectName(), view->horizontalHeader()});
    for (QTreeView* view : window.findChildren<QTreeView*>())
        if (!view->objectName().isEmpty())
            found.append({QStringLiteral("headers/") + view->objectName(), view->header()});
    return found;
}

} // namespace

WindowSettings::WindowSettings(const QString& settingsFile)
    : m_settings(settingsFile.isEmpty()
                     ? std::make_unique<QSettings>(QStringLiteral("jobdeck"), QStringLiteral("jobdeck"))
                     : std::make_unique<QSettings>(settingsFile, QSettings::IniFormat)) {}

WindowSettings::~WindowSettings() = default;

void WindowSettings::save(const QMainWindow& window) {
    m_settings->beginGroup(QStringLiteral("window"));
    m_settings->setValue(QStringLiteral("geometry"), window.saveGeometry());
    m_settings->setValue(QStringLiteral("state"), window.saveState());
    for (QSplitter* splitter : window.findChildren<QSplitter*>())
        if (!splitter->objectName().isEmpty())
            m_settings->setValue(QStringLiteral("splitters/") + splitter->objectName(),
                                 splitter->saveState());
    for (const auto& [key, header] : headers(window))
        m_settings->setValue(key, header->saveState());
    m_settings->endGroup();
    m_settings->sync();
}

namespace {

// A profile's name as one settings key, whatever it holds ('/' would make a group of it).
QString selectionKey(const QString& profile) {
    return QStringLiteral("selection/") + QString::fromLatin1(QUrl::toPercentEncoding(profile));
}

} // namespace

QString WindowSettings::selectedJob(const QString& profile) const {
    return m_settings->value(selectionKey(profile)).toString();
}

void WindowSettings::setSelectedJob(const QString& profile, const QString& job) {
    if (profile.isEmpty())
        return;
    if (job.isEmpty())
        m_settings->remove(selectionKey(profile));
    else
        m_settings->setValue(selectionKey(profile), job);
}

int WindowSettings::describeTab() const {
    return m_settings->value(QStringLiteral("window/describeTab"), 0).toInt();
}

void WindowSettings::setDescribeTab(int index) {
    m_settings->setValue(QStringLiteral("window/describeTab"), index);
}

bool WindowSettings::restore(QMainWindow& window) {
    m_settings->beginGroup(QStringLiteral("window"));
    const QByteArray geometry = m_settings->value(QStringLiteral("geometry")).toByteArray();
    const bool saved = !geometry.isEmpty();
    if (saved) {
        window.restoreGeometry(geometry);
        window.restoreState(m_settings->value(QStringLiteral("state")).toByteArray());
        for (QSplitter* splitter : window.findChildren<QSplitter*>()) {
            const QString key = QStringLiteral("splitters/") + splitter->objectName();
            if (!splitter->objectName().isEmpty() && m_settings->contains(key))
                splitter->restoreState(m_settings->value(key).toByteArray());
        }
        for (const auto& [key, header] : headers(window))
            if (m_settings->contains(key) && header->restoreState(m_settings->value(key).toByteArray()))
                ColumnFitter::markRestored(header);
    }
    m_settings->endGroup();
    return saved;
}

} // namespace jobdeck

namespace jobdeck {

bool WindowSettings::runNotifications() const {
    return m_settings->value(QStringLiteral("notifications/runEnded"), true).toBool();
}

void WindowSettings::setRunNotifications(bool on) {
    m_settings->setValue(QStringLiteral("notifications/runEnded"), on);
    m_settings->sync();
}

} // namespace jobdeck
