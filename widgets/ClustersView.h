#pragma once

#include "core/wire/Cluster.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJobRun.h"

#include <QTimer>
#include <QWidget>

#include <map>
#include <string>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;

namespace jobdeck {

class ApiClient;
class ClusterDialog;
class ClustersModel;

// Every cluster of the project with its capacity, the OCU in use and the runs queued on it (live: run
// events refresh them), its default Spark and Hudi configurations and the jobs that use it. Create, alter
// and delete, checked by core first; a delete while jobs use the cluster names them. Viewers see the list
// with the reason they cannot change it.
class ClustersView final : public QWidget {
    Q_OBJECT
public:
    explicit ClustersView(ApiClient* client, QWidget* parent = nullptr);

    void reload();
    // Another service, or none: no cluster shown before stays, no answer about them is used.
    void forget();
    void onEvents(const QList<ProjectEvent>& events);

    ClustersModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    bool isLoading() const { return m_pending > 0; }
    QString selectedCluster() const;
    bool selectCluster(const QString& name);
    QString errorText() const;

    ClusterDialog* openCreateDialog();
    ClusterDialog* openAlterDialog();
    // Sends DELETE CLUSTER for `name` (the Delete button asks first); core's message when jobs use it.
    void deleteCluster(const QString& name);

signals:
    void loaded();
    void deleteFinished(bool ok);

private:
    void requestAll();
    void loadRuns();
    void finishOne();
    void showError(const QString& message);
    void updateButtons();

    ApiClient* m_client;
    ClustersModel* m_model;
    QTableView* m_table;
    QPushButton* m_createButton;
    QPushButton* m_alterButton;
    QPushButton* m_deleteButton;
    QLabel* m_roleNote;
    QLabel* m_error;
    QProgressBar* m_busy;
    QTimer m_runsTimer; // a burst of run events is one SHOW JOB_RUNS
    QString m_role;
    int m_pending = 0;
    int m_generation = 0;
    // What the last answers said, combined into the model when all are in.
    std::vector<Cluster> m_clusters;
    std::map<std::string, std::string> m_jobClusters;
    std::vector<SparkJobRun> m_runs;
};

} // namespace jobdeck
