#include "widgets/JsonHighlighter.h"

#include "models/ThemeColors.h"

namespace jobdeck {

JsonHighlighter::JsonHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {}

QTextCharFormat JsonHighlighter::formatFor(JsonTokenizer::Kind kind) {
    QTextCharFormat f;
    switch (kind) {
    case JsonTokenizer::Kind::Key:
        f.setForeground(ThemeColors::color(ThemeColor::JsonKey));
        f.setFontWeight(QFont::Bold);
        break;
    case JsonTokenizer::Kind::String:
        f.setForeground(ThemeColors::color(ThemeColor::JsonString));
        break;
    case JsonTokenizer::Kind::Number:
        f.setForeground(ThemeColors::color(ThemeColor::JsonNumber));
        break;
    case JsonTokenizer::Kind::Literal:
        f.setForeground(ThemeColors::color(ThemeColor::JsonLiteral));
        f.setFontItalic(true);
        break;
    case JsonTokenizer::Kind::Punctuation:
        f.setForeground(ThemeColors::color(ThemeColor::JsonPunctuation));
        break;
    case JsonTokenizer::Kind::Error:
        f.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        f.setUnderlineColor(ThemeColors::color(ThemeColor::ErrorUnderline));
        break;
    }
    return f;
}

void JsonHighlighter::highlightBlock(const QString& text) {
    for (const auto& token : JsonTokenizer::tokenize(text))
        setFormat(static_cast<int>(token.start), static_cast<int>(token.length), formatFor(token.kind));
}

} // namespace jobdeck
