#pragma once

#include "widgets/TableExport.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QMenu;
class QTableView;
class QWidget;

namespace jobdeck {

// File → Export: the jobs list, the runs history or the table the user worked in last, as CSV or JSON.
// Asks for a file, writes it (TableExport) and reports how it went; the window shows the outcome.
class TableExportMenu final : public QObject {
    Q_OBJECT
public:
    using TableSource = std::function<QTableView*()>;

    // Adds the Export submenu to `file`. `window` parents the file dialog and bounds the tables
    // remembered as the current one; the sources give the jobs list and the runs history.
    TableExportMenu(QMenu* file, QWidget* window, TableSource jobs, TableSource runs);

    QMenu* menu() const { return m_menu; }
    // The table the user worked in last (the jobs list until another one had focus).
    QTableView* currentTable() const;
    // Asks for a file, then exportTo().
    void exportTable(QTableView* view, TableExport::Format format);
    // Writes what `view` shows to `path`: exportStarted(), then exportFinished().
    void exportTo(QTableView* view, const QString& path, TableExport::Format format);

signals:
    void exportStarted(const QString& path);
    // `error` is empty when the file was written.
    void exportFinished(const QString& path, const QString& error);

private:
    void addAction(const QString& text, const QString& name, TableSource view, TableExport::Format format);
    void rememberFocusedTable(QWidget* now);

    QWidget* m_window;
    TableSource m_jobs;
    TableSource m_runs;
    QMenu* m_menu;
    QPointer<QTableView> m_lastTable;
};

} // namespace jobdeck
