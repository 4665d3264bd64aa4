#include "widgets/JsonHighlighter.h"

namespace jobdeck {

JsonHighlighter::JsonHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {}

QTextCharFormat JsonHighlighter::formatFor(JsonTokenizer::Kind kind) {
    QTextCharFormat f;
    switch (kind) {
    case JsonTokenizer::Kind::Key:
        f.setForeground(QColor(0x88, 0x1f, 0x8a));
        f.setFontWeight(QFont::Bold);
        break;
    case JsonTokenizer::Kind::String:
        f.setForeground(QColor(0x1a, 0x7f, 0x37));
        break;
    case JsonTokenizer::Kind::Number:
        f.setForeground(QColor(0x0b, 0x5c, 0xad));
        break;
    case JsonTokenizer::Kind::Literal:
        f.setForeground(QColor(0xb3, 0x5a, 0x00));
        f.setFontItalic(true);
        break;
    case JsonTokenizer::Kind::Punctuation:
        f.setForeground(QColor(0x6a, 0x73, 0x7d));
        break;
    case JsonTokenizer::Kind::Error:
        f.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        f.setUnderlineColor(Qt::red);
        break;
    }
    return f;
}

void JsonHighlighter::highlightBlock(const QString& text) {
    for (const auto& token : JsonTokenizer::tokenize(text))
        setFormat(static_cast<int>(token.start), static_cast<int>(token.length), formatFor(token.kind));
}

} // namespace jobdeck
