#include "models/JobsFilterProxy.h"

#include "models/JobsTableModel.h"

namespace jobdeck {

JobsFilterProxy::JobsFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {
    setSortRole(JobsTableModel::RawDataRole); // for sources other than JobsTableModel
    setDynamicSortFilter(true);
}

void JobsFilterProxy::setSourceModel(QAbstractItemModel* model) {
    m_jobs = qobject_cast<JobsTableModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void JobsFilterProxy::sort(int column, Qt::SortOrder order) {
    if (m_jobs)
        m_jobs->sort(column, order);
    else
        QSortFilterProxyModel::sort(column, order);
}

void JobsFilterProxy::setFilterText(const QString& text) {
    if (text == m_text)
        return;
    m_text = text;
    m_filter = JobFilter::parse(text.toStdString());
    if (m_jobs && !m_filter.isEmpty())
        m_jobs->packFilterFields();
    // Not invalidateFilter(): that removes and inserts the changed rows range by range, and a
    // keystroke over 100,000 jobs makes thousands of scattered ranges, each shifting the mapping.
    // Dropping the mapping is one layout change and one linear pass when the view asks again.
    invalidate();
}

bool JobsFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (m_filter.isEmpty() || sourceParent.isValid())
        return true;
    if (m_jobs) {
        const auto f = m_jobs->filterFields(sourceRow);
        return m_filter.matches(f.name, f.cluster, f.type);
    }
    // Any other table with the same columns.
    const QAbstractItemModel* source = sourceModel();
    const auto text = [&](int column) {
        return source->index(sourceRow, column, sourceParent).data().toString().toStdString();
    };
    return m_filter.matches(text(JobsTableModel::Name), text(JobsTableModel::Cluster),
                            text(JobsTableModel::Type));
}

} // namespace jobdeck
