#include "widgets/PairListEdit.h"

#include "core/parameters/SecretMasking.h"
#include "widgets/SecretValueMask.h"

#include <QPainter>
#include <QTextBlock>

namespace jobdeck {

namespace {

// The secret values of one "key=value" line, as the dialog reads it (key and value trimmed).
std::vector<LineRange> secretsOfLine(const QString& line) {
    const qsizetype eq = line.indexOf(QLatin1Char('='));
    if (eq <= 0)
        return {};
    qsizetype valueStart = eq + 1;
    while (valueStart < line.size() && line[valueStart].isSpace())
        ++valueStart;
    const std::string key = line.left(eq).trimmed().toStdString();
    const std::string value = line.mid(valueStart).trimmed().toStdString();
    std::vector<LineRange> ranges;
    for (const auto& [offset, length] : pairSecretRanges(key, value)) {
        // UTF-8 offsets of the value -> UTF-16 offsets of the line.
        const auto start = QString::fromStdString(value.substr(0, offset)).size();
        const auto size = QString::fromStdString(value.substr(offset, length)).size();
        ranges.push_back({int(valueStart + start), int(size)});
    }
    return ranges;
}

} // namespace

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
        m_secrets.push_back(secretsOfLine(b.text()));
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
