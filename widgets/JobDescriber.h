#pragma once

#include "core/wire/ProjectEvent.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <chrono>

namespace jobdeck {

class ApiClient;
class DescribeViewer;

// Shows the selected job's DESCRIBE in the viewer without a button: a selection that stays put for the
// delay is described; moving the selection (or clearing it) drops the answer still on its way, so the
// viewer never shows a job that is no longer selected. Describe (Ctrl+D) asks at once. The job shown
// is described again when the service says it, its project or a cluster changed, whoever changed it.
class JobDescriber final : public QObject {
    Q_OBJECT
public:
    JobDescriber(ApiClient* client, DescribeViewer* viewer, QObject* parent = nullptr);

    void setDelay(std::chrono::milliseconds delay) { m_timer.setInterval(delay); }
    // The selection moved to `name` (empty: no job selected).
    void selectionChanged(const QString& name);
    // Describes `name` now (the pending debounced request is dropped).
    void describeNow(const QString& name);
    // Sends the debounced request now, as the delay running out would.
    void flush();
    // Another DESCRIBE takes the viewer: nothing pending or in flight may replace it.
    void cancel();
    // The project's events: a change to the job shown, the project's settings or a cluster describes
    // it again (after the delay, as a selection would).
    void onEvents(const QList<ProjectEvent>& events);

    QTimer* timer() { return &m_timer; }
    int requestsSent() const { return m_requestsSent; }

signals:
    // The viewer shows `name`'s DESCRIBE (or the reason it failed).
    void described(const QString& name);

private:
    ApiClient* m_client;
    QPointer<DescribeViewer> m_viewer;
    QTimer m_timer;
    QString m_pending;
    QString m_shown; // the job whose DESCRIBE the viewer shows, until another DESCRIBE takes it
    // Owns the callback of the request in flight: deleting it drops that answer.
    QPointer<QObject> m_inFlight;
    int m_requestsSent = 0;
};

} // namespace jobdeck
