#include "widgets/StatementHighlighter.h"

#include "models/ThemeColors.h"

#include <algorithm>

namespace jobdeck {

StatementHighlighter::StatementHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document) {}

QTextCharFormat StatementHighlighter::formatFor(Role role) {
    QTextCharFormat f;
    switch (role) {
    case Role::Keyword:
        f.setForeground(ThemeColors::color(ThemeColor::OptionName));
        f.setFontWeight(QFont::Bold);
        break;
    case Role::Name:
        f.setForeground(ThemeColors::color(ThemeColor::ConfKey));
        break;
    case Role::String:
        f.setForeground(ThemeColors::color(ThemeColor::JsonString));
        break;
    case Role::Number:
        f.setForeground(ThemeColors::color(ThemeColor::JsonNumber));
        break;
    case Role::Punctuation:
        f.setForeground(ThemeColors::color(ThemeColor::JsonPunctuation));
        break;
    case Role::Error:
        f.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        f.setUnderlineColor(ThemeColors::color(ThemeColor::ErrorUnderline));
        break;
    }
    return f;
}

StatementHighlighter::Role StatementHighlighter::roleOf(const Token& token) {
    switch (token.kind) {
    case TokenKind::Word:
        return std::any_of(token.text.begin(), token.text.end(), [](char c) { return c >= 'a' && c <= 'z'; })
                   ? Role::Name
                   : Role::Keyword;
    case TokenKind::QuotedName:
        return Role::Name;
    case TokenKind::String:
        return Role::String;
    case TokenKind::Number:
        return Role::Number;
    case TokenKind::Error:
        return Role::Error;
    default:
        return Role::Punctuation;
    }
}

void StatementHighlighter::highlightBlock(const QString& text) {
    const QByteArray utf8 = text.toUtf8();
    // The lexer counts bytes; the block counts UTF-16 units.
    const auto position = [&utf8](std::size_t byte) {
        return static_cast<int>(QString::fromUtf8(utf8.left(static_cast<qsizetype>(byte))).size());
    };
    StatementLexer lexer(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
    for (Token token = lexer.next(); token.kind != TokenKind::End; token = lexer.next()) {
        const int start = position(token.offset);
        // An error (an unterminated quote, say) marks the rest of the line.
        const int end =
            token.kind == TokenKind::Error ? int(text.size()) : position(token.offset + token.length);
        setFormat(start, std::max(1, end - start), formatFor(roleOf(token)));
        if (token.kind == TokenKind::Error)
            break;
    }
}

} // namespace jobdeck
