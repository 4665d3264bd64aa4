#include "widgets/LineNumberArea.h"

#include "widgets/ParameterEditor.h"

#include <QMouseEvent>

namespace jobdeck {

LineNumberArea::LineNumberArea(ParameterEditor* editor)
    : QWidget(editor)
    , m_editor(editor) {
    setObjectName(QStringLiteral("lineNumberArea"));
}

QSize LineNumberArea::sizeHint() const {
    return {m_editor->lineNumberAreaWidth(), 0};
}

void LineNumberArea::paintEvent(QPaintEvent* event) {
    m_editor->paintLineNumberArea(event);
}

void LineNumberArea::mousePressEvent(QMouseEvent* event) {
    // A click on a line's dot offers its fixes, like the lightbulb of an IDE.
    m_editor->showFixMenuAt(event->position().toPoint());
}

} // namespace jobdeck
