#pragma once

#include "core/policy/JobFilter.h"

#include <QPointer>
#include <QSortFilterProxyModel>

namespace jobdeck {

class JobsTableModel;

// Filters the Jobs list with core/policy/JobFilter (`cluster:demo type:python count`). Over a JobsTableModel
// it reads the rows directly and leaves sorting to the source (sort() is forwarded), so a keystroke
// costs one linear pass over 100,000 jobs: no QVariant per cell and no re-sort.
class JobsFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit JobsFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }
    const JobFilter& filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QPointer<JobsTableModel> m_jobs;
    QString m_text;
    JobFilter m_filter;
};

} // namespace jobdeck
