#pragma once

#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJobRun.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <QWidget>

#include <map>
#include <string>
#include <vector>

class QLabel;
class QMessageBox;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;

namespace jobdeck {

class ApiClient;
class EventsSubscription;
class LogView;
class RunGauge;
class RunTimeline;
class RunsTableModel;

// The concurrent runs monitor, for one Job or for all: active runs against the limit (gauge and table,
// elapsed ticking, queue reasons), cancel with confirmation, the selected run's log, and the history
// with a timeline. It follows the service's events: a RUN_STATUS_CHANGED refetches that run (DESCRIBE
// JOB_RUN) and updates its row in place; there is no periodic reload.
class RunMonitor final : public QWidget {
    Q_OBJECT
public:
    explicit RunMonitor(ApiClient* client, QWidget* parent = nullptr);
    ~RunMonitor() override;

    // Empty: every Job of the project. Reloads and (re)starts following events.
    void setJob(const QString& jobName);
    QString jobName() const { return m_jobName; }
    void reload();
    // Finished runs kept in the history (besides every active run).
    void setHistoryLimit(int runs) { m_historyLimit = std::max(1, runs); }

    // Shows a run (fetching it when not known yet), selects it and follows its log.
    void showRun(const QString& jobName, const QString& runId);
    // Asks for confirmation, then cancels the runs selected in the active table.
    void cancelSelected();
    // Without confirmation; each shows "cancel requested" until its final state arrives.
    void cancelRuns(const QList<QPair<QString, QString>>& jobAndRunIds);

    // The limit the gauge counts against: the Job's, or the sum over every Job.
    int limit() const;
    RunsTableModel* model() const { return m_model; }
    QSortFilterProxyModel* activeProxy() const { return m_activeProxy; }
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

private:
    bool concerns(const std::string& jobName) const;
    void onEvents(const QList<ProjectEvent>& events);
    void fetchPendingRuns();
    void applyFetched();
    void loadLimits();
    void refreshSummary();
    void refreshTimeline();
    void selectPending();
    void followSelected(QTableView* view);
    void setMessage(const QString& text, bool error);
    // Clears "cancel requested" once every run it waited for has reached its final state.
    void clearCancelMessage();

    ApiClient* m_client;
    EventsSubscription* m_events;
    RunsTableModel* m_model;
    QSortFilterProxyModel* m_activeProxy;
    QSortFilterProxyModel* m_historyProxy;
    QLabel* m_title;
    RunGauge* m_gauge;
    QLabel* m_message;
    QTableView* m_activeView;
    QTableView* m_historyView;
    QPushButton* m_cancel;
    QTabWidget* m_tabs;
    LogView* m_log;
    RunTimeline* m_timeline;
    QPointer<QMessageBox> m_confirmation; // deletes itself when closed

    QString m_jobName;
    std::map<std::string, int> m_limits; // job name -> MAX_CONCURRENT_RUNS
    int m_historyLimit = 200;
    int m_generation = 0;
    TimePoint m_loadedAt{};
    QTimer m_tick;       // elapsed times
    QTimer m_fetchTimer; // coalesces events into one DESCRIBE per run
    QTimer m_applyTimer; // applies fetched runs in one batch
    QTimer m_timelineTimer;
    QSet<QPair<QString, QString>> m_pendingRuns; // (job, run id) to refetch
    QSet<QString> m_cancelWaiting;               // runs the "cancel requested" message waits for
    std::vector<SparkJobRun> m_fetched;
    bool m_limitsPending = false;
    bool m_loading = false;
    QPair<QString, QString> m_pendingSelect;
};

} // namespace jobdeck
