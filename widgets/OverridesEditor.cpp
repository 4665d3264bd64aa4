#include "widgets/OverridesEditor.h"

#include "models/ArgumentOverridesModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QShortcut>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace jobdeck {

namespace {

// Tab goes between the two cells a person types in, the argument's name and its override, over the
// Job's value (read-only): a new argument is named, Tab, and given its value. Up and down the rows, and
// where the focus first lands, the cursor is on a cell typing edits: a Job argument's override, not its
// read-only name or value.
class OverridesTable final : public QTableView {
public:
    using QTableView::QTableView;

protected:
    QModelIndex moveCursor(CursorAction action, Qt::KeyboardModifiers modifiers) override {
        const QModelIndex current = currentIndex();
        if (current.isValid() && action == MoveNext && current.column() == ArgumentOverridesModel::Name)
            return current.siblingAtColumn(ArgumentOverridesModel::Override);
        if (current.isValid() && action == MovePrevious &&
            current.column() == ArgumentOverridesModel::Override)
            return current.siblingAtColumn(ArgumentOverridesModel::Name);
        const QModelIndex next = QTableView::moveCursor(action, modifiers);
        const bool vertical =
            action == MoveUp || action == MoveDown || action == MovePageUp || action == MovePageDown;
        if (next.isValid() && (vertical || !current.isValid()) && !(next.flags() & Qt::ItemIsEditable))
            return next.siblingAtColumn(ArgumentOverridesModel::Override);
        return next;
    }
};

} // namespace

OverridesEditor::OverridesEditor(ArgumentOverridesModel* model, QWidget* parent)
    : OverridesEditor(parent) {
    setModel(model);
}

OverridesEditor::OverridesEditor(QWidget* parent)
    : QWidget(parent) {
    m_view = new OverridesTable(this);
    m_view->setObjectName(QStringLiteral("overridesView"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                            QAbstractItemView::AnyKeyPressed | QAbstractItemView::SelectedClicked);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);

    m_add = new QPushButton(tr("&Add argument"), this);
    m_add->setObjectName(QStringLiteral("addArgumentButton"));
    m_add->setToolTip(
        tr("Add an argument the Job does not have; it is appended as --name value (Insert in the table)."));
    m_remove = new QPushButton(tr("&Remove override"), this);
    m_remove->setObjectName(QStringLiteral("removeArgumentButton"));
    m_remove->setToolTip(
        tr("Inherit the Job's value again, or remove an added argument (Delete in the table)."));
    // In the table itself, not while a cell is being edited (its editor has the focus then).
    auto* insert = new QShortcut(QKeySequence(Qt::Key_Insert), m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(insert, &QShortcut::activated, this, [this] {
        if (m_add->isEnabled())
            addArgument();
    });
    auto* remove = new QShortcut(QKeySequence::Delete, m_view, nullptr, nullptr, Qt::WidgetShortcut);
    connect(remove, &QShortcut::activated, this, [this] {
        if (m_remove->isEnabled())
            removeSelected();
    });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    layout->addLayout(buttons);

    connect(m_add, &QPushButton::clicked, this, &OverridesEditor::addArgument);
    connect(m_remove, &QPushButton::clicked, this, &OverridesEditor::removeSelected);
    m_add->setEnabled(false);
    m_remove->setEnabled(false);
}

void OverridesEditor::setModel(ArgumentOverridesModel* model) {
    m_model = model;
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setSectionResizeMode(ArgumentOverridesModel::Name,
                                                     QHeaderView::ResizeToContents);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OverridesEditor::updateButtons);
    connect(m_model, &ArgumentOverridesModel::overridesChanged, this, &OverridesEditor::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &OverridesEditor::updateButtons);
    m_add->setEnabled(true);
    updateButtons();
}

void OverridesEditor::addArgument() {
    const int row = m_model->addArgument(QStringLiteral("--"));
    const QModelIndex name = m_model->index(row, ArgumentOverridesModel::Name);
    m_view->setCurrentIndex(name);
    m_view->edit(name);
}

void OverridesEditor::removeSelected() {
    QList<int> rows;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
        rows << index.row();
    // Bottom up, so removing an added row does not shift the ones still to do.
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int row : rows)
        m_model->removeOverride(row);
}

void OverridesEditor::updateButtons() {
    bool removable = false;
    for (const QModelIndex& index : m_view->selectionModel()->selectedRows()) {
        const bool fromJob = m_model->isFromJob(index.row());
        removable |=
            !fromJob ||
            !m_model->index(index.row(), ArgumentOverridesModel::Override).data().toString().isEmpty();
    }
    m_remove->setEnabled(removable);
}

} // namespace jobdeck
