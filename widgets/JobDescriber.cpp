#include "widgets/JobDescriber.h"

#include "client/ApiClient.h"
#include "widgets/DescribeViewer.h"

namespace jobdeck {

using nlohmann::json;

JobDescriber::JobDescriber(ApiClient* client, DescribeViewer* viewer, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_viewer(viewer) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(std::chrono::milliseconds(250));
    connect(&m_timer, &QTimer::timeout, this, &JobDescriber::flush);
}

void JobDescriber::selectionChanged(const QString& name) {
    delete m_inFlight; // its answer is for a job no longer selected
    m_pending = name;
    if (name.isEmpty())
        m_timer.stop();
    else
        m_timer.start();
}

void JobDescriber::flush() {
    m_timer.stop();
    if (!m_pending.isEmpty())
        describeNow(std::exchange(m_pending, {}));
}

void JobDescriber::cancel() {
    m_timer.stop();
    m_pending.clear();
    m_shown.clear();
    delete m_inFlight;
}

void JobDescriber::onEvents(const QList<ProjectEvent>& events) {
    if (m_shown.isEmpty() || !m_pending.isEmpty())
        return; // nothing shown, or a DESCRIBE is about to be sent anyway
    const std::string shown = m_shown.toStdString();
    for (const ProjectEvent& event : events) {
        const bool aboutTheJob = event.jobName == shown && (event.type == event_type::kJobAltered ||
                                                            event.type == event_type::kJobCreated ||
                                                            event.type == event_type::kJobDeleted);
        if (aboutTheJob || event.type == event_type::kProjectAltered ||
            event.type == event_type::kClustersChanged) {
            const QString name = m_shown;
            selectionChanged(name);
            m_shown = name; // still what the viewer shows until the new answer replaces it
            return;
        }
    }
}

void JobDescriber::describeNow(const QString& name) {
    cancel();
    if (name.isEmpty())
        return;
    auto* context = new QObject(this);
    m_inFlight = context;
    ++m_requestsSent;
    m_client->execute(DescribeJobStatement{name.toStdString()})
        ->then(context, [this, context, name](const ApiReply<json>& r) {
            context->deleteLater();
            if (!m_viewer)
                return;
            if (r.isError())
                m_viewer->showMessage(tr("DESCRIBE JOB %1 failed").arg(name), r.error().toString());
            else
                m_viewer->showResponse(DescribeViewer::Subject::Job, name, r.value());
            m_shown = name;
            emit described(name);
        });
}

} // namespace jobdeck
