#include "widgets/TableExportMenu.h"

#include "widgets/FocusReturn.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QMenu>
#include <QTableView>

namespace jobdeck {

TableExportMenu::TableExportMenu(QMenu* file, QWidget* window, TableSource jobs, TableSource runs)
    : QObject(window)
    , m_window(window)
    , m_jobs(std::move(jobs))
    , m_runs(std::move(runs))
    , m_menu(file->addMenu(tr("&Export"))) {
    m_menu->setObjectName(QStringLiteral("menuExport"));
    using F = TableExport::Format;
    const auto current = [this] { return currentTable(); };
    addAction(tr("Jobs list as &CSV…"), QStringLiteral("actionExportJobsCsv"), m_jobs, F::Csv);
    addAction(tr("Jobs list as &JSON…"), QStringLiteral("actionExportJobsJson"), m_jobs, F::Json);
    addAction(tr("&Runs history as CSV…"), QStringLiteral("actionExportRunsCsv"), m_runs, F::Csv);
    addAction(tr("Runs &history as JSON…"), QStringLiteral("actionExportRunsJson"), m_runs, F::Json);
    m_menu->addSeparator();
    addAction(tr("Current table as CS&V…"), QStringLiteral("actionExportTableCsv"), current, F::Csv);
    addAction(tr("Current table as JS&ON…"), QStringLiteral("actionExportTableJson"), current, F::Json);
    // "Current table" is the one the user worked in last, so focus is followed as it moves.
    connect(qApp, &QApplication::focusChanged, this,
            [this](QWidget*, QWidget* now) { rememberFocusedTable(now); });
}

void TableExportMenu::addAction(const QString& text, const QString& name, TableSource view,
                                TableExport::Format format) {
    QAction* a = m_menu->addAction(text);
    a->setObjectName(name);
    connect(a, &QAction::triggered, this, [this, view, format] { exportTable(view(), format); });
}

void TableExportMenu::rememberFocusedTable(QWidget* now) {
    for (QWidget* w = now; w && w != m_window; w = w->parentWidget())
        if (auto* table = qobject_cast<QTableView*>(w); table && m_window->isAncestorOf(table)) {
            m_lastTable = table;
            return;
        }
}

QTableView* TableExportMenu::currentTable() const {
    return m_lastTable ? m_lastTable.data() : m_jobs();
}

void TableExportMenu::exportTable(QTableView* view, TableExport::Format format) {
    auto* dialog = new QFileDialog(m_window, tr("Export"), QDir::homePath(), TableExport::fileFilter(format));
    dialog->setObjectName(QStringLiteral("exportFileDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(TableExport::suffix(format));
    dialog->selectFile(TableExport::proposedFileName(view, format));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<QTableView> target(view);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, target, format](const QString& path) { exportTo(target, path, format); });
    openReturningFocus(dialog);
}

void TableExportMenu::exportTo(QTableView* view, const QString& path, TableExport::Format format) {
    emit exportStarted(path);
    TableExport::start(view, path, format, this,
                       [this, path](const QString& error) { emit exportFinished(path, error); });
}

} // namespace jobdeck
