#pragma once

#include "core/wire/Cluster.h"
#include "core/wire/SparkJobRun.h"

#include <QAbstractTableModel>

#include <map>
#include <string>
#include <vector>

namespace jobdeck {

// Every cluster of the project with what it holds now: its capacity (MAX_OCU / MIN_OCU), the OCU in use
// (RUNNING drivers, one OCU each) and the runs waiting in QUEUED, its default Spark and Hudi configurations
// (WITH), and the jobs that use it. A refresh with the same clusters updates the cells in place.
class ClustersModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Type, MaxOcu, MinOcu, InUse, Queued, SparkDefaults, HudiDefaults, Jobs, ColumnCount };
    static constexpr int NameRole = Qt::UserRole; // QString, on every column

    explicit ClustersModel(QObject* parent = nullptr);

    // jobClusters: job name -> cluster name; activeRuns: QUEUED and RUNNING runs of the project.
    void setState(std::vector<Cluster> clusters, const std::map<std::string, std::string>& jobClusters,
                  const std::vector<SparkJobRun>& activeRuns);

    int rowOf(const std::string& cluster) const;
    const Cluster& cluster(int row) const { return m_rows[static_cast<std::size_t>(row)].cluster; }
    const std::vector<std::string>& jobs(int row) const { return m_rows[static_cast<std::size_t>(row)].jobs; }
    int inUse(int row) const { return m_rows[static_cast<std::size_t>(row)].running; }
    int queued(int row) const { return m_rows[static_cast<std::size_t>(row)].queued; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        Cluster cluster;
        std::vector<std::string> jobs;
        int running = 0;
        int queued = 0;
    };
    std::vector<Row> m_rows; // by name
};

} // namespace jobdeck
