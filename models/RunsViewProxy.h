#pragma once

#include <QSortFilterProxyModel>

namespace jobdeck {

// The runs view over a RunsTableModel: the active runs first (oldest queued on top), then the finished
// ones the model keeps, newest end first, each with its final state, exit code and why it ended. Finished
// runs can be hidden (setShowFinished(false)); a run that ends stays where the user can see its outcome.
class RunsViewProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsViewProxy(QObject* parent = nullptr);

    void setShowFinished(bool show);
    bool showsFinished() const { return m_showFinished; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool m_showFinished = true;
};

} // namespace jobdeck
