#include "widgets/TableViewSupport.h"

#include "models/ModelExporter.h"
#include "widgets/ColumnFitter.h"
#include "widgets/ElidedTextDelegate.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTableView>

#include <algorithm>

namespace jobdeck {

namespace {
const char* const kInstalled = "jobdeckTableSupport";
}

void TableViewSupport::install(QTableView* view) {
    if (!view || view->property(kInstalled).toBool())
        return;
    view->setProperty(kInstalled, true);
    // Column delegates (status dots) stay; the view-wide one draws every other cell.
    view->setItemDelegate(new ElidedTextDelegate(view));
    new ColumnFitter(view);
    // A view with a Copy of its own keeps it (two actions on one shortcut would both be ambiguous).
    for (const QAction* existing : view->actions())
        if (existing->shortcut() == QKeySequence(QKeySequence::Copy))
            return;
    auto* copy = new QAction(QObject::tr("&Copy rows"), view);
    copy->setObjectName(QStringLiteral("actionCopyRows"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view] { copySelectedRows(view); });
    view->addAction(copy);
}

void TableViewSupport::installAll(QWidget* root) {
    for (QTableView* view : root->findChildren<QTableView*>())
        if (!view->objectName().isEmpty())
            install(view);
}

void TableViewSupport::keepRowsVisible(QTableView* view, int rows) {
    view->setMinimumHeight(view->horizontalHeader()->sizeHint().height() +
                           (rows + 1) * view->verticalHeader()->defaultSectionSize() +
                           2 * view->frameWidth());
}

QList<int> TableViewSupport::visibleColumns(const QTableView* view) {
    QList<int> columns;
    const QHeaderView* header = view->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical))
            columns << logical;
    }
    return columns;
}

QString TableViewSupport::selectedRowsText(const QTableView* view, bool allWhenNoSelection) {
    if (!view || !view->model())
        return {};
    QList<int> rows;
    if (const QItemSelectionModel* selection = view->selectionModel()) {
        for (const QModelIndex& index : selection->selectedIndexes())
            rows << index.row();
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    if (rows.isEmpty() && !allWhenNoSelection)
        return {};
    ModelExporter exporter(*view->model());
    exporter.setRows(rows);
    exporter.setColumns(visibleColumns(view));
    return exporter.tabSeparated();
}

void TableViewSupport::copySelectedRows(const QTableView* view) {
    const QString text = selectedRowsText(view);
    if (!text.isEmpty())
        QGuiApplication::clipboard()->setText(text);
}

} // namespace jobdeck
