#pragma once

#include <QObject>
#include <QPointer>

class QHeaderView;
class QTableView;

namespace jobdeck {

// Sizes a table's columns so that no header is cut and contents show: each column at least as wide as
// its header text from the start, and as wide as its content (up to a cap) the first time rows arrive.
// After that the widths are the user's: once fitted, or once a width was set by the user or restored
// from the settings, they are never changed again.
class ColumnFitter final : public QObject {
    Q_OBJECT
public:
    explicit ColumnFitter(QTableView* view);

    // Every column to max(header, content of the rows in view), at most maxColumnWidth().
    void fit();
    bool isFitted() const { return m_fitted; }
    int maxColumnWidth() const;

    // The header's widths came from the settings: no fitter of its view changes them (restoreState
    // emits no sectionResized for the fitter to see, and the fitter may be made after the restore).
    static void markRestored(QHeaderView* header);

private:
    void fitHeaders();
    void modelChanged();
    bool widthsAreTheUsers();

    QPointer<QTableView> m_view;
    bool m_fitted = false;
    bool m_resizing = false;
};

} // namespace jobdeck
