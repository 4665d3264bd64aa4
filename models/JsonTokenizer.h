#pragma once

#include <QStringView>

#include <vector>

namespace jobdeck {

// Splits one line of (pretty-printed) JSON into the tokens a highlighter colours. A string followed
// by ':' on the same line is a Key. Malformed input never stops the scan: an unterminated string runs
// to the end of the line, and a character that starts no token is an Error token of length 1.
// Whitespace is not a token.
class JsonTokenizer final {
public:
    enum class Kind { Key, String, Number, Literal, Punctuation, Error };
    struct Token {
        Kind kind;
        qsizetype start;
        qsizetype length;
        bool operator==(const Token&) const = default;
    };

    static std::vector<Token> tokenize(QStringView line);
};

} // namespace jobdeck
