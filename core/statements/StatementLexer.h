#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jobdeck {

enum class TokenKind {
    Word,       // bare name or keyword: [A-Za-z_][A-Za-z0-9_.-]*, or a UUID (8-4-4-4-12 hex digits)
    QuotedName, // `back-quoted name`, text is unquoted
    String,     // 'single-quoted string', text is unquoted
    Number,     // decimal integer, optionally negative; value in `number`
    LeftParen,
    RightParen,
    Comma,
    Equals,
    Semicolon,
    End,
    Error // text is the message (without position); line/column point at the offending character
};

struct Token final {
    TokenKind kind = TokenKind::End;
    std::string text;
    std::int64_t number = 0;
    int line = 1;           // 1-based
    int column = 1;         // 1-based, counted in Unicode code points
    std::size_t offset = 0; // byte offset of the first character
    std::size_t length = 0; // bytes of source text the token spans
};

// Splits statement text into tokens, one at a time, in linear time. It never throws: bad input
// (invalid UTF-8, NUL, unterminated quotes, numbers beyond int64) gives one Error token, and
// every call after an Error or End returns the same token again.
class StatementLexer final {
public:
    explicit StatementLexer(std::string_view text);

    Token next();

    static bool isNameStart(char c);
    static bool isNameChar(char c);

private:
    Token makeToken(TokenKind kind, std::size_t start, int line, int column) const;
    Token error(std::string message, int line, int column, std::size_t offset);
    void advance(std::size_t bytes);
    void skipWhitespace();
    Token lexQuoted(char quote, TokenKind kind);
    Token lexNumber();
    Token lexUnexpected();

    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
    bool m_failed = false;
    Token m_failure;
};

} // namespace jobdeck
