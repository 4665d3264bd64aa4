#include "widgets/AdminViewSupport.h"

#include "core/policy/Role.h"
#include "core/policy/RolePolicy.h"
#include "models/AuditLogModel.h"
#include "widgets/ElidedTextDelegate.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QTableView>

#include <iterator>
#include <set>

namespace jobdeck {

void fitAuditColumns(QTableView* table) {
    QHeaderView* header = table->horizontalHeader();
    using M = AuditLogModel;
    const int order[] = {M::Time, M::Role, M::Outcome, M::Statement, M::Key, M::Kind, M::Target, M::Error};
    for (int at = 0; at < int(std::size(order)); ++at)
        header->moveSection(header->visualIndex(order[at]), at);
    for (const int column : {M::Time, M::Role, M::Outcome, M::Kind})
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    table->setTextElideMode(Qt::ElideMiddle);
    table->setItemDelegate(new ElidedTextDelegate(table)); // the whole text of an elided cell as its tooltip
    const int digit = table->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    table->setColumnWidth(M::Statement, digit * 48);
    table->setColumnWidth(M::Key, digit * 10);
    header->setStretchLastSection(true);
}

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

ActionGate::ActionGate(QObject* parent)
    : QObject(parent) {}

void ActionGate::gate(QAction* action, Statement statement) {
    auto* group = new QActionGroup(this);
    group->setExclusionPolicy(QActionGroup::ExclusionPolicy::None);
    group->addAction(action);
    m_gated.push_back({action, group, nullptr, std::move(statement), action->toolTip(), action->statusTip()});
    apply(m_gated.back());
}

void ActionGate::gate(QAbstractButton* button, Statement statement) {
    if (!button)
        return;
    button->installEventFilter(this);
    m_gated.push_back(
        {nullptr, nullptr, button, std::move(statement), button->toolTip(), button->statusTip()});
    apply(m_gated.back());
}

bool ActionGate::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::EnabledChange) {
        auto* button = static_cast<QAbstractButton*>(watched);
        for (const Gated& gated : m_gated)
            if (gated.button == button && button->isEnabled() && refusal(gated))
                button->setEnabled(false); // its owner enabled it; the role still may not send it
    }
    return QObject::eventFilter(watched, event);
}

void ActionGate::setRole(const QString& role) {
    m_role = role;
    for (Gated& gated : m_gated)
        apply(gated);
}

void ActionGate::setUnreachable(std::optional<QString> reason) {
    m_unreachable = std::move(reason);
    for (Gated& gated : m_gated)
        apply(gated);
}

// A button's owner enables it again only on its own occasions (a new selection): the service being away
// is left to the action it sends, which fails with the reason.
std::optional<QString> ActionGate::refusal(const Gated& gated) const {
    return m_unreachable && gated.action ? m_unreachable : roleRefusal(m_role, gated.statement);
}

void ActionGate::apply(Gated& gated) const {
    const std::optional<QString> refusal = this->refusal(gated);
    if (gated.action) {
        gated.group->setEnabled(!refusal);
        gated.action->setToolTip(refusal ? *refusal : gated.toolTip);
        gated.action->setStatusTip(refusal ? *refusal : gated.statusTip);
    }
    if (gated.button) {
        if (refusal)
            gated.button->setEnabled(false); // the owner enables it again once allowed (a new selection)
        gated.button->setToolTip(refusal ? *refusal : gated.toolTip);
        gated.button->setStatusTip(refusal ? *refusal : gated.statusTip);
    }
}

} // namespace jobdeck
