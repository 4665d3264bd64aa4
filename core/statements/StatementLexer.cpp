#include "core/statements/StatementLexer.h"

#include "core/text/AsciiText.h"
#include "core/text/Utf8.h"

#include <cstdio>
#include <limits>

namespace jobdeck {

namespace {

std::string hexByte(unsigned char b) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02X", b);
    return buffer;
}

std::string codePoint(unsigned char b) {
    char buffer[12];
    std::snprintf(buffer, sizeof buffer, "U+%04X", b);
    return buffer;
}

bool isWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isHexDigit(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// 8-4-4-4-12 hex digits at `pos`, not followed by another name character: a run id as RUN JOB
// answers it, which a client may send without back-quotes.
constexpr std::size_t kUuidLength = 36;
bool isUuidAt(std::string_view text, std::size_t pos) {
    if (text.size() - pos < kUuidLength)
        return false;
    for (std::size_t i = 0; i < kUuidLength; ++i) {
        const char c = text[pos + i];
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? c != '-' : !isHexDigit(c))
            return false;
    }
    return pos + kUuidLength == text.size() || !StatementLexer::isNameChar(text[pos + kUuidLength]);
}

} // namespace

StatementLexer::StatementLexer(std::string_view text)
    : m_text(text) {}

bool StatementLexer::isNameStart(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

bool StatementLexer::isNameChar(char c) {
    return isNameStart(c) || isDigit(c) || c == '.' || c == '-';
}

void StatementLexer::advance(std::size_t bytes) {
    for (std::size_t end = m_pos + bytes; m_pos < end; ++m_pos) {
        const auto b = static_cast<unsigned char>(m_text[m_pos]);
        if (b == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((b & 0xC0) != 0x80) {
            ++m_column; // continuation bytes belong to the code point already counted
        }
    }
}

void StatementLexer::skipWhitespace() {
    while (m_pos < m_text.size() && isWhitespace(m_text[m_pos]))
        advance(1);
}

Token StatementLexer::makeToken(TokenKind kind, std::size_t start, int line, int column) const {
    Token token;
    token.kind = kind;
    token.line = line;
    token.column = column;
    token.offset = start;
    token.length = m_pos - start;
    return token;
}

Token StatementLexer::error(std::string message, int line, int column, std::size_t offset) {
    m_failure = Token{};
    m_failure.kind = TokenKind::Error;
    m_failure.text = std::move(message);
    m_failure.line = line;
    m_failure.column = column;
    m_failure.offset = offset;
    m_failed = true;
    return m_failure;
}

Token StatementLexer::next() {
    if (m_failed)
        return m_failure;
    skipWhitespace();
    const std::size_t start = m_pos;
    const int line = m_line;
    const int column = m_column;
    if (m_pos >= m_text.size())
        return makeToken(TokenKind::End, start, line, column);

    const char c = m_text[m_pos];
    const auto single = [&](TokenKind kind) {
        advance(1);
        Token token = makeToken(kind, start, line, column);
        token.text = std::string(1, c);
        return token;
    };
    switch (c) {
    case '(':
        return single(TokenKind::LeftParen);
    case ')':
        return single(TokenKind::RightParen);
    case ',':
        return single(TokenKind::Comma);
    case '=':
        return single(TokenKind::Equals);
    case ';':
        return single(TokenKind::Semicolon);
    case '\'':
        return lexQuoted('\'', TokenKind::String);
    case '`':
        return lexQuoted('`', TokenKind::QuotedName);
    default:
        break;
    }
    // A UUID that starts with a digit is a word (the parser takes it as a run id only), not a bad number.
    const bool uuid = isDigit(c) && isUuidAt(m_text, m_pos);
    if (!uuid && (isDigit(c) || (c == '-' && m_pos + 1 < m_text.size() && isDigit(m_text[m_pos + 1]))))
        return lexNumber();
    if (uuid || isNameStart(c)) {
        while (m_pos < m_text.size() && isNameChar(m_text[m_pos]))
            advance(1);
        Token token = makeToken(TokenKind::Word, start, line, column);
        token.text = std::string(m_text.substr(start, m_pos - start));
        return token;
    }
    return lexUnexpected();
}

Token StatementLexer::lexQuoted(char quote, TokenKind kind) {
    const std::size_t start = m_pos;
    const int line = m_line;
    const int column = m_column;
    advance(1);
    std::string text;
    std::size_t run = m_pos; // start of the bytes not yet copied into `text`
    while (true) {
        if (m_pos >= m_text.size()) {
            return error(kind == TokenKind::String ? "unterminated string: missing closing '"
                                                   : "unterminated back-quoted name: missing closing `",
                         line, column, start);
        }
        const char c = m_text[m_pos];
        if (c == quote) {
            text.append(m_text.substr(run, m_pos - run));
            if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == quote) {
                text.push_back(quote); // doubled quote stands for one
                advance(2);
                run = m_pos;
                continue;
            }
            advance(1);
            break;
        }
        if (c == '\0')
            return error("NUL character is not allowed", m_line, m_column, m_pos);
        if (static_cast<unsigned char>(c) < 0x80) {
            // Fast path over plain ASCII, the bulk of any statement.
            do {
                if (m_text[m_pos] == '\n') {
                    ++m_line;
                    m_column = 1;
                } else {
                    ++m_column;
                }
                ++m_pos;
            } while (m_pos < m_text.size() && m_text[m_pos] != quote && m_text[m_pos] > 0 &&
                     static_cast<unsigned char>(m_text[m_pos]) < 0x80);
            continue;
        }
        const std::size_t length = utf8SequenceLength(m_text, m_pos);
        if (length == 0)
            return error("invalid UTF-8 byte " + hexByte(static_cast<unsigned char>(c)), m_line, m_column,
                         m_pos);
        advance(length);
    }
    Token token = makeToken(kind, start, line, column);
    token.text = std::move(text);
    return token;
}

Token StatementLexer::lexNumber() {
    const std::size_t start = m_pos;
    const int line = m_line;
    const int column = m_column;
    const bool negative = m_text[m_pos] == '-';
    if (negative)
        advance(1);
    // Accumulate the magnitude unsigned so that INT64_MIN, whose magnitude exceeds INT64_MAX, fits.
    const std::uint64_t limit = negative
                                    ? static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1
                                    : static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::uint64_t magnitude = 0;
    bool overflow = false;
    while (m_pos < m_text.size() && isDigit(m_text[m_pos])) {
        const auto digit = static_cast<std::uint64_t>(m_text[m_pos] - '0');
        if (!overflow && magnitude > (limit - digit) / 10)
            overflow = true;
        if (!overflow)
            magnitude = magnitude * 10 + digit;
        advance(1);
    }
    const auto shown = [&](std::size_t end) {
        const std::string_view all = m_text.substr(start, end - start);
        return all.size() > 40 ? std::string(all.substr(0, 40)) + "..." : std::string(all);
    };
    if (m_pos < m_text.size() && isNameChar(m_text[m_pos])) {
        std::size_t end = m_pos;
        while (end < m_text.size() && isNameChar(m_text[end]))
            ++end;
        return error("invalid number " + quoted(shown(end)) + ": numbers are decimal integers", line, column,
                     start);
    }
    if (overflow)
        return error("number " + shown(m_pos) + " is beyond the 64-bit integer range", line, column, start);
    Token token = makeToken(TokenKind::Number, start, line, column);
    token.text = std::string(m_text.substr(start, m_pos - start));
    token.number = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
    return token;
}

Token StatementLexer::lexUnexpected() {
    const auto b = static_cast<unsigned char>(m_text[m_pos]);
    if (b == 0)
        return error("NUL character is not allowed", m_line, m_column, m_pos);
    if (b == '"')
        return error(
            "unexpected character '\"': strings are single-quoted ('...') and names back-quoted (`...`)",
            m_line, m_column, m_pos);
    if (b < 0x20 || b == 0x7F)
        return error("unexpected control character " + codePoint(b), m_line, m_column, m_pos);
    if (b < 0x80)
        return error("unexpected character " + quoted(m_text.substr(m_pos, 1)), m_line, m_column, m_pos);
    const std::size_t length = utf8SequenceLength(m_text, m_pos);
    if (length == 0)
        return error("invalid UTF-8 byte " + hexByte(b), m_line, m_column, m_pos);
    return error("unexpected character " + quoted(m_text.substr(m_pos, length)), m_line, m_column, m_pos);
}

} // namespace jobdeck
