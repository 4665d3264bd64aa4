#include "widgets/FocusReturn.h"

#include <QApplication>
#include <QDialog>
#include <QPointer>

namespace jobdeck {

void returnFocusWhenClosed(QDialog* dialog, QWidget* target) {
    const QPointer<QWidget> wanted = target;
    const QPointer<QWidget> opener = dialog->parentWidget() ? dialog->parentWidget()->window() : nullptr;
    QObject::connect(dialog, &QDialog::finished, dialog, [wanted, opener] {
        QWidget* to = wanted && wanted->isVisible() ? wanted.data() : opener.data();
        if (!to)
            return;
        to->window()->activateWindow();
        to->setFocus(Qt::OtherFocusReason);
    });
}

void openReturningFocus(QDialog* dialog) {
    returnFocusWhenClosed(dialog, QApplication::focusWidget());
    dialog->open();
}

} // namespace jobdeck
