#include "widgets/StatusDotsDelegate.h"

#include "models/RunsTableModel.h"

#include <QApplication>
#include <QPainter>

namespace jobdeck {

namespace {
constexpr int kDiameter = 9;
constexpr int kGap = 4;
} // namespace

StatusDotsDelegate::StatusDotsDelegate(int rawDataRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_role(rawDataRole) {}

void StatusDotsDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const {
    // Background and selection as for any cell, without text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const QVariantList statuses = index.data(m_role).toList();
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    int x = option.rect.left() + kGap;
    const int y = option.rect.center().y() - kDiameter / 2;
    for (auto it = statuses.crbegin(); it != statuses.crend(); ++it) {
        if (x + kDiameter > option.rect.right())
            break;
        painter->setBrush(RunsTableModel::statusColor(static_cast<JobRunStatus>(it->toInt())));
        painter->drawEllipse(QRect(x, y, kDiameter, kDiameter));
        x += kDiameter + kGap;
    }
    painter->restore();
}

QSize StatusDotsDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    const QSize base = QStyledItemDelegate::sizeHint(option, index);
    return {kGap + 10 * (kDiameter + kGap), std::max(base.height(), kDiameter + 4)};
}

} // namespace jobdeck
