#include "widgets/RunEndNotifier.h"

#include "widgets/DesktopNotifier.h"

namespace jobdeck {

RunEndNotifier::RunEndNotifier(DesktopNotifier* notifier, QObject* parent)
    : QObject(parent)
    , m_notifier(notifier) {}

void RunEndNotifier::watch(const QString& jobName, const QString& runId) {
    Q_UNUSED(jobName);
    m_watched.insert(runId);
}

QString RunEndNotifier::endText(const QString& jobName, const QString& runId, JobRunStatus status) {
    switch (status) {
    case JobRunStatus::Completed:
        return tr("%1: run %2 completed.").arg(jobName, runId);
    case JobRunStatus::Failed:
        return tr("%1: run %2 failed.").arg(jobName, runId);
    case JobRunStatus::Canceled:
        return tr("%1: run %2 was canceled.").arg(jobName, runId);
    default:
        return {};
    }
}

void RunEndNotifier::onEvents(const QList<ProjectEvent>& events) {
    for (const ProjectEvent& e : events) {
        if (e.type != event_type::kRunStatusChanged || !e.jobRunId || !e.status)
            continue;
        const QString runId = QString::fromStdString(*e.jobRunId);
        const QString text = endText(QString::fromStdString(e.jobName), runId, *e.status);
        if (text.isEmpty() || !m_watched.remove(runId))
            continue;
        emit runEnded(QString::fromStdString(e.jobName), runId, text);
        if (m_enabled && m_notifier)
            m_notifier->notify(tr("%1: run ended").arg(QString::fromStdString(e.jobName)), text);
    }
}

} // namespace jobdeck
