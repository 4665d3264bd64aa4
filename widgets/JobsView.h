#pragma once

#include <QWidget>

#include <optional>
#include <string>

class QLabel;
class QLineEdit;
class QTableView;

namespace jobdeck {

class JobsFilterProxy;
class JobsTableModel;

// The Jobs list: a filter line (`cluster:demo type:python count`, applied as you type), the count of
// shown jobs and the table, with recent runs painted as dots. Actions (New, Edit, ...) belong to the
// main window; this view shows them in its context menu.
class JobsView final : public QWidget {
    Q_OBJECT
public:
    JobsView(JobsTableModel* model, JobsFilterProxy* proxy, QWidget* parent = nullptr);

    void setContextActions(const QList<QAction*>& actions);
    // The current job's name, if a row is current.
    std::optional<std::string> currentJobName() const;
    bool selectJob(const std::string& name);
    void focusFilter();

    QTableView* table() const { return m_table; }
    QLineEdit* filterEdit() const { return m_filter; }
    QString countText() const;
    // While a full load is under way the count says so: the rows shown are not yet all the jobs.
    void setLoading(bool loading);

signals:
    // Double-click or Return on a row.
    void jobActivated(const QString& name);
    void currentJobChanged();

protected:
    // Down (or Page Down) in the filter goes on to the list, at its first row when none is current.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateCount();
    // A filter can take the current row away without the selection model saying so (a layout change
    // drops the hidden row's index silently): the current job is compared after each.
    void checkCurrentJob();

    JobsTableModel* m_model;
    JobsFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QLabel* m_count;
    QTableView* m_table;
    std::optional<std::string> m_current; // the job currentJobChanged() last told of
    bool m_loading = false;
};

} // namespace jobdeck
