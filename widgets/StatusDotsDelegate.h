#pragma once

#include "core/wire/SparkJobRun.h"

#include <QColor>
#include <QStyledItemDelegate>

namespace jobdeck {

// Paints a list of run statuses (a QVariantList of JobRunStatus as int, newest first, from the
// model's raw-data role) as coloured dots, oldest on the left. It only paints.
class StatusDotsDelegate final : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit StatusDotsDelegate(int rawDataRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_role;
};

} // namespace jobdeck
