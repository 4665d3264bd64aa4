#pragma once

#include "client/RetryBackoff.h"
#include "core/wire/Cluster.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJobRun.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QGridLayout;
class QLabel;
class QMessageBox;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace Ui {
class RunMonitor;
}

namespace jobdeck {

class ApiClient;
class EventsSubscription;
class LogView;
class RunGauge;
class RunTimeline;
class RunsTableModel;
class RunsViewProxy;

// The concurrent runs monitor, for one Job or for all: the drivers in use on each cluster against its
// MAX_OCU (one gauge per cluster; for one Job its cluster's) and the Job's active runs against its
// limit, the runs view (active runs, then the finished ones with their outcome unless "Hide finished";
// elapsed ticking, queue reasons), cancel with confirmation, the selected run's log, and the history
// with a timeline. It follows the service's events: a RUN_STATUS_CHANGED refetches that run (DESCRIBE
// JOB_RUN) and updates its row in place, and reads the clusters' drivers in use again (SHOW CLUSTERS);
// there is no periodic reload.
class RunMonitor final : public QWidget {
    Q_OBJECT
public:
    explicit RunMonitor(ApiClient* client, QWidget* parent = nullptr);
    ~RunMonitor() override;

    // Empty: every Job of the project. Reloads and (re)starts following events.
    void setJob(const QString& jobName);
    QString jobName() const { return m_jobName; }
    void reload();
    // Another service, or none: no run, gauge or log shown before stays, no answer about them is used.
    void forget();
    // Finished runs kept in the history (besides every active run).
    void setHistoryLimit(int runs) { m_historyLimit = std::max(1, runs); }

    // Shows a run (fetching it when not known yet), selects it and follows its log.
    void showRun(const QString& jobName, const QString& runId);
    // Asks for confirmation, then cancels the runs selected in the active table (its Delete key).
    void cancelSelected();
    // The keyboard in the runs table, on the selected run or else the first.
    void focusRuns();
    // Without confirmation; each shows "cancel requested" until its final state arrives.
    void cancelRuns(const QList<QPair<QString, QString>>& jobAndRunIds);

    // The limit the Job's gauge counts against: its MAX_CONCURRENT_RUNS (1 until read); 0 for every Job,
    // whose runs have no one limit (the clusters' gauges show what bounds them).
    int limit() const;
    RunsTableModel* model() const { return m_model; }
    // The runs view's rows: active runs, then the finished ones unless hidden.
    QSortFilterProxyModel* activeProxy() const;
    void setShowFinished(bool show);
    // The cluster's gauge, or nullptr when the cluster is not known.
    RunGauge* clusterGauge(const QString& cluster) const { return m_clusterGauges.value(cluster); }
    // The run selected in the runs view or the history (the one whose log is shown), if any.
    std::optional<SparkJobRun> currentRun() const;
    QTableView* activeView() const { return m_activeView; }
    QTableView* historyView() const { return m_historyView; }
    RunGauge* gauge() const { return m_gauge; }
    LogView* logView() const { return m_log; }
    RunTimeline* timeline() const { return m_timeline; }
    EventsSubscription* events() const { return m_events; }
    QString message() const;

signals:
    // A reload has put the service's runs in the model.
    void loaded();
    // The selected run changed (currentRun()).
    void currentRunChanged();

private:
    bool concerns(const std::string& jobName) const;
    void onEvents(const QList<ProjectEvent>& events);
    void fetchPendingRuns();
    void refetchAdmittedInView();
    void applyFetched();
    void loadLimits();
    void loadClusters();
    void refreshClusterGauges();
    void updateCancelButton();
    // Tells the log of a run that has ended how it ended (its last line).
    void showOutcomeInLog();
    void refreshSummary();
    void refreshTimeline();
    void selectPending();
    void followSelected(QTableView* view);
    void setMessage(const QString& text, bool error);
    // Clears "cancel requested" once every run it waited for has reached its final state.
    void clearCancelMessage();
    // The constructor's parts: the form's widgets into the members, then what each is connected to.
    void bindForm();
    void shareTheHeight();
    void connectViews();
    void connectEvents();
    void setUpTimers();
    void connectModel();

    ApiClient* m_client;
    EventsSubscription* m_events;
    RunsTableModel* m_model;
    RunsViewProxy* m_activeProxy;
    QSortFilterProxyModel* m_historyProxy;
    QLabel* m_title;
    RunGauge* m_gauge;
    QLabel* m_message;
    QTableView* m_activeView;
    QTableView* m_historyView;
    QPushButton* m_cancel;
    QCheckBox* m_hideFinished;
    QGridLayout* m_clusterGaugesLayout;
    QHash<QString, RunGauge*> m_clusterGauges;
    std::vector<Cluster> m_clusters;
    QString m_jobCluster;   // the Job's cluster (one Job)
    QTimer m_clustersTimer; // coalesces events into one SHOW CLUSTERS
    QTabWidget* m_tabs;
    LogView* m_log;
    RunTimeline* m_timeline;
    QPointer<QMessageBox> m_confirmation; // deletes itself when closed
    std::unique_ptr<Ui::RunMonitor> m_ui; // widgets/RunMonitor.ui

    QString m_jobName;
    std::map<std::string, int> m_limits; // job name -> MAX_CONCURRENT_RUNS
    int m_historyLimit = 200;
    int m_generation = 0;
    int m_limitsRequests = 0;   // DESCRIBE JOB requests for the limit sent (loadLimits)
    int m_clustersRequests = 0; // SHOW CLUSTERS requests sent (loadClusters)
    TimePoint m_loadedAt{};
    QTimer m_tick;       // elapsed times
    QTimer m_fetchTimer; // coalesces events into one DESCRIBE per run
    QTimer m_applyTimer; // applies fetched runs in one batch
    QTimer m_timelineTimer;
    // A load that failed is tried again by itself, sooner first: the view never stays stale until an
    // event or the user happens to reload it.
    QTimer m_reloadRetryTimer;
    RetryBackoff m_reloadBackoff{std::chrono::milliseconds(1000), std::chrono::milliseconds(30000)};
    QSet<QPair<QString, QString>> m_pendingRuns; // (job, run id) to refetch
    QSet<QString> m_cancelWaiting;               // runs the "cancel requested" message waits for
    std::vector<SparkJobRun> m_fetched;
    bool m_limitsPending = false;
    bool m_loading = false;
    QPair<QString, QString> m_pendingSelect;
};

} // namespace jobdeck
