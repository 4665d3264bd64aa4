#pragma once

#include "core/JobFilter.h"

#include <QPointer>
#include <QSortFilterProxyModel>

namespace jobdeck {

class JobsTableModel;

// Filters the Jobs list with core/JobFilter (`cluster:demo type:python count`) and sorts by the raw
// values. Over a JobsTableModel it reads the rows directly, so 100,000 jobs filter per keystroke
// without building a QVariant per cell.
class JobsFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit JobsFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;
    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }
    const JobFilter& filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QPointer<JobsTableModel> m_jobs;
    QString m_text;
    JobFilter m_filter;
};

} // namespace jobdeck
