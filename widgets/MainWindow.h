#pragma once

#include "client/ConnectionInfo.h"
#include "client/SecretStore.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobSummary.h"
#include "widgets/TableExport.h"

#include <QMainWindow>

#include <functional>
#include <memory>
#include <optional>
#include <string>

class QAction;
class QDialog;
class QDockWidget;
class QLabel;
class QMenu;
class QTableView;

namespace jobdeck {

class AdminViews;
class ApiClient;
class ConnectionMonitor;
class ConnectionProfiles;
class ConnectionStatusWidget;
class DescribeViewer;
class EventsSubscription;
class JobDescriber;
class JobEditorDialog;
class JobsFilterProxy;
class JobsListLoader;
class JobsTableModel;
class DesktopNotifier;
class JobsView;
class LoadProgress;
class LocalServiceLauncher;
class RunDialog;
class RunEndNotifier;
class RunMonitor;
class SubjectDescriber;
class SelectionShortcutHints;
class TableExportMenu;
class WindowSettings;

// The console: the Jobs list beside the DESCRIBE viewer, the connection state in the status bar, and
// the job actions in menus, toolbar, context menu and shortcuts. Jobs follow the service's events one
// row at a time (JobsListLoader). Runs started from the run dialog show in the runs monitor, docked below.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    struct Options {
        QString profile;      // empty: the last one used
        QString localDataDir; // empty: LocalServiceLauncher::defaultDataDir()
        QString servicePath;  // empty: LocalServiceLauncher::defaultServicePath()
        QString demoDir;      // empty: LocalServiceLauncher::defaultDemoDir()
        QString docDir;       // empty: Documentation::defaultDirectory()
        QString settingsFile; // empty: the user's settings
        QString secretsDir;   // empty: <AppDataLocation>
        std::optional<SecretStore::Backend> secretBackend;
    };

    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Connects with a profile: "Local" starts the console's own service.
    void useProfile(const QString& name);
    void connectTo(const ConnectionInfo& connection, const QString& label);
    void refresh();

    // Hooks for the job editor and the run dialog; each returns the dialog it opened.
    JobEditorDialog* openJobEditor(std::optional<SparkJob> job);
    RunDialog* openRunDialog(const SparkJob& job);
    // The selected job's whole object (DESCRIBE JOB), then the editor or the run dialog with it.
    void editCurrentJob();
    void runCurrentJob();
    // The run dialog for the run selected in the runs monitor, with that run's overrides (a new key).
    void runSelectedRunAgain();
    // The job editor with a copy of the selected job under a new name (core cloneJobName).
    void cloneCurrentJob();

    void describeCurrentJob();
    void describeProject();
    void describeCurrentCluster();
    void describeLatestRun();
    void deleteCurrentJob();
    void openConnectionDialog();

    std::optional<SparkJobSummary> currentJob() const;
    QString currentProfile() const { return m_profileName; }

    ApiClient* client() const { return m_client; }
    ConnectionMonitor* monitor() const { return m_monitor; }
    EventsSubscription* events() const { return m_events; }
    JobsTableModel* jobsModel() const { return m_jobs; }
    JobsListLoader* jobsLoader() const { return m_jobsLoader; }
    JobsFilterProxy* jobsProxy() const { return m_proxy; }
    JobsView* jobsView() const { return m_jobsView; }
    DescribeViewer* describeViewer() const { return m_viewer; }
    JobDescriber* jobDescriber() const { return m_describer; }
    ConnectionStatusWidget* statusWidget() const { return m_status; }
    LocalServiceLauncher* localLauncher() const { return m_launcher; }
    RunMonitor* runMonitor() const { return m_runMonitor; }
    QDockWidget* runMonitorDock() const { return m_runMonitorDock; }
    SecretStore* secretStore() const { return m_secrets.get(); }
    ConnectionProfiles* profiles() const { return m_profiles.get(); }
    AdminViews* adminViews() const { return m_adminViews; }

    QAction* newAction() const { return m_newAction; }
    QAction* editAction() const { return m_editAction; }
    QAction* runAction() const { return m_runAction; }
    QAction* describeAction() const { return m_describeAction; }
    QAction* deleteAction() const { return m_deleteAction; }
    QAction* refreshAction() const { return m_refreshAction; }
    QAction* monitorJobRunsAction() const { return m_monitorJobRunsAction; }
    QAction* runAgainAction() const { return m_runAgainAction; }
    QAction* cloneAction() const { return m_cloneAction; }
    QAction* restartLocalServiceAction() const { return m_restartLocalAction; }

    // Writes what the window remembers between starts (also done when it closes).
    void saveWindowSettings();

    // Writes what `view` shows to `path`; exportFinished() and a status bar message tell how it went.
    void exportTableTo(QTableView* view, const QString& path, TableExport::Format format);
    void openAboutDialog();
    void openDocumentation();

    RunEndNotifier* runEndNotifier() const { return m_runEndNotifier; }
    DesktopNotifier* desktopNotifier() const { return m_notifier; }
    LoadProgress* loadProgress() const { return m_loadProgress; }
    QAction* runNotificationsAction() const { return m_runNotificationsAction; }

signals:
    // The first full load after (re)connecting is in the model.
    void jobsLoaded();
    // An export ended: `error` is empty when the file was written.
    void exportFinished(const QString& path, const QString& error);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    // Readable minimum sizes for the list, the side panel and the runs dock.
    void setMinimumSizes();
    // The temporary message, the connection state and the load's progress.
    void addStatusBarWidgets();
    // File → Export (TableExportMenu), its outcome shown in the status bar.
    void addExportMenu(QMenu* file);
    void createHelpMenu();
    // Run-end notifications and the load progress.
    void connectDesktopIntegration();
    void layOutWidgets();
    void gateActions();
    void rememberSelection();
    void forgetService();
    std::optional<QString> unreachableReason() const;
    void connectService();
    void connectJobSelection();
    // The actions, their menus, the tool bar and the context menus.
    void createActions();
    QAction* makeAction(const QString& text, const QIcon& icon, const QKeySequence& key, const QString& name);
    void createJobActions();
    void createDescribeActions();
    void createViewActions();
    void goToRuns();
    void createMenus();
    void createToolBarAndContextMenus();
    void updateActions();
    void startLiveUpdates();
    // The jobs list's load in the status bar, the selection kept across it.
    void connectJobsLoader();
    // DESCRIBE JOB of the selected job, then open(job); a failure is shown.
    void withCurrentJob(const std::function<void(const SparkJob&)>& open);
    void showError(const QString& title, const QString& message);
    // The monitor shows every Job, or the selected one while "Monitor runs of this job" is checked.
    void followRuns(bool reload = false);

    Options m_options;
    std::unique_ptr<SecretStore> m_secrets;
    std::unique_ptr<ConnectionProfiles> m_profiles;
    std::unique_ptr<WindowSettings> m_windowSettings;
    ApiClient* m_client;
    ConnectionMonitor* m_monitor;
    EventsSubscription* m_events;
    LocalServiceLauncher* m_launcher;
    JobsTableModel* m_jobs;
    JobsListLoader* m_jobsLoader;
    JobsFilterProxy* m_proxy;
    JobsView* m_jobsView;
    DescribeViewer* m_viewer;
    JobDescriber* m_describer;
    SubjectDescriber* m_subjectDescriber; // the Describe menu's project, cluster and latest run
    ConnectionStatusWidget* m_status;
    RunMonitor* m_runMonitor;
    QDockWidget* m_runMonitorDock;
    AdminViews* m_adminViews = nullptr; // project settings, clusters, audit log
    DesktopNotifier* m_notifier;
    RunEndNotifier* m_runEndNotifier;
    LoadProgress* m_loadProgress;
    QLabel* m_statusMessage = nullptr;
    TableExportMenu* m_exportMenu = nullptr;
    SelectionShortcutHints* m_selectionHints = nullptr;
    QString m_profileName;

    std::optional<std::string> m_selectedBeforeLoad;
    QString m_selectionToRestore; // the profile's job selected when it was last used, until its list loads

    QAction* m_newAction = nullptr;
    QAction* m_editAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_describeAction = nullptr;
    QAction* m_deleteAction = nullptr;
    QAction* m_refreshAction = nullptr;
    QAction* m_connectAction = nullptr;
    QAction* m_restartLocalAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_filterAction = nullptr;
    QAction* m_describeProjectAction = nullptr;
    QAction* m_describeClusterAction = nullptr;
    QAction* m_describeLatestRunAction = nullptr;
    QAction* m_monitorJobRunsAction = nullptr;
    QAction* m_goToRunsAction = nullptr;
    QAction* m_runAgainAction = nullptr;
    QAction* m_cloneAction = nullptr;
    QAction* m_runNotificationsAction = nullptr;
};

} // namespace jobdeck
