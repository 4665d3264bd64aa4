#pragma once

class QDialog;

namespace jobdeck {

// Opens `dialog` (window-modal to its parent) and, when it closes, gives the keyboard back to the widget
// that had it, or else to the window it was opened from. Without a window manager, or with one that
// activates no window when a dialog closes, the keyboard would otherwise be nowhere.
void openReturningFocus(QDialog* dialog);

} // namespace jobdeck
