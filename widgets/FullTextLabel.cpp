#include "widgets/FullTextLabel.h"

#include <QEvent>
#include <QResizeEvent>
#include <algorithm>

namespace jobdeck {

FullTextLabel::FullTextLabel(QWidget* parent)
    : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
}

int FullTextLabel::neededHeight(int width) const {
    return text().isEmpty() ? 0 : heightForWidth(std::max(width, 1));
}

QSize FullTextLabel::minimumSizeHint() const {
    const QSize base = QLabel::minimumSizeHint();
    // Before the first layout the width is not known yet: the preferred width's height.
    const int width = testAttribute(Qt::WA_Resized) || isVisible() ? this->width() : sizeHint().width();
    return {base.width(), std::max(base.height(), neededHeight(width))};
}

bool FullTextLabel::showsAllText() const {
    return height() >= neededHeight(width());
}

void FullTextLabel::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    const int needed = neededHeight(event->size().width());
    if (needed != m_neededHeight) {
        m_neededHeight = needed;
        updateGeometry(); // the layout reads minimumSizeHint() again
    }
}

void FullTextLabel::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        updateGeometry();
}

} // namespace jobdeck
