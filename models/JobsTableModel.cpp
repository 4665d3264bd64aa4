#include "models/JobsTableModel.h"

#include <QDateTime>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <chrono>

namespace jobdeck {

namespace {

QDateTime toDateTime(TimePoint t) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

QString statusWord(JobRunStatus s) {
    QString name =
        QString::fromUtf8(jobRunStatusName(s).data(), static_cast<qsizetype>(jobRunStatusName(s).size()));
    return name.mid(name.lastIndexOf(QLatin1Char('_')) + 1);
}

} // namespace

JobsTableModel::JobsTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void JobsTableModel::rebuildIndex() {
    m_index.clear();
    m_index.reserve(m_rows.size());
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_index.emplace(m_rows[i].job.name, static_cast<int>(i));
}

void JobsTableModel::setJobs(std::vector<SparkJob> jobs) {
    beginResetModel();
    // Recent runs survive a reload: they come from a separate query.
    std::unordered_map<std::string, std::vector<JobRunStatus>> recent;
    for (Row& row : m_rows)
        if (!row.recent.empty())
            recent.emplace(row.job.name, std::move(row.recent));
    m_rows.clear();
    m_rows.reserve(jobs.size());
    for (SparkJob& job : jobs) {
        auto it = recent.find(job.name);
        m_rows.push_back(
            Row{std::move(job), it == recent.end() ? std::vector<JobRunStatus>{} : std::move(it->second)});
    }
    rebuildIndex();
    endResetModel();
}

void JobsTableModel::clear() {
    setJobs({});
}

void JobsTableModel::emitRowsChanged(int first, int last) {
    if (first <= last)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void JobsTableModel::upsertJob(SparkJob job) {
    std::vector<SparkJob> one;
    one.push_back(std::move(job));
    upsertJobs(std::move(one));
}

void JobsTableModel::upsertJobs(std::vector<SparkJob> jobs) {
    int first = std::numeric_limits<int>::max(), last = -1;
    std::vector<SparkJob> added;
    for (SparkJob& job : jobs) {
        const int row = rowOf(job.name);
        if (row < 0) {
            added.push_back(std::move(job));
            continue;
        }
        m_rows[static_cast<std::size_t>(row)].job = std::move(job);
        first = std::min(first, row);
        last = std::max(last, row);
    }
    emitRowsChanged(first, last);
    if (added.empty())
        return;
    const int start = static_cast<int>(m_rows.size());
    beginInsertRows({}, start, start + static_cast<int>(added.size()) - 1);
    for (SparkJob& job : added) {
        m_index.emplace(job.name, static_cast<int>(m_rows.size()));
        m_rows.push_back(Row{std::move(job), {}});
    }
    endInsertRows();
}

void JobsTableModel::removeJob(const std::string& name) {
    const int row = rowOf(name);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.erase(m_rows.begin() + row);
    rebuildIndex();
    endRemoveRows();
}

void JobsTableModel::setRecentRuns(const std::string& jobName, std::vector<JobRunStatus> newestFirst) {
    const int row = rowOf(jobName);
    if (row < 0)
        return;
    if (newestFirst.size() > kRecentRunsKept)
        newestFirst.resize(kRecentRunsKept);
    m_rows[static_cast<std::size_t>(row)].recent = std::move(newestFirst);
    const QModelIndex cell = index(row, RecentRuns);
    emit dataChanged(cell, cell);
}

void JobsTableModel::setRecentRunsFromRuns(const std::vector<SparkJobRun>& runsNewestFirst) {
    std::unordered_map<std::string, std::vector<JobRunStatus>> byJob;
    for (const SparkJobRun& run : runsNewestFirst) {
        auto& list = byJob[run.jobName];
        if (list.size() < kRecentRunsKept)
            list.push_back(run.status);
    }
    int first = std::numeric_limits<int>::max(), last = -1;
    for (auto& [name, statuses] : byJob) {
        const int row = rowOf(name);
        if (row < 0)
            continue;
        m_rows[static_cast<std::size_t>(row)].recent = std::move(statuses);
        first = std::min(first, row);
        last = std::max(last, row);
    }
    if (first <= last)
        emit dataChanged(index(first, RecentRuns), index(last, RecentRuns));
}

int JobsTableModel::rowOf(const std::string& name) const {
    const auto it = m_index.find(name);
    return it == m_index.end() ? -1 : it->second;
}

int JobsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int JobsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const SparkJob& job = row.job;
    if (role == Qt::DisplayRole || role == RawDataRole) {
        switch (index.column()) {
        case Name:
            return QString::fromStdString(job.name);
        case Type:
            return QString::fromUtf8(jobTypeName(job.type).data(),
                                     static_cast<qsizetype>(jobTypeName(job.type).size()));
        case Cluster:
            return QString::fromStdString(job.cluster);
        case MaxConcurrentRuns:
            return job.maxConcurrentRuns;
        case ActiveRuns:
            return job.activeRuns;
        case RecentRuns: {
            if (role == Qt::DisplayRole)
                return {}; // painted as dots by StatusDotsDelegate
            QVariantList list;
            list.reserve(static_cast<qsizetype>(row.recent.size()));
            for (JobRunStatus s : row.recent)
                list.append(static_cast<int>(s));
            return list;
        }
        case Updated:
            if (role == RawDataRole)
                return toDateTime(job.updatedAt);
            return QLocale().toString(toDateTime(job.updatedAt).toLocalTime(), QLocale::ShortFormat);
        }
    } else if (role == Qt::ToolTipRole && index.column() == RecentRuns) {
        if (row.recent.empty())
            return tr("No runs yet");
        QStringList words;
        for (JobRunStatus s : row.recent)
            words << statusWord(s);
        return tr("Newest first: %1").arg(words.join(QStringLiteral(", ")));
    } else if (role == Qt::TextAlignmentRole &&
               (index.column() == MaxConcurrentRuns || index.column() == ActiveRuns)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant JobsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Name");
    case Type:
        return tr("Type");
    case Cluster:
        return tr("Cluster");
    case MaxConcurrentRuns:
        return tr("Max runs");
    case ActiveRuns:
        return tr("Active");
    case RecentRuns:
        return tr("Recent runs");
    case Updated:
        return tr("Updated");
    }
    return {};
}

} // namespace jobdeck
