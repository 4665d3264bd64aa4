#pragma once

#include <QList>
#include <QObject>

class QAction;
class QMainWindow;
class QShortcut;

namespace jobdeck {

// The shortcuts of the actions that work on the selected job, while no job is selected. Those actions
// are disabled then and Qt drops their keys, so Ctrl+R with nothing selected did nothing: the key now
// says in the status bar why it does nothing.
class SelectionShortcutHints final : public QObject {
    Q_OBJECT

public:
    SelectionShortcutHints(QMainWindow* window, const QList<QAction*>& actions);
    // The hints answer the keys only while no job is selected (the actions answer them otherwise).
    void setJobSelected(bool selected);

private:
    QList<QShortcut*> m_shortcuts;
};

} // namespace jobdeck
