#include "models/RunsViewProxy.h"

#include "models/RunsTableModel.h"

namespace jobdeck {

RunsViewProxy::RunsViewProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setDynamicSortFilter(true);
    sort(0, Qt::AscendingOrder);
}

void RunsViewProxy::setShowFinished(bool show) {
    if (show == m_showFinished)
        return;
    m_showFinished = show;
    invalidateRowsFilter();
}

bool RunsViewProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_showFinished)
        return true;
    return sourceModel()->index(sourceRow, 0, sourceParent).data(RunsTableModel::ActiveRole).toBool();
}

// Whatever column is clicked: active before finished; active by when they were queued, oldest first (the
// order the service starts them in); finished by when they ended, newest first.
bool RunsViewProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const auto* runs = static_cast<const RunsTableModel*>(sourceModel());
    const SparkJobRun& a = runs->run(left.row());
    const SparkJobRun& b = runs->run(right.row());
    if (a.isActive() != b.isActive())
        return a.isActive();
    if (a.isActive())
        return a.queuedAt != b.queuedAt ? a.queuedAt < b.queuedAt : a.jobRunId < b.jobRunId;
    const TimePoint aEnd = a.endedAt.value_or(a.queuedAt), bEnd = b.endedAt.value_or(b.queuedAt);
    return aEnd != bEnd ? aEnd > bEnd : a.jobRunId > b.jobRunId;
}

} // namespace jobdeck
