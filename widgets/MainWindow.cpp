#include "widgets/MainWindow.h"

#include "client/ApiClient.h"
#include "client/ConnectionMonitor.h"
#include "client/ConnectionProfiles.h"
#include "client/EventsSubscription.h"
#include "client/LocalServiceLauncher.h"
#include "core/parameters/ArgumentOverrides.h"
#include "core/policy/RunOutcome.h"
#include "models/ArgumentOverridesModel.h"
#include "models/JobsFilterProxy.h"
#include "models/JobsListLoader.h"
#include "models/JobsTableModel.h"
#include "models/RunsTableModel.h"
#include "widgets/AboutDialog.h"
#include "widgets/AdminViewSupport.h"
#include "widgets/AdminViews.h"
#include "widgets/ConnectionDialog.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/DesktopNotifier.h"
#include "widgets/Documentation.h"
#include "widgets/FocusReturn.h"
#include "widgets/JobDescriber.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/LoadProgress.h"
#include "widgets/RunDialog.h"
#include "widgets/RunEndNotifier.h"
#include "widgets/RunMonitor.h"
#include "widgets/SelectionShortcutHints.h"
#include "widgets/SubjectDescriber.h"
#include "widgets/TableExportMenu.h"
#include "widgets/TableViewSupport.h"
#include "widgets/WindowSettings.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <functional>

// Resources of a static library are registered explicitly (outside any namespace).
static void initJobdeckResources() {
    Q_INIT_RESOURCE(jobdeck);
}

namespace jobdeck {

using nlohmann::json;

namespace {

QString defaultSecretsDir() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

} // namespace

MainWindow::MainWindow(const Options& options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
    , m_secrets(std::make_unique<SecretStore>(
          options.secretsDir.isEmpty() ? defaultSecretsDir() : options.secretsDir, options.secretBackend))
    , m_profiles(std::make_unique<ConnectionProfiles>(m_secrets.get(), options.settingsFile))
    , m_windowSettings(std::make_unique<WindowSettings>(options.settingsFile))
    , m_client(new ApiClient(this))
    , m_monitor(new ConnectionMonitor(m_client, this))
    , m_events(new EventsSubscription(m_client, this))
    , m_launcher(new LocalServiceLauncher(m_secrets.get(), this))
    , m_jobs(new JobsTableModel(this))
    , m_jobsLoader(new JobsListLoader(m_client, m_events, m_jobs, this))
    , m_proxy(new JobsFilterProxy(this))
    , m_jobsView(nullptr)
    , m_viewer(new DescribeViewer)
    , m_describer(new JobDescriber(m_client, m_viewer, this))
    , m_subjectDescriber(new SubjectDescriber(m_client, m_describer, m_viewer, this))
    , m_status(new ConnectionStatusWidget)
    , m_runMonitor(new RunMonitor(m_client))
    , m_runMonitorDock(new QDockWidget(tr("Runs"), this))
    , m_notifier(new DesktopNotifier(this))
    , m_runEndNotifier(new RunEndNotifier(m_notifier, this))
    , m_loadProgress(new LoadProgress) {
    initJobdeckResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Jobdeck"));
    setWindowIcon(QIcon(QStringLiteral(":/jobdeck/icons/jobdeck.png")));
    if (!options.localDataDir.isEmpty())
        m_launcher->setDataDir(options.localDataDir);
    if (!options.servicePath.isEmpty())
        m_launcher->setServicePath(options.servicePath);
    if (!options.demoDir.isEmpty())
        m_launcher->setDemoDir(options.demoDir);

    layOutWidgets();
    createActions();
    gateActions();
    connectJobsLoader();
    connectService();
    connectJobSelection();
    resize(1280, 760);
    setMinimumSizes();
    connectDesktopIntegration();
    TableViewSupport::installAll(this);
    m_windowSettings->restore(*this);
    m_viewer->setJobTab(m_windowSettings->describeTab());
    updateActions();

    const QString profile = options.profile.isEmpty() ? m_profiles->lastUsed() : options.profile;
    QTimer::singleShot(0, this, [this, profile] { useProfile(profile); });
}

// The jobs list beside the side panel, the status bar, the runs dock (hidden until a run starts).
void MainWindow::layOutWidgets() {
    m_proxy->setSourceModel(m_jobs);
    m_jobsView = new JobsView(m_jobs, m_proxy);
    // File → Export names its file after what the table shows.
    m_jobsView->table()->setProperty("exportName", QStringLiteral("jobs"));
    m_runMonitor->historyView()->setProperty("exportName", QStringLiteral("runs"));
    auto* splitter = new QSplitter(this);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(m_jobsView);
    splitter->addWidget(m_viewer);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);
    setCentralWidget(splitter);
    addStatusBarWidgets();
    m_status->setMonitor(m_monitor, m_client);
    m_runMonitorDock->setObjectName(QStringLiteral("runMonitorDock"));
    m_runMonitorDock->setWidget(m_runMonitor);
    addDockWidget(Qt::BottomDockWidgetArea, m_runMonitorDock);
    m_runMonitorDock->hide(); // shown when a run starts, or from the View menu
}

// What the service cannot answer now, or the key's role may not send, is disabled with the reason
// before anything is sent.
void MainWindow::gateActions() {
    auto* gate = new ActionGate(this);
    gate->gate(m_newAction, CreateJobStatement{});
    gate->gate(m_editAction, AlterJobStatement{});
    gate->gate(m_runAction, RunJobStatement{});
    gate->gate(m_runAgainAction, RunJobStatement{});
    gate->gate(m_cloneAction, CreateJobStatement{});
    gate->gate(m_deleteAction, DeleteJobStatement{});
    gate->gate(m_describeAction, DescribeJobStatement{});
    gate->gate(m_describeProjectAction, DescribeProjectStatement{});
    gate->gate(m_describeClusterAction, DescribeClusterStatement{});
    gate->gate(m_describeLatestRunAction, DescribeJobRunStatement{});
    gate->gate(m_runMonitor->findChild<QAbstractButton*>(QStringLiteral("cancelButton")),
               CancelJobRunStatement{});
    connect(m_monitor, &ConnectionMonitor::connected, gate,
            [this, gate] { gate->setRole(m_monitor->callerRole()); });
    const auto followConnection = [this, gate] { gate->setUnreachable(unreachableReason()); };
    connect(m_monitor, &ConnectionMonitor::stateChanged, gate, followConnection);
    followConnection();
}

// Why the actions that need the service are disabled now, nullopt while it is connected.
std::optional<QString> MainWindow::unreachableReason() const {
    switch (m_monitor->state()) {
    case ConnectionMonitor::State::Connected:
        return std::nullopt;
    case ConnectionMonitor::State::Idle:
        return tr("Not connected to a service (File → Connect…)");
    case ConnectionMonitor::State::Connecting:
        return tr("Connecting to the service…");
    case ConnectionMonitor::State::Reconnecting:
    case ConnectionMonitor::State::Disconnected:
        break;
    }
    return tr("Not connected to the service: %1").arg(m_monitor->reason());
}

// The connection's state and the Local profile's own service.
void MainWindow::connectService() {
    connect(m_monitor, &ConnectionMonitor::connected, this, &MainWindow::startLiveUpdates);
    connect(m_monitor, &ConnectionMonitor::stateChanged, this, [this](ConnectionMonitor::State state) {
        // Polling a lost service only piles up errors; the monitor says when it is back.
        if (state != ConnectionMonitor::State::Connected) {
            m_events->stop();
            m_runMonitor->events()->stop();
        }
        updateActions();
    });
    connect(m_launcher, &LocalServiceLauncher::progress, m_status, &ConnectionStatusWidget::showNote);
    connect(m_launcher, &LocalServiceLauncher::ready, this, [this](const ConnectionInfo& info) {
        m_restartLocalAction->setEnabled(false);
        if (m_profileName == ConnectionProfiles::kLocalName)
            connectTo(info, m_profileName);
    });
    connect(m_launcher, &LocalServiceLauncher::failed, this, [this](const QString& reason) {
        m_restartLocalAction->setEnabled(ConnectionProfiles::isLocal(m_profileName));
        m_status->showNote(tr("Local service failed: %1").arg(reason));
        m_viewer->showMessage(tr("The local service could not start"), reason);
    });
    // The Local profile's own service ended by itself: the window offers to start it again.
    connect(m_launcher, &LocalServiceLauncher::exited, this, [this](const QString& reason) {
        if (!ConnectionProfiles::isLocal(m_profileName))
            return;
        m_restartLocalAction->setEnabled(true);
        statusBar()->showMessage(tr("The local service ended (%1).").arg(reason));
    });
    connect(m_restartLocalAction, &QAction::triggered, this, [this] {
        m_restartLocalAction->setEnabled(false);
        m_status->showNote(tr("Starting the local service…"));
        m_launcher->start();
    });
    m_status->setRestartAction(m_restartLocalAction);
}

// The selected job drives the actions, the side panel's DESCRIBE and, when asked, the runs dock.
void MainWindow::connectJobSelection() {
    connect(m_jobsView, &JobsView::currentJobChanged, this, &MainWindow::updateActions);
    connect(m_jobsView, &JobsView::currentJobChanged, this, [this] {
        const auto name = m_jobsView->currentJobName();
        m_describer->selectionChanged(QString::fromStdString(name.value_or("")));
        // A job's DESCRIBE is about the selected job: with none selected (a filter hid it) it goes too.
        if (!name && m_viewer->subject() == DescribeViewer::Subject::Job)
            m_viewer->showPrompt();
    });
    connect(m_jobsView, &JobsView::currentJobChanged, this, [this] {
        if (m_monitorJobRunsAction->isChecked())
            followRuns();
    });
    connect(m_jobsView, &JobsView::jobActivated, this, [this] { m_editAction->trigger(); });
    connect(m_jobs, &QAbstractItemModel::modelReset, this, &MainWindow::updateActions);
}

MainWindow::~MainWindow() {
    saveWindowSettings();
    m_events->stop();
    m_monitor->stop();
    m_launcher->stop();
}

void MainWindow::setMinimumSizes() {
    const QFontMetrics metrics = fontMetrics();
    const int line = metrics.height() + 6;
    const int em = metrics.averageCharWidth();
    // About 8 rows of jobs and 30 characters of DESCRIBE, however the runs dock is sized. The side panel's
    // height is set on its tree page, not on the panel: a fixed minimum there would override the
    // configuration page's own, which grows with the selected reason and the banner the dock may not cut.
    m_jobsView->setMinimumSize(em * 30, line * 10);
    m_viewer->setMinimumWidth(em * 30);
    m_viewer->treeView()->setMinimumHeight(line * 8);
    // The runs dock: its gauge, a few active runs and some log lines.
    m_runMonitor->setMinimumSize(em * 40, line * 9);
}

void MainWindow::addStatusBarWidgets() {
    // QStatusBar draws a temporary message only left of its permanent widgets, so a connection state
    // added with stretch left no room for it: the message has a label of its own, which takes the space
    // the connection state does not need.
    m_statusMessage = new QLabel;
    m_statusMessage->setObjectName(QStringLiteral("statusMessage"));
    m_statusMessage->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_statusMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addPermanentWidget(m_statusMessage, 1);
    statusBar()->addPermanentWidget(m_status);
    statusBar()->addPermanentWidget(m_loadProgress);
    connect(statusBar(), &QStatusBar::messageChanged, m_statusMessage, [this](const QString& text) {
        m_statusMessage->setText(text);
        m_statusMessage->setToolTip(text);
    });
}

void MainWindow::saveWindowSettings() {
    rememberSelection();
    m_windowSettings->setDescribeTab(m_viewer->jobTab());
    m_windowSettings->save(*this);
}

// The selected job of the profile in use, selected again when the profile's list is next loaded. A
// list not loaded yet keeps what was remembered.
void MainWindow::rememberSelection() {
    if (const auto name = m_jobsView->currentJobName(); name && m_selectionToRestore.isEmpty())
        m_windowSettings->setSelectedJob(m_profileName, QString::fromStdString(*name));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::connectDesktopIntegration() {
    connect(m_events, &EventsSubscription::eventsReceived, m_runEndNotifier, &RunEndNotifier::onEvents);
    connect(m_events, &EventsSubscription::eventsReceived, m_describer, &JobDescriber::onEvents);
    connect(m_runEndNotifier, &RunEndNotifier::runEnded, this,
            [this](const QString&, const QString&, const QString& text) {
                statusBar()->showMessage(text, 15000);
            });
    // An end nobody has looked at yet is counted in the dock's title until its run is selected.
    connect(m_runMonitor->model(), &RunsTableModel::endedUnseenChanged, this, [this](int count) {
        m_runMonitorDock->setWindowTitle(count > 0 ? tr("Runs (%1 ended)").arg(count) : tr("Runs"));
    });
    connect(m_client, &ApiClient::transferProgress, m_loadProgress, &LoadProgress::onTransfer);
}

// The export's progress and outcome in the status bar, a failure also in a message box.
void MainWindow::addExportMenu(QMenu* file) {
    m_exportMenu = new TableExportMenu(
        file, this, [this] { return m_jobsView->table(); }, [this] { return m_runMonitor->historyView(); });
    connect(m_exportMenu, &TableExportMenu::exportStarted, this,
            [this](const QString& path) { statusBar()->showMessage(tr("Exporting to %1…").arg(path)); });
    connect(m_exportMenu, &TableExportMenu::exportFinished, this,
            [this](const QString& path, const QString& error) {
                if (error.isEmpty())
                    statusBar()->showMessage(tr("Exported to %1.").arg(path), 8000);
                else
                    showError(tr("Export to %1 failed").arg(path), error);
                emit exportFinished(path, error);
            });
}

void MainWindow::exportTableTo(QTableView* view, const QString& path, TableExport::Format format) {
    m_exportMenu->exportTo(view, path, format);
}

void MainWindow::createHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("menuHelp"));
    QAction* docs = help->addAction(tr("Jobdeck &documentation"));
    docs->setObjectName(QStringLiteral("actionDocumentation"));
    docs->setShortcut(QKeySequence::HelpContents);
    connect(docs, &QAction::triggered, this, &MainWindow::openDocumentation);
    QAction* about = help->addAction(tr("&About Jobdeck"));
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
    connect(about, &QAction::triggered, this, &MainWindow::openAboutDialog);
}

void MainWindow::openAboutDialog() {
    auto* dialog = new AboutDialog(m_client, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    openReturningFocus(dialog);
}

void MainWindow::openDocumentation() {
    if (Documentation::open(m_options.docDir.isEmpty() ? Documentation::defaultDirectory()
                                                       : m_options.docDir))
        return;
    showError(tr("No documentation"),
              tr("The documentation was not found beside the console (share/doc/jobdeck)."));
}

void MainWindow::createActions() {
    createJobActions();
    createDescribeActions();
    createViewActions();
    createMenus();
    createToolBarAndContextMenus();
    m_selectionHints = new SelectionShortcutHints(
        this, {m_editAction, m_runAction, m_describeAction, m_deleteAction, m_cloneAction});
}

QAction* MainWindow::makeAction(const QString& text, const QIcon& icon, const QKeySequence& key,
                                const QString& name) {
    auto* a = new QAction(icon, text, this);
    a->setObjectName(name);
    a->setShortcut(key);
    const QString plain = QString(text).remove(QLatin1Char('&')); // the menu's mnemonic is not the tip's
    a->setToolTip(
        key.isEmpty() ? plain : QStringLiteral("%1 (%2)").arg(plain, key.toString(QKeySequence::NativeText)));
    return a;
}

void MainWindow::createJobActions() {
    QStyle* s = style();
    m_newAction = makeAction(tr("&New job…"), s->standardIcon(QStyle::SP_FileIcon), QKeySequence::New,
                             QStringLiteral("actionNew"));
    m_editAction = makeAction(tr("&Edit job…"), s->standardIcon(QStyle::SP_FileDialogDetailedView),
                              QKeySequence(Qt::CTRL | Qt::Key_E), QStringLiteral("actionEdit"));
    m_runAction = makeAction(tr("&Run job…"), s->standardIcon(QStyle::SP_MediaPlay),
                             QKeySequence(Qt::CTRL | Qt::Key_R), QStringLiteral("actionRun"));
    m_deleteAction = makeAction(tr("De&lete job…"), s->standardIcon(QStyle::SP_TrashIcon),
                                QKeySequence::Delete, QStringLiteral("actionDelete"));
    // Delete only where a job is what has focus, never while typing in the filter.
    m_deleteAction->setShortcutContext(Qt::WidgetShortcut);
    m_refreshAction = makeAction(tr("Refre&sh"), s->standardIcon(QStyle::SP_BrowserReload),
                                 QKeySequence(Qt::Key_F5), QStringLiteral("actionRefresh"));
    m_connectAction =
        makeAction(tr("&Connect…"), s->standardIcon(QStyle::SP_DriveNetIcon),
                   QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), QStringLiteral("actionConnect"));
    m_quitAction = makeAction(tr("&Quit"), {}, QKeySequence::Quit, QStringLiteral("actionQuit"));
    m_restartLocalAction =
        makeAction(tr("Re&start local service"), {}, {}, QStringLiteral("actionRestartLocalService"));
    m_restartLocalAction->setToolTip(tr("Start the Local profile's own jobdeckd again; it ended by itself"));
    m_restartLocalAction->setEnabled(false);
    m_filterAction = makeAction(tr("&Filter jobs"), {}, QKeySequence(Qt::CTRL | Qt::Key_L),
                                QStringLiteral("actionFilter"));
    m_cloneAction = makeAction(tr("Cl&one job…"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                               QStringLiteral("actionCloneJob"));
    m_runAgainAction = makeAction(tr("Run &again…"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                                  QStringLiteral("actionRunAgain"));
    m_runAgainAction->setToolTip(tr("Run the selected finished run's job again with that run's overrides"));
    m_runAgainAction->setEnabled(false);
    connect(m_newAction, &QAction::triggered, this, [this] { openJobEditor(std::nullopt); });
    connect(m_cloneAction, &QAction::triggered, this, &MainWindow::cloneCurrentJob);
    connect(m_runAgainAction, &QAction::triggered, this, &MainWindow::runSelectedRunAgain);
    const auto updateRunAgain = [this] {
        const auto run = m_runMonitor->currentRun();
        m_runAgainAction->setEnabled(run && !run->isActive());
    };
    connect(m_runMonitor, &RunMonitor::currentRunChanged, this, updateRunAgain);
    connect(m_runMonitor->model(), &QAbstractItemModel::dataChanged, this, updateRunAgain);
    connect(m_editAction, &QAction::triggered, this, &MainWindow::editCurrentJob);
    connect(m_runAction, &QAction::triggered, this, &MainWindow::runCurrentJob);
    connect(m_deleteAction, &QAction::triggered, this, &MainWindow::deleteCurrentJob);
    connect(m_refreshAction, &QAction::triggered, this, &MainWindow::refresh);
    connect(m_connectAction, &QAction::triggered, this, &MainWindow::openConnectionDialog);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_filterAction, &QAction::triggered, m_jobsView, &JobsView::focusFilter);
}

void MainWindow::createDescribeActions() {
    m_describeAction = makeAction(tr("&Describe job"), style()->standardIcon(QStyle::SP_FileDialogInfoView),
                                  QKeySequence(Qt::CTRL | Qt::Key_D), QStringLiteral("actionDescribe"));
    m_describeProjectAction =
        makeAction(tr("Describe &project"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P),
                   QStringLiteral("actionDescribeProject"));
    m_describeClusterAction =
        makeAction(tr("Describe &cluster of the job"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                   QStringLiteral("actionDescribeCluster"));
    m_describeLatestRunAction =
        makeAction(tr("Describe &latest run of the job"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                   QStringLiteral("actionDescribeLatestRun"));
    connect(m_describeAction, &QAction::triggered, this, &MainWindow::describeCurrentJob);
    connect(m_describeProjectAction, &QAction::triggered, this, &MainWindow::describeProject);
    connect(m_describeClusterAction, &QAction::triggered, this, &MainWindow::describeCurrentCluster);
    connect(m_describeLatestRunAction, &QAction::triggered, this, &MainWindow::describeLatestRun);
}

// The runs dock, the runs of the selected job only, run-end notifications.
void MainWindow::createViewActions() {
    QAction* monitorAction = m_runMonitorDock->toggleViewAction();
    monitorAction->setText(tr("Runs &monitor"));
    monitorAction->setObjectName(QStringLiteral("actionRunMonitor"));
    m_goToRunsAction = makeAction(tr("&Go to runs"), {}, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
                                  QStringLiteral("actionGoToRuns"));
    connect(m_goToRunsAction, &QAction::triggered, this, &MainWindow::goToRuns);
    m_monitorJobRunsAction =
        makeAction(tr("Monitor runs of &this job"), {}, {}, QStringLiteral("actionMonitorJobRuns"));
    m_monitorJobRunsAction->setCheckable(true);
    connect(m_monitorJobRunsAction, &QAction::toggled, this, [this](bool checked) {
        if (checked) {
            m_runMonitorDock->show();
            m_runMonitorDock->raise();
        }
        followRuns();
    });
    m_runNotificationsAction =
        makeAction(tr("&Notify when my runs end"), {}, {}, QStringLiteral("actionRunNotifications"));
    m_runNotificationsAction->setCheckable(true);
    m_runNotificationsAction->setChecked(m_windowSettings->runNotifications());
    m_runEndNotifier->setNotificationsEnabled(m_runNotificationsAction->isChecked());
    connect(m_runNotificationsAction, &QAction::toggled, this, [this](bool on) {
        m_runEndNotifier->setNotificationsEnabled(on);
        m_windowSettings->setRunNotifications(on);
    });
}

// The keyboard's way to the runs: shown and focused; pressed again from inside, hidden and back to the
// jobs list (as an IDE's output panes).
void MainWindow::goToRuns() {
    if (m_runMonitorDock->isVisible() && m_runMonitorDock->isAncestorOf(QApplication::focusWidget())) {
        m_runMonitorDock->hide();
        m_jobsView->table()->setFocus(Qt::ShortcutFocusReason);
        return;
    }
    m_runMonitorDock->show();
    m_runMonitorDock->raise();
    m_runMonitor->focusRuns();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({m_connectAction, m_restartLocalAction});
    file->addSeparator();
    addExportMenu(file);
    file->addSeparator();
    file->addAction(m_quitAction);
    QMenu* jobs = menuBar()->addMenu(tr("&Job"));
    jobs->addActions({m_newAction, m_editAction, m_cloneAction, m_runAction, m_runAgainAction,
                      m_describeAction, m_deleteAction});
    jobs->addSeparator();
    jobs->addActions({m_refreshAction, m_filterAction});
    QMenu* view = menuBar()->addMenu(tr("&Describe"));
    view->addActions(
        {m_describeAction, m_describeClusterAction, m_describeLatestRunAction, m_describeProjectAction});
    m_adminViews = new AdminViews(this, m_client, m_monitor, m_events);
    view->addAction(m_adminViews->projectAction());
    QMenu* windows = menuBar()->addMenu(tr("&View"));
    windows->addActions({m_runMonitorDock->toggleViewAction(), m_goToRunsAction, m_monitorJobRunsAction});
    windows->addSeparator();
    windows->addActions(m_adminViews->actions());
    windows->addSeparator();
    windows->addAction(m_runNotificationsAction);
    createHelpMenu();
}

void MainWindow::createToolBarAndContextMenus() {
    QToolBar* toolbar = addToolBar(tr("Jobs"));
    toolbar->setObjectName(QStringLiteral("jobsToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addActions({m_newAction, m_editAction, m_runAction, m_describeAction, m_deleteAction});
    toolbar->addSeparator();
    toolbar->addActions({m_refreshAction, m_connectAction});

    m_jobsView->setContextActions({m_editAction, m_runAction, m_monitorJobRunsAction, m_describeAction,
                                   m_describeClusterAction, m_describeLatestRunAction, m_deleteAction,
                                   m_newAction, m_cloneAction, m_refreshAction});
    for (QAbstractItemView* runs : {m_runMonitor->activeView(), m_runMonitor->historyView()}) {
        runs->addAction(m_runAgainAction);
        runs->setContextMenuPolicy(Qt::ActionsContextMenu);
    }
}

void MainWindow::updateActions() {
    const bool connected = m_monitor->state() == ConnectionMonitor::State::Connected;
    const bool hasJob = m_jobsView->currentJobName().has_value();
    // Those that need the service are also disabled while it cannot be reached (gateActions).
    for (QAction* a : {m_editAction, m_runAction, m_describeAction, m_deleteAction, m_cloneAction})
        a->setEnabled(hasJob);
    if (m_selectionHints)
        m_selectionHints->setJobSelected(hasJob);
    m_refreshAction->setEnabled(connected || m_monitor->state() == ConnectionMonitor::State::Reconnecting);
}

std::optional<SparkJobSummary> MainWindow::currentJob() const {
    const auto name = m_jobsView->currentJobName();
    if (!name)
        return std::nullopt;
    const int row = m_jobs->rowOf(*name);
    if (row < 0)
        return std::nullopt;
    return m_jobs->summary(row);
}

void MainWindow::withCurrentJob(const std::function<void(const SparkJob&)>& open) {
    const auto name = m_jobsView->currentJobName();
    if (!name)
        return;
    const QString qname = QString::fromStdString(*name);
    m_client->describeJob(qname)->then(this, [this, qname, open](const ApiReply<SparkJob>& r) {
        if (r.isError()) {
            showError(tr("Job '%1' could not be opened").arg(qname), r.error().message);
            return;
        }
        open(r.value());
    });
}

void MainWindow::editCurrentJob() {
    withCurrentJob([this](const SparkJob& job) { openJobEditor(job); });
}

void MainWindow::runCurrentJob() {
    withCurrentJob([this](const SparkJob& job) { openRunDialog(job); });
}

void MainWindow::runSelectedRunAgain() {
    const auto run = m_runMonitor->currentRun();
    if (!run || run->isActive())
        return;
    const QString jobName = QString::fromStdString(run->jobName);
    const auto overrides = run->argumentOverrides;
    m_client->describeJob(jobName)->then(this, [this, jobName, overrides](const ApiReply<SparkJob>& r) {
        if (r.isError()) {
            showError(tr("Job '%1' could not be opened").arg(jobName), r.error().message);
            return;
        }
        RunDialog* dialog = openRunDialog(r.value());
        QStringList secrets; // shown as ****: not repeated, the user types them again
        for (const auto& [name, value] : overrides) {
            if (isMaskedSecretOverride(name, value))
                secrets << QString::fromStdString(name);
            else
                dialog->overridesModel()->setOverride(QString::fromStdString(name),
                                                      QString::fromStdString(value));
        }
        dialog->noteSecretsNotRepeated(secrets);
    });
}

void MainWindow::cloneCurrentJob() {
    withCurrentJob([this](const SparkJob& job) {
        std::vector<std::string> names;
        names.reserve(static_cast<std::size_t>(m_jobs->rowCount()));
        for (int row = 0; row < m_jobs->rowCount(); ++row)
            names.push_back(m_jobs->summary(row).name);
        SparkJob copy = job;
        copy.name = cloneJobName(job.name, names);
        openJobEditor(std::nullopt)->setCopyOf(copy);
    });
}

void MainWindow::useProfile(const QString& name) {
    rememberSelection();
    m_selectionToRestore = m_windowSettings->selectedJob(name);
    m_monitor->stop();
    forgetService();
    m_profileName = name;
    m_status->setProfileName(name);
    if (ConnectionProfiles::isLocal(name)) {
        m_profiles->setLastUsed(name);
        m_status->showNote(tr("Starting the local service…"));
        m_launcher->start();
        return;
    }
    QString error;
    const auto info = m_profiles->connectionInfo(name, &error);
    if (!info) {
        m_status->showNote(tr("Not connected: %1").arg(error));
        return;
    }
    m_profiles->setLastUsed(name);
    connectTo(*info, name);
}

void MainWindow::connectTo(const ConnectionInfo& connection, const QString& label) {
    if (!connection.sameServiceAs(m_client->connection()))
        forgetService();
    m_events->stop();
    m_profileName = label;
    m_status->setProfileName(label);
    m_client->setConnection(connection);
    setWindowTitle(tr("Jobdeck — %1 (%2)").arg(label, connection.baseUrl.toString()));
    m_monitor->start();
}

// Switching to another service, or to none: every view drops what the last one showed, at once; each
// loads again from the new service once it is connected.
void MainWindow::forgetService() {
    m_events->stop();
    m_runMonitor->events()->stop();
    m_jobs->clear();
    m_viewer->showPrompt(); // nothing described yet: what to do instead
    m_adminViews->forget();
    m_runMonitor->forget();
}

void MainWindow::startLiveUpdates() {
    m_jobsLoader->start();
    followRuns(true);
}

void MainWindow::refresh() {
    m_jobsLoader->reload();
}

void MainWindow::connectJobsLoader() {
    connect(m_jobsLoader, &JobsListLoader::loadStarted, this, [this] {
        m_jobsView->setLoading(true);
        statusBar()->showMessage(tr("Loading jobs…"));
    });
    connect(m_jobsLoader, &JobsListLoader::loadFailed, this, [this](const QString& message) {
        m_jobsView->setLoading(false);
        statusBar()->showMessage(tr("Loading jobs failed: %1").arg(message));
    });
    connect(m_jobsLoader, &JobsListLoader::firstRowsShown, this, &MainWindow::updateActions);
    connect(m_jobsLoader, &JobsListLoader::rowsAboutToBeReplaced, this,
            [this] { m_selectedBeforeLoad = m_jobsView->currentJobName(); });
    connect(m_jobsLoader, &JobsListLoader::rowsReplaced, this, [this](int count) {
        // What was selected before this load, else (the profile's first load) what was selected when
        // the profile was last used.
        if (const auto selected = std::exchange(m_selectedBeforeLoad, std::nullopt))
            m_jobsView->selectJob(*selected);
        else if (!m_selectionToRestore.isEmpty())
            m_jobsView->selectJob(m_selectionToRestore.toStdString());
        m_selectionToRestore.clear();
        m_jobsView->setLoading(false);
        statusBar()->showMessage(count == 1 ? tr("1 job loaded") : tr("%1 jobs loaded").arg(count), 5000);
        updateActions();
    });
    connect(m_jobsLoader, &JobsListLoader::loaded, this, &MainWindow::jobsLoaded);
    connect(m_jobs, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateActions);
}

JobEditorDialog* MainWindow::openJobEditor(std::optional<SparkJob> job) {
    auto* dialog = new JobEditorDialog(m_client, std::move(job), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Closing it (Save, Discard, Close) hands the keyboard back to the jobs list.
    returnFocusWhenClosed(dialog, m_jobsView->table());
    dialog->followProjectEvents(m_events);
    connect(dialog, &JobEditorDialog::saved, this, [this](const QString& name, const QString& message) {
        statusBar()->showMessage(message, 8000);
        // The event will update the row too; describing now shows the result at once.
        m_client->describeJob(name)->then(this, [this](const ApiReply<SparkJob>& r) {
            if (r.isError())
                return;
            m_jobs->upsertJob(summaryOf(r.value()));
            m_jobsView->selectJob(r.value().name);
        });
    });
    dialog->open();
    return dialog;
}

RunDialog* MainWindow::openRunDialog(const SparkJob& job) {
    auto* dialog = new RunDialog(m_client, job, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Closing it (Save, Discard, Close) hands the keyboard back to the jobs list.
    returnFocusWhenClosed(dialog, m_jobsView->table());
    connect(dialog, &RunDialog::runStarted, this, [this](const QString& jobName, const QString& runId) {
        statusBar()->showMessage(tr("Run %1 of %2 started.").arg(runId, jobName), 8000);
        m_runMonitorDock->show();
        m_runMonitorDock->raise();
        m_runMonitor->showRun(jobName, runId);
        m_runEndNotifier->watch(jobName, runId);
    });
    dialog->open();
    return dialog;
}

void MainWindow::followRuns(bool reload) {
    const auto selected = m_jobsView->currentJobName();
    const QString job =
        m_monitorJobRunsAction->isChecked() && selected ? QString::fromStdString(*selected) : QString();
    // Not connected yet: startLiveUpdates() loads it.
    if (m_monitor->state() == ConnectionMonitor::State::Connected &&
        (reload || job != m_runMonitor->jobName()))
        m_runMonitor->setJob(job);
}

void MainWindow::describeCurrentJob() {
    if (const auto name = m_jobsView->currentJobName())
        m_describer->describeNow(QString::fromStdString(*name));
}

void MainWindow::describeProject() {
    m_subjectDescriber->describeProject();
}

void MainWindow::describeCurrentCluster() {
    if (const auto job = currentJob())
        m_subjectDescriber->describeCluster(job->cluster);
}

void MainWindow::describeLatestRun() {
    if (const auto job = currentJob())
        m_subjectDescriber->describeLatestRun(job->name);
}

void MainWindow::deleteCurrentJob() {
    const auto name = m_jobsView->currentJobName();
    if (!name)
        return;
    const QString qname = QString::fromStdString(*name);
    auto* box = new QMessageBox(
        QMessageBox::Warning, tr("Jobdeck"),
        tr("Delete the job '%1'? Its definition is removed; this cannot be undone.").arg(qname),
        QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("confirmDelete"));
    QPushButton* remove = box->addButton(tr("Delete job"), QMessageBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("confirmDeleteJob"));
    QPushButton* keep = box->addButton(tr("Keep job"), QMessageBox::RejectRole);
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(remove, &QPushButton::clicked, this, [this, qname] {
        m_client->deleteJob(qname)->then(this, [this, qname](const ApiReply<json>& r) {
            if (r.isError()) {
                showError(tr("Job '%1' was not deleted").arg(qname), r.error().message);
                return;
            }
            m_jobs->removeJob(qname.toStdString());
            statusBar()->showMessage(tr("Job '%1' deleted.").arg(qname), 8000);
        });
    });
    openReturningFocus(box);
}

void MainWindow::openConnectionDialog() {
    auto* dialog = new ConnectionDialog(m_profiles.get(), m_secrets.get(), m_profileName, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (ConnectionProfiles::isLocal(m_profileName) && m_client->connection().isValid())
        dialog->showLocalServiceAt(m_client->connection().baseUrl);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString name = dialog->selectedProfile();
        if (!name.isEmpty())
            useProfile(name);
    });
    openReturningFocus(dialog);
}

void MainWindow::showError(const QString& title, const QString& message) {
    statusBar()->showMessage(title + QStringLiteral(": ") + message, 10000);
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    openReturningFocus(box);
}

} // namespace jobdeck
