#include "widgets/ColumnFitter.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <algorithm>

namespace jobdeck {

ColumnFitter::ColumnFitter(QTableView* view)
    : QObject(view)
    , m_view(view) {
    QHeaderView* header = view->horizontalHeader();
    // A column is never narrower than a few characters, whatever the user drags it to.
    header->setMinimumSectionSize(view->fontMetrics().averageCharWidth() * 4);
    // Only the rows near the top are measured: 100,000 rows are not read to size a column.
    header->setResizeContentsPrecision(200);
    connect(header, &QHeaderView::sectionResized, this, [this, header](int column) {
        // A section the header sizes itself (stretched to the view, fitted to its contents) moves with
        // the rows and the view's width; that is not a width anybody chose.
        const bool headersOwn =
            header->sectionResizeMode(column) != QHeaderView::Interactive ||
            (header->stretchLastSection() && header->visualIndex(column) == header->count() - 1);
        if (!m_resizing && !headersOwn)
            m_usersWidths = true; // the user's width, or one restored from the settings
    });
    if (QAbstractItemModel* model = view->model()) {
        connect(model, &QAbstractItemModel::modelReset, this, &ColumnFitter::modelChanged);
        connect(model, &QAbstractItemModel::rowsInserted, this,
                [this](const QModelIndex&, int first, int last) { rowsChanged(first, last); });
        connect(model, &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex& topLeft, const QModelIndex& bottomRight) {
                    rowsChanged(topLeft.row(), bottomRight.row());
                });
        connect(model, &QAbstractItemModel::layoutChanged, this, &ColumnFitter::modelChanged);
        connect(model, &QAbstractItemModel::columnsInserted, this, &ColumnFitter::fitHeaders);
    }
    fitHeaders();
    modelChanged();
}

namespace {
constexpr const char* kRestoredProperty = "jobdeckColumnWidthsRestored";
}

void ColumnFitter::markRestored(QHeaderView* header) {
    header->setProperty(kRestoredProperty, true);
}

bool ColumnFitter::widthsAreTheUsers() {
    if (m_view && m_view->horizontalHeader()->property(kRestoredProperty).toBool())
        m_usersWidths = true;
    return m_usersWidths;
}

int ColumnFitter::maxColumnWidth() const {
    if (!m_view)
        return 0;
    // 48 characters of the bold font: a row is bold while its end is unseen, and a run id (36
    // characters) is whole then too.
    QFont bold = m_view->font();
    bold.setBold(true);
    return QFontMetrics(bold).averageCharWidth() * 48;
}

void ColumnFitter::fitHeaders() {
    if (!m_view || widthsAreTheUsers())
        return;
    QHeaderView* header = m_view->horizontalHeader();
    m_resizing = true;
    for (int column = 0; column < header->count(); ++column)
        header->resizeSection(column, std::max(header->sectionSize(column), header->sectionSizeHint(column)));
    m_resizing = false;
}

void ColumnFitter::keepWideEnough(int column) {
    m_namingColumn = column;
    if (m_view)
        connect(m_view->verticalScrollBar(), &QScrollBar::valueChanged, this,
                &ColumnFitter::widenNamingColumn);
    widenNamingColumn();
}

ColumnFitter* ColumnFitter::of(const QTableView* view) {
    return view ? view->findChild<ColumnFitter*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void ColumnFitter::widenNamingColumn() {
    if (!m_view || m_namingColumn < 0 || m_view->isColumnHidden(m_namingColumn) || !m_view->model() ||
        m_view->model()->rowCount() == 0)
        return;
    QHeaderView* header = m_view->horizontalHeader();
    const auto* view = static_cast<const QAbstractItemView*>(m_view.data());
    const int wanted = std::min(view->sizeHintForColumn(m_namingColumn), maxColumnWidth());
    if (header->sectionSize(m_namingColumn) >= wanted)
        return;
    m_resizing = true;
    header->resizeSection(m_namingColumn, wanted);
    m_resizing = false;
}

void ColumnFitter::modelChanged() {
    if (!m_view || !m_view->model() || m_view->model()->rowCount() == 0)
        return;
    // Once the rows are laid out, whoever chose the widths.
    QTimer::singleShot(0, this, &ColumnFitter::widenNamingColumn);
    if (widthsAreTheUsers())
        return;
    fitHeaders();
    // Once the rows are laid out (a model reset is seen by the view after this slot).
    QTimer::singleShot(0, this, [this] {
        if (!widthsAreTheUsers())
            fit();
    });
}

void ColumnFitter::rowsChanged(int first, int last) {
    if (!m_fitted || widthsAreTheUsers()) {
        modelChanged();
        return;
    }
    // Widths fitted to the first rows grow (never shrink) to what arrives later: a run first seen
    // QUEUED has no start time yet, and "Queued" is shorter than "Succeeded".
    QTimer::singleShot(0, this, [this, first, last] {
        if (!widthsAreTheUsers())
            widenTo(first, last);
    });
}

void ColumnFitter::widenTo(int first, int last) {
    if (!m_view || !m_view->model())
        return;
    // The changed rows alone, and few of them: a tick of every active run's Elapsed is measured cheaply.
    last = std::min({last, first + 63, m_view->model()->rowCount() - 1});
    QHeaderView* header = m_view->horizontalHeader();
    const int cap = maxColumnWidth();
    m_resizing = true;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column) || header->sectionResizeMode(column) != QHeaderView::Interactive)
            continue;
        int wanted = 0;
        for (int row = first; row <= last; ++row)
            wanted = std::max(wanted, m_view->sizeHintForIndex(m_view->model()->index(row, column)).width());
        // As QTableView::sizeHintForColumn: the grid line is drawn inside the section.
        wanted = std::min(wanted + (m_view->showGrid() ? 1 : 0), cap);
        if (header->sectionSize(column) < wanted)
            header->resizeSection(column, wanted);
    }
    m_resizing = false;
}

void ColumnFitter::fit() {
    if (!m_view)
        return;
    QHeaderView* header = m_view->horizontalHeader();
    const int cap = maxColumnWidth();
    m_resizing = true;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column))
            continue;
        // Public in QAbstractItemView (QTableView's override is protected).
        const int content = static_cast<const QAbstractItemView*>(m_view.data())->sizeHintForColumn(column);
        const int wanted = std::max(header->sectionSizeHint(column), std::min(content, cap));
        header->resizeSection(column, wanted);
    }
    m_resizing = false;
    m_fitted = true;
}

} // namespace jobdeck
