#include "widgets/FocusReturn.h"

#include <QApplication>
#include <QDialog>
#include <QPointer>

namespace jobdeck {

void openReturningFocus(QDialog* dialog) {
    const QPointer<QWidget> previous = QApplication::focusWidget();
    const QPointer<QWidget> opener = dialog->parentWidget() ? dialog->parentWidget()->window() : nullptr;
    QObject::connect(dialog, &QDialog::finished, dialog, [previous, opener] {
        QWidget* target = previous ? previous.data() : opener.data();
        if (!target || !target->isVisible())
            target = opener.data();
        if (!target)
            return;
        target->window()->activateWindow();
        target->setFocus(Qt::OtherFocusReason);
    });
    dialog->open();
}

} // namespace jobdeck
