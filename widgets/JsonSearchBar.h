#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace jobdeck {

// Find in the raw JSON: type to search (case-insensitive), Return / F3 for the next match,
// Shift+Return / Shift+F3 for the previous one, wrapping around; Escape hides the bar.
class JsonSearchBar final : public QWidget {
    Q_OBJECT
public:
    explicit JsonSearchBar(QPlainTextEdit* editor, QWidget* parent = nullptr);

    void activate(); // show, focus, select the text
    void setText(const QString& text);
    bool findNext();
    bool findPrevious();
    // "2 of 5", "No matches"
    QString statusText() const;

private:
    bool find(bool backward);
    void updateCount();

    QPointer<QPlainTextEdit> m_editor;
    QLineEdit* m_edit;
    QLabel* m_status;
};

} // namespace jobdeck
