#include "models/ClustersModel.h"

#include "models/QtStrings.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace jobdeck {

namespace {

QString pairs(const std::map<std::string, std::string>& configs) {
    QStringList out;
    for (const auto& [k, v] : configs)
        out << QStringLiteral("%1=%2").arg(q(k), q(v));
    return out.join(QStringLiteral(", "));
}

} // namespace

ClustersModel::ClustersModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ClustersModel::setState(std::vector<Cluster> clusters,
                             const std::map<std::string, std::string>& jobClusters,
                             const std::vector<SparkJobRun>& activeRuns) {
    std::sort(clusters.begin(), clusters.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    std::vector<Row> rows;
    rows.reserve(clusters.size());
    for (Cluster& c : clusters)
        rows.push_back({std::move(c), {}, 0, 0});
    const auto find = [&rows](const std::string& name) -> Row* {
        for (Row& r : rows)
            if (r.cluster.name == name)
                return &r;
        return nullptr;
    };
    for (const auto& [job, cluster] : jobClusters)
        if (Row* r = find(cluster))
            r->jobs.push_back(job); // std::map: already by name
    for (const SparkJobRun& run : activeRuns) {
        const auto it = jobClusters.find(run.jobName);
        Row* r = it == jobClusters.end() ? nullptr : find(it->second);
        if (!r)
            continue;
        if (run.status == JobRunStatus::Running)
            ++r->running;
        else if (run.status == JobRunStatus::Queued)
            ++r->queued;
    }
    const bool sameClusters =
        rows.size() == m_rows.size() &&
        std::equal(rows.begin(), rows.end(), m_rows.begin(),
                   [](const Row& a, const Row& b) { return a.cluster.name == b.cluster.name; });
    if (!sameClusters) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
        return;
    }
    m_rows = std::move(rows); // the same rows: the cells change in place, selection and scroll stay
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int ClustersModel::rowOf(const std::string& cluster) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].cluster.name == cluster)
            return static_cast<int>(i);
    return -1;
}

int ClustersModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ClustersModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClustersModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const Cluster& c = row.cluster;
    if (role == NameRole)
        return q(c.name);
    if (role == Qt::ForegroundRole && index.column() == Queued && row.queued > 0)
        return QBrush(QColor(0xb0, 0x6a, 0x00));
    if (role == Qt::TextAlignmentRole && index.column() >= MaxOcu && index.column() <= Queued)
        return (Qt::AlignRight | Qt::AlignVCenter).toInt();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return q(c.name);
    case Type:
        return q(c.type);
    case MaxOcu:
        return c.maxOcu;
    case MinOcu:
        return c.minOcu;
    case InUse:
        return role == Qt::ToolTipRole
                   ? tr("%1 of %2 OCU in use by running drivers").arg(row.running).arg(c.maxOcu)
                   : QVariant(row.running);
    case Queued:
        return row.queued;
    case SparkDefaults:
        return pairs(c.sparkConfigs);
    case HudiDefaults:
        return pairs(c.hudiConfigs);
    case Jobs: {
        QStringList names;
        for (const auto& j : row.jobs)
            names << q(j);
        return names.join(QStringLiteral(", "));
    }
    }
    return {};
}

QVariant ClustersModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {
        QT_TR_NOOP("Cluster"),        QT_TR_NOOP("Type"),          QT_TR_NOOP("MAX_OCU"),
        QT_TR_NOOP("MIN_OCU"),        QT_TR_NOOP("OCU in use"),    QT_TR_NOOP("Queued runs"),
        QT_TR_NOOP("Spark defaults"), QT_TR_NOOP("Hudi defaults"), QT_TR_NOOP("Jobs")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace jobdeck
