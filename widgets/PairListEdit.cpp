#include "widgets/PairListEdit.h"

#include "widgets/SecretValueMask.h"

#include <QPainter>
#include <QTextBlock>

namespace jobdeck {

PairListEdit::PairListEdit(QWidget* parent)
    : QPlainTextEdit(parent)
    , m_mask(new SecretValueMask(
          this,
          [this](int line) -> const std::vector<LineRange>* {
              return line >= 0 && std::size_t(line) < m_secrets.size() ? &m_secrets[std::size_t(line)]
                                                                       : nullptr;
          },
          [this](int) { return palette().color(QPalette::Base); })) {
    // Monospace, as the parameter editor: a hidden value's width tells its length only.
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    setFont(mono);
    connect(document(), &QTextDocument::contentsChanged, this, &PairListEdit::findSecrets);
}

void PairListEdit::findSecrets() {
    m_secrets.clear();
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        m_secrets.push_back(secretValuesOfPairLine(b.text().toStdString()));
}

QList<QRectF> PairListEdit::hiddenSecretRects() const {
    return m_mask->hiddenRects();
}

void PairListEdit::paintEvent(QPaintEvent* event) {
    QPlainTextEdit::paintEvent(event);
    QPainter painter(viewport());
    m_mask->paint(painter);
}

} // namespace jobdeck
