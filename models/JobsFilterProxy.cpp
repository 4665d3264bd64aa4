#include "models/JobsFilterProxy.h"

#include "models/JobsTableModel.h"

#include <QDateTime>

#include <algorithm>
#include <cctype>

namespace jobdeck {

namespace {

int compareNoCase(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const int ca = std::tolower(static_cast<unsigned char>(a[i]));
        const int cb = std::tolower(static_cast<unsigned char>(b[i]));
        if (ca != cb)
            return ca < cb ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

} // namespace

JobsFilterProxy::JobsFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(JobsTableModel::RawDataRole);
    setDynamicSortFilter(true);
}

void JobsFilterProxy::setSourceModel(QAbstractItemModel* model) {
    m_jobs = qobject_cast<JobsTableModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void JobsFilterProxy::setFilterText(const QString& text) {
    if (text == m_text)
        return;
    m_text = text;
    m_filter = JobFilter::parse(text.toStdString());
    invalidateFilter();
}

bool JobsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_filter.isEmpty() || sourceParent.isValid())
        return true;
    if (m_jobs) {
        const SparkJob& job = m_jobs->job(sourceRow);
        return m_filter.matches(job.name, job.cluster, jobTypeName(job.type));
    }
    // Any other table with the same columns.
    const QAbstractItemModel* source = sourceModel();
    const auto text = [&](int column) {
        return source->index(sourceRow, column, sourceParent).data().toString().toStdString();
    };
    return m_filter.matches(text(JobsTableModel::Name), text(JobsTableModel::Cluster),
                            text(JobsTableModel::Type));
}

bool JobsFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    if (!m_jobs || left.column() != right.column())
        return QSortFilterProxyModel::lessThan(left, right);
    const SparkJob& a = m_jobs->job(left.row());
    const SparkJob& b = m_jobs->job(right.row());
    int c = 0;
    switch (left.column()) {
    case JobsTableModel::Name:
        c = compareNoCase(a.name, b.name);
        break;
    case JobsTableModel::Type:
        c = compareNoCase(jobTypeName(a.type), jobTypeName(b.type));
        break;
    case JobsTableModel::Cluster:
        c = compareNoCase(a.cluster, b.cluster);
        break;
    case JobsTableModel::MaxConcurrentRuns:
        c = (a.maxConcurrentRuns > b.maxConcurrentRuns) - (a.maxConcurrentRuns < b.maxConcurrentRuns);
        break;
    case JobsTableModel::ActiveRuns:
        c = (a.activeRuns > b.activeRuns) - (a.activeRuns < b.activeRuns);
        break;
    case JobsTableModel::RecentRuns: {
        // Most recent status first, then how many runs there are.
        const auto& ra = m_jobs->recentRuns(left.row());
        const auto& rb = m_jobs->recentRuns(right.row());
        const int sa = ra.empty() ? -1 : static_cast<int>(ra.front());
        const int sb = rb.empty() ? -1 : static_cast<int>(rb.front());
        c = sa != sb ? (sa < sb ? -1 : 1) : (ra.size() < rb.size() ? -1 : ra.size() > rb.size() ? 1 : 0);
        break;
    }
    case JobsTableModel::Updated:
        c = (a.updatedAt > b.updatedAt) - (a.updatedAt < b.updatedAt);
        break;
    default:
        return QSortFilterProxyModel::lessThan(left, right);
    }
    // Ties by name keep the order stable across refreshes.
    return c != 0 ? c < 0 : compareNoCase(a.name, b.name) < 0;
}

} // namespace jobdeck
