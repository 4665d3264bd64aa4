#include "widgets/JsonSearchBar.h"

#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QShortcut>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

namespace jobdeck {

JsonSearchBar::JsonSearchBar(QPlainTextEdit* editor, QWidget* parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_edit(new QLineEdit(this))
    , m_status(new QLabel(this)) {
    setObjectName(QStringLiteral("jsonSearchBar"));
    m_edit->setObjectName(QStringLiteral("jsonSearchText"));
    m_edit->setPlaceholderText(tr("Find in JSON"));
    m_edit->setClearButtonEnabled(true);
    m_status->setObjectName(QStringLiteral("jsonSearchStatus"));
    auto* previous = new QToolButton(this);
    previous->setObjectName(QStringLiteral("jsonSearchPrevious"));
    previous->setText(tr("Previous"));
    previous->setToolTip(tr("Previous match (Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setObjectName(QStringLiteral("jsonSearchNext"));
    next->setText(tr("Next"));
    next->setToolTip(tr("Next match (F3)"));
    auto* close = new QToolButton(this);
    close->setText(tr("Close"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status);
    layout->addWidget(close);

    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        // Searching as you type starts from the top of the current match.
        if (m_editor) {
            QTextCursor c = m_editor->textCursor();
            c.setPosition(c.selectionStart());
            m_editor->setTextCursor(c);
        }
        find(false);
    });
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });
    connect(next, &QToolButton::clicked, this, &JsonSearchBar::findNext);
    connect(previous, &QToolButton::clicked, this, &JsonSearchBar::findPrevious);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    auto* f3 = new QShortcut(QKeySequence::FindNext, parent ? parent : this);
    connect(f3, &QShortcut::activated, this, &JsonSearchBar::findNext);
    auto* shiftF3 = new QShortcut(QKeySequence::FindPrevious, parent ? parent : this);
    connect(shiftF3, &QShortcut::activated, this, &JsonSearchBar::findPrevious);
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_edit);
    escape->setContext(Qt::WidgetShortcut);
    connect(escape, &QShortcut::activated, this, &QWidget::hide);
}

void JsonSearchBar::activate() {
    show();
    m_edit->setFocus();
    m_edit->selectAll();
}

void JsonSearchBar::setText(const QString& text) {
    m_edit->setText(text);
}

bool JsonSearchBar::findNext() {
    return find(false);
}
bool JsonSearchBar::findPrevious() {
    return find(true);
}

bool JsonSearchBar::find(bool backward) {
    if (!m_editor)
        return false;
    const QString needle = m_edit->text();
    if (needle.isEmpty()) {
        m_status->clear();
        return false;
    }
    const QTextDocument::FindFlags flags =
        backward ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_editor->find(needle, flags);
    if (!found) {
        // Wrap around.
        QTextCursor c = m_editor->textCursor();
        c.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_editor->setTextCursor(c);
        found = m_editor->find(needle, flags);
    }
    updateCount();
    return found;
}

void JsonSearchBar::updateCount() {
    const QString needle = m_edit->text();
    const QString text = m_editor->toPlainText();
    int total = 0, current = 0;
    const int at = m_editor->textCursor().selectionStart();
    for (qsizetype pos = text.indexOf(needle, 0, Qt::CaseInsensitive); pos >= 0;
         pos = text.indexOf(needle, pos + 1, Qt::CaseInsensitive)) {
        ++total;
        if (pos == at && m_editor->textCursor().hasSelection())
            current = total;
    }
    m_status->setText(total == 0 ? tr("No matches") : tr("%1 of %2").arg(current).arg(total));
}

QString JsonSearchBar::statusText() const {
    return m_status->text();
}

} // namespace jobdeck
