#include "widgets/SelectionShortcutHints.h"

#include <QAction>
#include <QMainWindow>
#include <QShortcut>
#include <QStatusBar>

namespace jobdeck {

namespace {
constexpr int kHintMs = 6000;
}

SelectionShortcutHints::SelectionShortcutHints(QMainWindow* window, const QList<QAction*>& actions)
    : QObject(window) {
    for (QAction* action : actions) {
        for (const QKeySequence& keys : action->shortcuts()) {
            auto* shortcut = new QShortcut(keys, window);
            shortcut->setObjectName(action->objectName() + QStringLiteral("Hint"));
            shortcut->setEnabled(false);
            connect(shortcut, &QShortcut::activated, window, [window, action] {
                const QString name = action->text().remove(QLatin1Char('&'));
                window->statusBar()->showMessage(
                    tr("Select a job first: “%1” works on the selected job.").arg(name), kHintMs);
            });
            m_shortcuts.push_back(shortcut);
        }
    }
}

void SelectionShortcutHints::setJobSelected(bool selected) {
    for (QShortcut* shortcut : m_shortcuts)
        shortcut->setEnabled(!selected);
}

} // namespace jobdeck
