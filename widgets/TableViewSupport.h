#pragma once

#include <QList>
#include <QString>

class QAbstractItemView;
class QTableView;
class QWidget;

namespace jobdeck {

// What every table of the console gets: long texts elided with the whole text as a tooltip
// (ElidedTextDelegate), columns sized to their headers and content (ColumnFitter), and Ctrl+C copying
// the selected rows as tab-separated text with a header line.
class TableViewSupport final {
public:
    // Idempotent: a table that has it already is left alone.
    static void install(QTableView* view);
    // install() for every QTableView under `root` that has an objectName.
    static void installAll(QWidget* root);

    // The selected rows (in view order) of the visible columns (in visual order), as the clipboard gets
    // them; every row when none is selected and `allWhenNoSelection`.
    static QString selectedRowsText(const QTableView* view, bool allWhenNoSelection = false);
    static void copySelectedRows(const QTableView* view);
    // The visible columns of a view, in the order shown.
    static QList<int> visibleColumns(const QTableView* view);
    // `view` is never made shorter than its header, `rows` rows and a horizontal scroll bar, however
    // small the dock or the panel it shares.
    static void keepRowsVisible(QTableView* view, int rows);
};

} // namespace jobdeck
