#pragma once

class QDialog;
class QWidget;

namespace jobdeck {

// When `dialog` closes, the keyboard goes to `target` or, when that is gone or hidden, to the window the
// dialog was opened from. Without a window manager, or with one that activates no window when a dialog
// closes, the keyboard would otherwise be nowhere.
void returnFocusWhenClosed(QDialog* dialog, QWidget* target);

// Opens `dialog` (window-modal to its parent), giving the keyboard back to the widget that has it now.
void openReturningFocus(QDialog* dialog);

} // namespace jobdeck
