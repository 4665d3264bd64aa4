#include "widgets/AdminViewSupport.h"

#include "core/Role.h"
#include "core/RolePolicy.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>

#include <set>

namespace jobdeck {

QString selectedRowsText(const QAbstractItemView* view) {
    const QAbstractItemModel* model = view->model();
    if (!model || !view->selectionModel())
        return {};
    std::set<int> rows;
    for (const QModelIndex& index : view->selectionModel()->selectedIndexes())
        rows.insert(index.row());
    QStringList lines;
    for (const int row : rows) {
        QStringList cells;
        for (int column = 0; column < model->columnCount(); ++column)
            cells << model->index(row, column).data().toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n'));
}

void installCopyRows(QAbstractItemView* view) {
    auto* copy = new QAction(QObject::tr("Copy rows"), view);
    copy->setObjectName(QStringLiteral("copyRowsAction"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    QObject::connect(copy, &QAction::triggered, view, [view] {
        const QString text = selectedRowsText(view);
        if (!text.isEmpty())
            QApplication::clipboard()->setText(text);
    });
    view->addAction(copy);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
}

QProgressBar* makeBusyBar(const QString& objectName, QWidget* parent) {
    auto* bar = new QProgressBar(parent);
    bar->setObjectName(objectName);
    bar->setRange(0, 0); // indeterminate: a statement's answer has no progress to report
    bar->setTextVisible(false);
    bar->setMaximumHeight(8);
    bar->hide();
    return bar;
}

QLabel* makeNote(const QString& objectName, QWidget* parent, bool error) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (error)
        label->setStyleSheet(QStringLiteral("color: #c62828;"));
    return label;
}

std::optional<QString> roleRefusal(const QString& role, const Statement& statement) {
    const auto known = roleFromName(role.toStdString());
    if (!known)
        return std::nullopt;
    if (auto refusal = RolePolicy::refusal(*known, statement))
        return QString::fromStdString(*refusal);
    return std::nullopt;
}

} // namespace jobdeck
