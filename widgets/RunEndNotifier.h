#pragma once

#include "core/wire/ProjectEvent.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QString>

namespace jobdeck {

class DesktopNotifier;

// Tells the user when a run started from this console ends: a desktop notification titled with the
// job's name (unless turned off) and runEnded() for the status bar. Runs started elsewhere are not announced.
class RunEndNotifier final : public QObject {
    Q_OBJECT
public:
    explicit RunEndNotifier(DesktopNotifier* notifier, QObject* parent = nullptr);

    // Off: no desktop notification; the status bar message stays.
    void setNotificationsEnabled(bool enabled) { m_enabled = enabled; }
    bool notificationsEnabled() const { return m_enabled; }

    // A run this console started.
    void watch(const QString& jobName, const QString& runId);
    bool isWatching(const QString& runId) const { return m_watched.contains(runId); }
    // The project's events: a watched run reaching a final state is announced once.
    void onEvents(const QList<ProjectEvent>& events);

    // "<job>: run <id> completed." and the like: the job's name first, as people know runs by their job.
    static QString endText(const QString& jobName, const QString& runId, JobRunStatus status);

signals:
    void runEnded(const QString& jobName, const QString& runId, const QString& text);

private:
    DesktopNotifier* m_notifier;
    QSet<QString> m_watched;
    bool m_enabled = true;
};

} // namespace jobdeck
