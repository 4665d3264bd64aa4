#pragma once

#include <QStyledItemDelegate>

namespace jobdeck {

// Draws cells as QStyledItemDelegate does (long texts elided at the right) and shows the whole text
// as a tooltip over a cell whose text does not fit. A tooltip the model gives wins.
class ElidedTextDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    // The whole text when it does not fit in its cell of `view`, else empty.
    QString toolTipFor(const QAbstractItemView* view, const QModelIndex& index) const;

    bool helpEvent(QHelpEvent* event, QAbstractItemView* view, const QStyleOptionViewItem& option,
                   const QModelIndex& index) override;
};

} // namespace jobdeck
