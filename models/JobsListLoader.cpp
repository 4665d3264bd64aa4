#include "models/JobsListLoader.h"

#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "models/JobsTableModel.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>
#include <utility>

namespace jobdeck {

JobsListLoader::JobsListLoader(ApiClient* client, EventsSubscription* events, JobsTableModel* model,
                               QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_events(events)
    , m_model(model) {
    m_workers.setMaxThreadCount(1);
    m_eventsTimer.setSingleShot(true);
    m_eventsTimer.setInterval(20);
    connect(&m_eventsTimer, &QTimer::timeout, this, &JobsListLoader::flushEvents);
    m_applyTimer.setSingleShot(true);
    m_applyTimer.setInterval(30);
    connect(&m_applyTimer, &QTimer::timeout, this, &JobsListLoader::applyFetched);
    connect(m_events, &EventsSubscription::eventsReceived, this, &JobsListLoader::onEvents);
    connect(m_events, &EventsSubscription::reloadNeeded, this, &JobsListLoader::reload);
}

void JobsListLoader::start() {
    const int generation = ++m_generation;
    m_client->events(0, 0)->then(this, [this, generation](const ApiReply<EventsPage>& r) {
        if (generation != m_generation)
            return;
        m_events->start(r.isError() ? 0 : r.value().next);
        reload();
    });
}

void JobsListLoader::reload() {
    const int generation = ++m_generation;
    m_loading = true;
    emit loadStarted();
    if (showsFirstRowsFirst())
        loadFirstRows(generation);
    m_client->showJobSummaries()->then(this, [this, generation](ApiReply<std::vector<SparkJobSummary>>& r) {
        if (generation != m_generation)
            return;
        if (r.isError()) {
            emit loadFailed(r.error().message);
            loadEnded();
            return;
        }
        // Made into sorted rows on a worker: the window stays live until they are swapped in. A newer
        // load or the loader's end drops them.
        using Prepared = std::shared_ptr<JobsTableModel::PreparedRows>;
        auto* watcher = new QFutureWatcher<Prepared>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
            watcher->deleteLater();
            if (generation != m_generation)
                return;
            emit rowsAboutToBeReplaced();
            m_model->setPreparedRows(watcher->future().takeResult());
            loadEnded();
            emit rowsReplaced(m_model->rowCount());
            loadRecentRuns(generation);
        });
        watcher->setFuture(
            QtConcurrent::run(&m_workers, [jobs = r.takeValue(), column = m_model->sortColumn(),
                                           order = m_model->sortOrder()]() mutable {
                return JobsTableModel::prepareRows(std::move(jobs), column, order);
            }));
    });
}

bool JobsListLoader::showsFirstRowsFirst() const {
    const bool byName = m_model->sortColumn() < 0 || (m_model->sortColumn() == JobsTableModel::Name &&
                                                      m_model->sortOrder() == Qt::AscendingOrder);
    return byName && m_model->rowCount() == 0;
}

void JobsListLoader::loadFirstRows(int generation) {
    m_client->showJobSummaries(kFirstRows)
        ->then(this, [this, generation](ApiReply<std::vector<SparkJobSummary>>& r) {
            // Too late once the full list is in, or when the user changed the list meanwhile.
            if (generation != m_generation || !m_loading || r.isError() || !showsFirstRowsFirst())
                return;
            m_model->setJobs(r.takeValue());
            emit firstRowsShown(m_model->rowCount());
        });
}

void JobsListLoader::loadRecentRuns(int generation) {
    ShowJobRunsStatement runs;
    runs.limit = kRecentRunsLoaded;
    m_client->showJobRuns(runs)->then(this, [this, generation](const ApiReply<std::vector<SparkJobRun>>& r) {
        if (generation != m_generation)
            return;
        if (!r.isError())
            m_model->setRecentRunsFromRuns(r.value());
        emit loaded();
    });
}

void JobsListLoader::onEvents(const QList<ProjectEvent>& events) {
    for (const ProjectEvent& e : events) {
        if (e.jobName.empty())
            continue;
        const QString name = QString::fromStdString(e.jobName);
        m_pendingJobs[name] = e.type == event_type::kJobDeleted;
        if (e.type == event_type::kRunStatusChanged)
            m_pendingRuns.insert(name);
    }
    if (!m_eventsTimer.isActive())
        m_eventsTimer.start();
}

void JobsListLoader::loadEnded() {
    m_loading = false;
    if (!m_pendingJobs.isEmpty() || !m_pendingRuns.isEmpty())
        m_eventsTimer.start();
    if (!m_fetched.empty())
        m_applyTimer.start();
}

void JobsListLoader::applyFetched() {
    if (m_loading)
        return; // loadEnded() applies them
    m_model->upsertJobs(std::exchange(m_fetched, {}));
}

void JobsListLoader::flushEvents() {
    if (m_loading)
        return; // loadEnded() flushes them
    const auto jobs = std::exchange(m_pendingJobs, {});
    const auto runs = std::exchange(m_pendingRuns, {});
    for (auto it = jobs.cbegin(); it != jobs.cend(); ++it) {
        const QString& name = it.key();
        if (it.value()) {
            m_model->removeJob(name.toStdString());
            continue;
        }
        m_client->describeJob(name)->then(this, [this, name](const ApiReply<SparkJob>& r) {
            if (r.isError()) {
                if (r.error().kind == ApiError::Kind::Failed || r.error().kind == ApiError::Kind::Invalid)
                    m_model->removeJob(name.toStdString()); // gone meanwhile
                return;
            }
            m_fetched.push_back(summaryOf(r.value()));
            if (!m_applyTimer.isActive())
                m_applyTimer.start();
        });
    }
    for (const QString& name : runs)
        fetchRecentRuns(name);
}

void JobsListLoader::fetchRecentRuns(const QString& jobName) {
    ShowJobRunsStatement s;
    s.jobName = jobName.toStdString();
    s.limit = JobsTableModel::kRecentRunsKept;
    m_client->showJobRuns(s)->then(this, [this, jobName](const ApiReply<std::vector<SparkJobRun>>& r) {
        if (r.isError())
            return;
        std::vector<JobRunStatus> statuses;
        for (const auto& run : r.value())
            statuses.push_back(run.status);
        m_model->setRecentRuns(jobName.toStdString(), std::move(statuses));
    });
}

} // namespace jobdeck
