#include "widgets/ElidedTextDelegate.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QHelpEvent>
#include <QStyle>
#include <QToolTip>

namespace jobdeck {

QString ElidedTextDelegate::toolTipFor(const QAbstractItemView* view, const QModelIndex& index) const {
    if (!view || !index.isValid())
        return {};
    QStyleOptionViewItem option;
    option.initFrom(view);
    option.rect = view->visualRect(index);
    initStyleOption(&option, index);
    if (option.text.isEmpty())
        return {};
    const QStyle* style = view->style() ? view->style() : QApplication::style();
    const QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &option, view);
    // The style pads the text inside its rectangle by the focus frame margin on both sides.
    const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, &option, view) + 1;
    const int needed = option.fontMetrics.horizontalAdvance(option.text) + 2 * margin;
    return needed > textRect.width() ? option.text : QString();
}

bool ElidedTextDelegate::helpEvent(QHelpEvent* event, QAbstractItemView* view,
                                   const QStyleOptionViewItem& option, const QModelIndex& index) {
    if (!event || event->type() != QEvent::ToolTip || index.data(Qt::ToolTipRole).isValid())
        return QStyledItemDelegate::helpEvent(event, view, option, index);
    const QString text = toolTipFor(view, index);
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return false;
    }
    QToolTip::showText(event->globalPos(), text, view, view->visualRect(index));
    return true;
}

} // namespace jobdeck
