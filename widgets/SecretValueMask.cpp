#include "widgets/SecretValueMask.h"

#include <QEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QTextBlock>

#include <algorithm>

namespace jobdeck {

SecretValueMask::SecretValueMask(QPlainTextEdit* edit, RangesOfLine ranges, BackgroundOfLine background)
    : QObject(edit)
    , m_edit(edit)
    , m_ranges(std::move(ranges))
    , m_background(std::move(background)) {
    edit->installEventFilter(this);
    connect(edit, &QPlainTextEdit::cursorPositionChanged, this, [this] {
        if (const int line = m_edit->textCursor().blockNumber(); line != m_cursorLine) {
            m_cursorLine = line;
            m_edit->viewport()->update();
        }
    });
    connect(edit, &QPlainTextEdit::selectionChanged, edit->viewport(), qOverload<>(&QWidget::update));
}

bool SecretValueMask::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_edit && (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut))
        m_edit->viewport()->update();
    return QObject::eventFilter(watched, event);
}

std::vector<SecretValueMask::Hidden> SecretValueMask::hidden() const {
    std::vector<Hidden> found;
    const QTextCursor cursor = m_edit->textCursor();
    const int editing = m_edit->hasFocus() ? cursor.blockNumber() : -1;
    const int bottom = m_edit->viewport()->rect().bottom();
    for (QTextBlock b = m_edit->cursorForPosition(QPoint(0, 0)).block(); b.isValid(); b = b.next()) {
        const QRect top = m_edit->cursorRect(QTextCursor(b));
        if (top.top() > bottom)
            break;
        const std::vector<LineRange>* ranges =
            b.blockNumber() == editing ? nullptr : m_ranges(b.blockNumber());
        if (!ranges)
            continue;
        for (const LineRange& r : *ranges) {
            const int end = std::min(r.start + r.length, b.length() - 1);
            if (r.start >= end)
                continue;
            QTextCursor at(b);
            at.setPosition(b.position() + r.start);
            const QRect from = m_edit->cursorRect(at);
            at.setPosition(b.position() + end);
            const QRect to = m_edit->cursorRect(at);
            const bool selected = cursor.hasSelection() && cursor.selectionStart() < b.position() + end &&
                                  cursor.selectionEnd() > b.position() + r.start;
            found.push_back({QRectF(from.left(), from.top(), to.left() - from.left(), from.height()),
                             end - r.start, b.blockNumber(), selected});
        }
    }
    return found;
}

QList<QRectF> SecretValueMask::hiddenRects() const {
    QList<QRectF> rects;
    for (const Hidden& h : hidden())
        rects << h.rect;
    return rects;
}

void SecretValueMask::paint(QPainter& painter) const {
    const QPalette& palette = m_edit->palette();
    painter.save();
    painter.setFont(m_edit->font());
    for (const Hidden& h : hidden()) {
        painter.setClipRect(h.rect);
        painter.fillRect(h.rect, h.selected ? palette.color(QPalette::Highlight) : m_background(h.line));
        painter.setPen(palette.color(h.selected ? QPalette::HighlightedText : QPalette::PlaceholderText));
        // One bullet in the middle of each character's place, whatever the bullet's own width.
        const qreal place = h.rect.width() / h.characters;
        for (int i = 0; i < h.characters; ++i)
            painter.drawText(QRectF(h.rect.left() + i * place, h.rect.top(), place, h.rect.height()),
                             Qt::AlignCenter, QString(QChar(0x2022)));
    }
    painter.restore();
}

} // namespace jobdeck
