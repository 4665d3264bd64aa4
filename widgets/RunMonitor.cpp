#include "widgets/RunMonitor.h"

#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/policy/RunOutcome.h"
#include "models/QtStrings.h"
#include "models/RunsTableModel.h"
#include "models/RunsViewProxy.h"
#include "models/ThemeColors.h"
#include "widgets/FocusReturn.h"
#include "widgets/LogView.h"
#include "widgets/RunGauge.h"
#include "widgets/RunTimeline.h"

#include "ui_RunMonitor.h"

#include <QAction>
#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <chrono>
#include <memory>

namespace jobdeck {

namespace {

// Runs only move forward; an answer that left the service before a newer one must not undo it.
int progress(JobRunStatus s) {
    switch (s) {
    case JobRunStatus::Queued:
        return 0;
    case JobRunStatus::Running:
        return 1;
    default:
        return 2;
    }
}

// A runs table of the form: whole rows selected, several at once, read-only, one line per run.
void setUpRunsView(QTableView* view, QAbstractItemModel* model) {
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSortingEnabled(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
}

// The runs view fits its columns to what they hold, so Status, Started and Detail are read in full at
// the width of a 1280×800 window: the run id is elided in the middle (whole in its tooltip), the queue
// time, key and overrides are left to the History tab, and Detail takes the rest.
void fitRunsViewColumns(QTableView* view) {
    QHeaderView* header = view->horizontalHeader();
    for (const int column :
         {RunsTableModel::Queued, RunsTableModel::IdempotencyKey, RunsTableModel::Overrides})
        view->setColumnHidden(column, true);
    for (const int column : {RunsTableModel::Status, RunsTableModel::Job, RunsTableModel::Started,
                             RunsTableModel::Elapsed, RunsTableModel::ExitCode})
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    view->setTextElideMode(Qt::ElideMiddle);
    header->setSectionResizeMode(RunsTableModel::RunId, QHeaderView::Interactive);
    view->setColumnWidth(RunsTableModel::RunId, view->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 14);
    header->setSectionResizeMode(RunsTableModel::Detail, QHeaderView::Stretch);
}

} // namespace

RunMonitor::RunMonitor(ApiClient* client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_events(new EventsSubscription(client, this))
    , m_model(new RunsTableModel(this))
    , m_ui(std::make_unique<Ui::RunMonitor>()) {
    m_ui->setupUi(this); // widgets/RunMonitor.ui
    bindForm();
    m_activeProxy = new RunsViewProxy(this);
    m_activeProxy->setSourceModel(m_model);
    m_historyProxy = new QSortFilterProxyModel(this);
    m_historyProxy->setSourceModel(m_model);
    m_historyProxy->setSortRole(RunsTableModel::RawDataRole);
    m_historyProxy->sort(RunsTableModel::Queued, Qt::DescendingOrder);
    setUpRunsView(m_activeView, m_activeProxy);
    fitRunsViewColumns(m_activeView);
    setUpRunsView(m_historyView, m_historyProxy);
    shareTheHeight();
    connectViews();
    connectEvents();
    setUpTimers();
    connectModel();
    refreshSummary();
}

RunMonitor::~RunMonitor() {
    m_events->stop();
}

void RunMonitor::shareTheHeight() {
    // The runs and the log share the height evenly: concurrent runs stay in view above the output. The
    // History page (a tab beside the log) would otherwise hold the tabs at the height of its table and
    // its timeline together; short of room, it gives up the timeline (collapsed) before its table.
    m_ui->runsSplitter->setStretchFactor(0, 1);
    m_ui->runsSplitter->setStretchFactor(1, 1);
    m_ui->historySplitter->setCollapsible(0, false);
    m_ui->historySplitter->setMinimumHeight(m_historyView->minimumSizeHint().height());
    m_ui->runsSplitter->setSizes({1000, 1000}); // weights, scaled to the splitter's height
}

void RunMonitor::bindForm() {
    m_title = m_ui->titleLabel;
    m_gauge = m_ui->gauge;
    m_message = m_ui->messageLabel;
    m_activeView = m_ui->activeRunsView;
    m_historyView = m_ui->historyView;
    m_cancel = m_ui->cancelButton;
    m_hideFinished = m_ui->hideFinishedCheck;
    m_clusterGaugesLayout = m_ui->clusterGaugesLayout;
    m_tabs = m_ui->detailTabs;
    m_log = m_ui->logView;
    m_timeline = m_ui->timeline;
}

void RunMonitor::connectViews() {
    connect(m_cancel, &QPushButton::clicked, this, &RunMonitor::cancelSelected);
    auto* cancelKey = new QAction(m_cancel->text(), m_activeView);
    cancelKey->setShortcut(QKeySequence::Delete);
    cancelKey->setShortcutContext(Qt::WidgetShortcut);
    m_activeView->addAction(cancelKey);
    connect(cancelKey, &QAction::triggered, this, &RunMonitor::cancelSelected);
    connect(m_hideFinished, &QCheckBox::toggled, this, [this](bool hide) { setShowFinished(!hide); });
    connect(m_activeView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &RunMonitor::updateCancelButton);
    connect(m_activeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { followSelected(m_activeView); });
    connect(m_historyView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { followSelected(m_historyView); });
}

void RunMonitor::connectEvents() {
    connect(m_events, &EventsSubscription::eventsReceived, this, &RunMonitor::onEvents);
    connect(m_events, &EventsSubscription::reloadNeeded, this, &RunMonitor::reload);
    connect(m_events, &EventsSubscription::errorOccurred, this,
            [this](const ApiError& error, std::chrono::milliseconds retryIn) {
                setMessage(tr("Live updates interrupted (%1); retrying in %2 s")
                               .arg(error.toString())
                               .arg(std::max<qint64>(1, retryIn.count() / 1000)),
                           true);
            });
}

// Events and ticks are coalesced: a burst is one SHOW CLUSTERS, one DESCRIBE per run, one repaint.
void RunMonitor::setUpTimers() {
    for (QTimer* timer : {&m_fetchTimer, &m_applyTimer, &m_timelineTimer, &m_clustersTimer})
        timer->setSingleShot(true);
    m_clustersTimer.setInterval(100);
    connect(&m_clustersTimer, &QTimer::timeout, this, &RunMonitor::loadClusters);
    m_fetchTimer.setInterval(30);
    m_applyTimer.setInterval(20);
    m_timelineTimer.setInterval(250);
    connect(&m_fetchTimer, &QTimer::timeout, this, &RunMonitor::fetchPendingRuns);
    connect(&m_applyTimer, &QTimer::timeout, this, &RunMonitor::applyFetched);
    connect(&m_timelineTimer, &QTimer::timeout, this, &RunMonitor::refreshTimeline);
    m_reloadRetryTimer.setSingleShot(true);
    connect(&m_reloadRetryTimer, &QTimer::timeout, this, &RunMonitor::reload);
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        m_model->setNow(timestampNow());
        if (m_model->activeCount() > 0)
            m_timelineTimer.start();
        refetchAdmittedInView();
    });
}

void RunMonitor::connectModel() {
    const auto changed = [this] {
        refreshSummary();
        updateCancelButton();
        showOutcomeInLog();
        if (!m_timelineTimer.isActive())
            m_timelineTimer.start();
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, changed);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, changed);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(m_model, &QAbstractItemModel::dataChanged, this, [changed](const QModelIndex& topLeft) {
        if (topLeft.column() != RunsTableModel::Elapsed) // not for the clock ticks
            changed();
    });
}

void RunMonitor::setJob(const QString& jobName) {
    m_jobName = jobName;
    m_reloadRetryTimer.stop();
    m_reloadBackoff.reset();
    m_activeView->setColumnHidden(RunsTableModel::Job, !jobName.isEmpty());
    m_historyView->setColumnHidden(RunsTableModel::Job, !jobName.isEmpty());
    m_log->clear();
    m_limits.clear();
    m_jobCluster.clear();
    refreshClusterGauges();
    reload();
    // The subscription is project-wide; events of other Jobs are filtered out when they arrive.
    if (!m_events->isRunning())
        m_events->start(0);
    m_tick.start();
}

void RunMonitor::forget() {
    ++m_generation;
    m_loading = false;
    m_limitsPending = false;
    for (QTimer* timer : {&m_fetchTimer, &m_applyTimer, &m_clustersTimer, &m_reloadRetryTimer})
        timer->stop();
    m_reloadBackoff.reset();
    m_pendingRuns.clear();
    m_fetched.clear();
    m_cancelWaiting.clear();
    m_limits.clear();
    m_pendingSelect = {};
    m_log->clear();
    m_model->setRuns({});
    m_clusters.clear();
    refreshClusterGauges();
    m_gauge->setValues(0, limit());
    setMessage({}, false);
}

bool RunMonitor::concerns(const std::string& jobName) const {
    return m_jobName.isEmpty() || q(jobName) == m_jobName;
}

void RunMonitor::reload() {
    const int generation = ++m_generation;
    m_loadedAt = timestampNow();
    m_loading = true;
    struct Load {
        std::vector<SparkJobRun> active;
        std::vector<SparkJobRun> recent;
        int pending = 2;
        QString error;
    };
    auto load = std::make_shared<Load>();
    const auto finish = [this, generation, load] {
        if (--load->pending > 0 || generation != m_generation)
            return;
        m_loading = false;
        if (!load->error.isEmpty()) {
            const std::chrono::milliseconds wait = m_reloadBackoff.afterFailure();
            setMessage(tr("Cannot load the runs: %1; retrying in %2 s")
                           .arg(load->error)
                           .arg(std::chrono::duration_cast<std::chrono::seconds>(wait).count()),
                       true);
            m_reloadRetryTimer.start(wait);
            return;
        }
        m_reloadRetryTimer.stop();
        m_reloadBackoff.reset();
        // Every active run, and the newest finished ones.
        std::vector<SparkJobRun> runs = std::move(load->active);
        for (SparkJobRun& run : load->recent) {
            if (!run.isActive())
                runs.push_back(std::move(run));
        }
        m_model->setRuns(std::move(runs));
        m_model->setNow(timestampNow());
        m_model->pruneFinished(static_cast<std::size_t>(m_historyLimit));
        setMessage({}, false);
        m_cancelWaiting.clear();
        applyFetched(); // what events brought in meanwhile
        selectPending();
        emit loaded();
    };
    ShowJobRunsStatement active;
    if (!m_jobName.isEmpty())
        active.jobName = m_jobName.toStdString();
    active.activeOnly = true;
    ShowJobRunsStatement recent = active;
    recent.activeOnly = false;
    recent.limit = m_historyLimit;
    for (const auto& [statement, member] :
         {std::pair{active, &Load::active}, std::pair{recent, &Load::recent}}) {
        const auto target = member; // clang 14 cannot capture a structured binding
        m_client->showJobRuns(statement)->then(
            this, [load, finish, target](const ApiReply<std::vector<SparkJobRun>>& reply) {
                if (reply.isError())
                    load->error = reply.error().message;
                else
                    (*load).*target = reply.value();
                finish();
            });
    }
    loadLimits();
}

void RunMonitor::loadLimits() {
    m_limitsPending = false;
    // Answers can come back in another order than asked: only the latest request's are taken, so an
    // answer from before an ALTER never replaces one from after it.
    const int request = ++m_limitsRequests;
    loadClusters();
    if (m_jobName.isEmpty())
        return; // every Job: the clusters bound the runs, not a sum of the Jobs' limits
    const std::string name = m_jobName.toStdString();
    m_client->describeJob(m_jobName)->then(this, [this, name, request](const ApiReply<SparkJob>& reply) {
        if (reply.isError() || q(name) != m_jobName || request != m_limitsRequests)
            return;
        m_limits[name] = reply.value().maxConcurrentRuns;
        m_jobCluster = q(reply.value().cluster);
        refreshSummary();
        refreshClusterGauges();
        m_timelineTimer.start();
    });
}

void RunMonitor::loadClusters() {
    const int request = ++m_clustersRequests; // as for the limits: the latest request's answer only
    m_client->showClusters()->then(
        this, [this, generation = m_generation, request](const ApiReply<std::vector<Cluster>>& reply) {
            if (reply.isError() || generation != m_generation || request != m_clustersRequests)
                return; // the next event reads them again, the clusters are another service's, or a
                        // later request's answer is the one to take
            m_clusters = reply.value();
            refreshClusterGauges();
        });
}

// One gauge per cluster (every Job) or the Job's cluster's only, made as clusters appear, laid out
// kGaugesPerRow to a row in the clusters' order so many clusters never widen the monitor.
void RunMonitor::refreshClusterGauges() {
    constexpr int kGaugesPerRow = 2;
    for (RunGauge* gauge : std::as_const(m_clusterGauges))
        m_clusterGaugesLayout->removeWidget(gauge);
    QSet<QString> known;
    int shown = 0;
    for (const Cluster& cluster : m_clusters) {
        const QString name = q(cluster.name);
        known.insert(name);
        RunGauge*& gauge = m_clusterGauges[name];
        if (!gauge) {
            gauge = new RunGauge(this);
            gauge->setObjectName(QStringLiteral("clusterGauge_") + name);
        }
        gauge->setCluster(name, cluster.driversInUse, cluster.maxOcu);
        const bool visible = m_jobName.isEmpty() || name == m_jobCluster;
        if (visible) {
            m_clusterGaugesLayout->addWidget(gauge, shown / kGaugesPerRow, shown % kGaugesPerRow);
            ++shown;
        }
        gauge->setVisible(visible);
    }
    for (auto it = m_clusterGauges.begin(); it != m_clusterGauges.end();) {
        if (known.contains(it.key())) {
            ++it;
            continue;
        }
        it.value()->deleteLater();
        it = m_clusterGauges.erase(it);
    }
}

void RunMonitor::onEvents(const QList<ProjectEvent>& events) {
    for (const ProjectEvent& event : events) {
        // Drivers in use change with any Job's runs, and with the clusters themselves.
        if (event.type == event_type::kRunStatusChanged || event.type == event_type::kClustersChanged ||
            event.type == event_type::kJobAltered)
            m_clustersTimer.start();
        if (!concerns(event.jobName))
            continue;
        if (event.type != event_type::kRunStatusChanged) {
            if (event.type == event_type::kJobAltered || event.type == event_type::kJobCreated ||
                event.type == event_type::kJobDeleted)
                m_limitsPending = true;
            continue;
        }
        if (!event.jobRunId)
            continue;
        const int row = m_model->rowOf(*event.jobRunId);
        if (row >= 0) {
            if (!m_model->run(row).isActive())
                continue; // final states do not change
        } else if (!(event.status && isActive(*event.status)) &&
                   event.at < m_loadedAt - std::chrono::minutes(1)) {
            continue; // history the load covers, replayed when the subscription started
        }
        m_pendingRuns.insert({q(event.jobName), q(*event.jobRunId)});
    }
    if (!m_pendingRuns.isEmpty() && !m_fetchTimer.isActive())
        m_fetchTimer.start();
    if (m_limitsPending)
        loadLimits();
}

void RunMonitor::fetchPendingRuns() {
    const auto pending = m_pendingRuns;
    m_pendingRuns.clear();
    for (const auto& [job, runId] : pending) {
        m_client->describeJobRun(runId, job)->then(this, [this](const ApiReply<SparkJobRun>& reply) {
            if (reply.isError())
                return; // the next event for this run fetches it again
            m_fetched.push_back(reply.value());
            if (!m_applyTimer.isActive())
                m_applyTimer.start();
        });
    }
}

// A queued run's reason changes without an event: the scheduler replaces the admission's reason when it
// next looks (docs/runs.md), usually after the console's DESCRIBE that followed the admission's event.
// The queued runs in view that still show it are read again each tick, a screenful at most.
void RunMonitor::refetchAdmittedInView() {
    if (!m_activeView->isVisible() || m_loading)
        return;
    const int first = std::max(0, m_activeView->rowAt(0));
    int last = m_activeView->rowAt(m_activeView->viewport()->height() - 1);
    if (last < 0)
        last = m_activeProxy->rowCount() - 1;
    for (int row = first; row <= last; ++row) {
        const QModelIndex source = m_activeProxy->mapToSource(m_activeProxy->index(row, 0));
        if (!source.isValid() || !m_model->awaitsTheScheduler(source.row()))
            continue;
        const SparkJobRun& run = m_model->run(source.row());
        m_pendingRuns.insert({q(run.jobName), q(run.jobRunId)});
    }
    if (!m_pendingRuns.isEmpty() && !m_fetchTimer.isActive())
        m_fetchTimer.start();
}

void RunMonitor::applyFetched() {
    if (m_fetched.empty() || m_loading)
        return; // a load in flight would replace them; applied once it is in
    std::vector<SparkJobRun> batch;
    batch.reserve(m_fetched.size());
    for (SparkJobRun& run : m_fetched) {
        if (!concerns(run.jobName))
            continue;
        const int row = m_model->rowOf(run.jobRunId);
        if (row >= 0 && progress(run.status) < progress(m_model->run(row).status))
            continue;
        batch.push_back(std::move(run));
    }
    m_fetched.clear();
    m_model->upsertRuns(std::move(batch));
    m_model->pruneFinished(static_cast<std::size_t>(m_historyLimit));
    clearCancelMessage();
    selectPending();
}

void RunMonitor::clearCancelMessage() {
    if (m_cancelWaiting.isEmpty())
        return;
    for (auto it = m_cancelWaiting.begin(); it != m_cancelWaiting.end();) {
        const int row = m_model->rowOf(it->toStdString());
        if (row < 0 || !m_model->run(row).isActive())
            it = m_cancelWaiting.erase(it);
        else
            ++it;
    }
    // The "waiting for its final state" note holds only while a cancelled run is still active.
    if (m_cancelWaiting.isEmpty())
        setMessage({}, false);
}

int RunMonitor::limit() const {
    if (m_jobName.isEmpty())
        return 0;
    const auto it = m_limits.find(m_jobName.toStdString());
    return it == m_limits.end() ? 1 : std::max(1, it->second);
}

QSortFilterProxyModel* RunMonitor::activeProxy() const {
    return m_activeProxy;
}

void RunMonitor::setShowFinished(bool show) {
    m_activeProxy->setShowFinished(show);
    if (m_hideFinished->isChecked() == show)
        m_hideFinished->setChecked(!show);
}

// The selected run is the one whose log is shown.
std::optional<SparkJobRun> RunMonitor::currentRun() const {
    const int row = m_model->rowOf(m_log->runId().toStdString());
    return row < 0 ? std::nullopt : std::optional<SparkJobRun>(m_model->run(row));
}

void RunMonitor::updateCancelButton() {
    bool anyActive = false;
    for (const QModelIndex& index : m_activeView->selectionModel()->selectedRows())
        anyActive = anyActive || m_model->run(m_activeProxy->mapToSource(index).row()).isActive();
    m_cancel->setEnabled(anyActive);
}

void RunMonitor::showOutcomeInLog() {
    const int row = m_model->rowOf(m_log->runId().toStdString());
    if (row >= 0 && !m_model->run(row).isActive())
        m_log->setOutcomeLine(m_log->runId(), q(runOutcomeLine(m_model->run(row))));
}

void RunMonitor::refreshSummary() {
    const int active = m_model->activeCount(m_jobName.toStdString());
    m_gauge->setValues(active, limit());
    m_gauge->setVisible(!m_jobName.isEmpty());
    m_title->setText(m_jobName.isEmpty() ? tr("Runs of every Job") : tr("Runs of %1").arg(m_jobName));
}

void RunMonitor::refreshTimeline() {
    m_timeline->setRuns(m_model->runs(), m_jobName.isEmpty() ? 0 : limit(), timestampNow());
}

void RunMonitor::showRun(const QString& jobName, const QString& runId) {
    m_pendingSelect = {jobName, runId};
    if (m_model->rowOf(runId.toStdString()) < 0) {
        m_pendingRuns.insert({jobName, runId});
        m_fetchTimer.start();
    }
    selectPending();
}

void RunMonitor::selectPending() {
    if (m_pendingSelect.second.isEmpty())
        return;
    const int row = m_model->rowOf(m_pendingSelect.second.toStdString());
    if (row < 0)
        return;
    const QModelIndex source = m_model->index(row, 0);
    QTableView* view = m_model->run(row).isActive() ? m_activeView : m_historyView;
    const QModelIndex proxied =
        view == m_activeView ? m_activeProxy->mapFromSource(source) : m_historyProxy->mapFromSource(source);
    view->selectionModel()->setCurrentIndex(proxied,
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view->scrollTo(proxied);
    m_log->follow(m_client, m_pendingSelect.first, m_pendingSelect.second);
    showOutcomeInLog();
    m_tabs->setCurrentWidget(m_log);
    m_pendingSelect = {};
    emit currentRunChanged();
}

void RunMonitor::followSelected(QTableView* view) {
    const QModelIndex current = view->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    const auto* proxy = static_cast<const QSortFilterProxyModel*>(view->model());
    const QModelIndex source = proxy->mapToSource(current);
    if (!source.isValid())
        return;
    const SparkJobRun& run = m_model->run(source.row());
    m_model->markSeen(run.jobRunId);
    m_log->follow(m_client, q(run.jobName), q(run.jobRunId));
    showOutcomeInLog();
    emit currentRunChanged();
}

void RunMonitor::cancelSelected() {
    QList<QPair<QString, QString>> runs;
    QStringList ids;
    for (const QModelIndex& index : m_activeView->selectionModel()->selectedRows()) {
        const SparkJobRun& run = m_model->run(m_activeProxy->mapToSource(index).row());
        if (!run.isActive())
            continue; // a finished run has nothing to cancel
        runs.append({q(run.jobName), q(run.jobRunId)});
        ids << q(run.jobRunId) + QStringLiteral(" (") + q(run.jobName) + QLatin1Char(')');
    }
    if (runs.isEmpty())
        return;
    if (m_confirmation)
        m_confirmation->close();
    const int count = static_cast<int>(runs.size());
    m_confirmation = new QMessageBox(
        QMessageBox::Question, tr("Jobdeck"),
        tr("Cancel %n run(s)? Their drivers are stopped and they end as CANCELED.", nullptr, count),
        QMessageBox::NoButton, this);
    m_confirmation->setObjectName(QStringLiteral("cancelConfirmation"));
    m_confirmation->setInformativeText(ids.join(QLatin1Char('\n')));
    // Verbs on the buttons: "Yes"/"No" under a question about cancelling reads both ways.
    QPushButton* cancel = m_confirmation->addButton(
        count == 1 ? tr("Cancel run") : tr("Cancel %1 runs").arg(count), QMessageBox::AcceptRole);
    cancel->setObjectName(QStringLiteral("confirmCancelRuns"));
    QPushButton* keep = m_confirmation->addButton(tr("Keep running"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    m_confirmation->setDefaultButton(keep);
    m_confirmation->setEscapeButton(keep);
    m_confirmation->setAttribute(Qt::WA_DeleteOnClose);
    connect(cancel, &QPushButton::clicked, this, [this, runs] { cancelRuns(runs); });
    openReturningFocus(m_confirmation);
}

void RunMonitor::focusRuns() {
    m_activeView->setFocus(Qt::ShortcutFocusReason);
    if (!m_activeView->currentIndex().isValid() && m_activeProxy->rowCount() > 0)
        m_activeView->setCurrentIndex(m_activeProxy->index(0, 0));
}

void RunMonitor::cancelRuns(const QList<QPair<QString, QString>>& jobAndRunIds) {
    for (const auto& jobAndRunId : jobAndRunIds) {
        const QString& job = jobAndRunId.first;
        const QString& runId = jobAndRunId.second;
        m_model->markCancelRequested(runId.toStdString());
        m_client->cancelJobRun(runId, job)
            ->then(this, [this, job, runId](const ApiReply<nlohmann::json>& reply) {
                if (reply.isError()) {
                    m_model->clearCancelRequested(runId.toStdString());
                    setMessage(tr("Cannot cancel run %1: %2").arg(runId, reply.error().message), true);
                } else {
                    m_cancelWaiting.insert(runId);
                    setMessage(tr("Cancel requested for run %1; waiting for its final state.").arg(runId),
                               false);
                }
                m_pendingRuns.insert({job, runId});
                m_fetchTimer.start();
            });
    }
}

QString RunMonitor::message() const {
    return m_message->text();
}

void RunMonitor::setMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(
        error ? QStringLiteral("color: %1;").arg(ThemeColors::css(ThemeColor::ErrorText, palette()))
              : QString());
    m_message->setVisible(!text.isEmpty());
}

} // namespace jobdeck
