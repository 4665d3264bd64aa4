#pragma once

#include <QObject>
#include <QPointer>

class QHeaderView;
class QTableView;

namespace jobdeck {

// Sizes a table's columns so that no header is cut and contents show: each column at least as wide as
// its header text from the start, and as wide as its content (up to a cap) the first time rows arrive;
// later rows and changes widen a column their content no longer fits, never narrow it. Once a width was
// set by the user or restored from the settings the widths are the user's and are never changed again,
// except that the column naming the rows (a job's name, see keepWideEnough) is widened to the names in
// view.
class ColumnFitter final : public QObject {
    Q_OBJECT
public:
    explicit ColumnFitter(QTableView* view);

    // Every column to max(header, content of the rows in view), at most maxColumnWidth().
    void fit();
    int maxColumnWidth() const;

    // `column` names the rows: whatever widths the user or the settings chose, it is widened (never
    // narrowed) to the longest name in view, up to maxColumnWidth(), when rows arrive or the view
    // scrolls. Widths saved beside a demo's five short names would otherwise elide every name of a
    // project of thousands.
    void keepWideEnough(int column);
    // The fitter TableViewSupport gave `view`, if any.
    static ColumnFitter* of(const QTableView* view);

    // The header's widths came from the settings: no fitter of its view changes them (restoreState
    // emits no sectionResized for the fitter to see, and the fitter may be made after the restore).
    static void markRestored(QHeaderView* header);

private:
    void fitHeaders();
    void modelChanged();
    void rowsChanged(int first, int last);
    void widenTo(int first, int last);
    bool widthsAreTheUsers();
    void widenNamingColumn();

    QPointer<QTableView> m_view;
    bool m_fitted = false;      // fit() sized the columns to their first rows
    bool m_usersWidths = false; // a width was set by the user or restored from the settings
    bool m_resizing = false;
    int m_namingColumn = -1;
};

} // namespace jobdeck
