#include "models/JsonTokenizer.h"

namespace jobdeck {

namespace {

bool isNumberChar(QChar c) {
    return c.isDigit() || c == u'-' || c == u'+' || c == u'.' || c == u'e' || c == u'E';
}

} // namespace

std::vector<JsonTokenizer::Token> JsonTokenizer::tokenize(QStringView line) {
    std::vector<Token> tokens;
    const qsizetype n = line.size();
    qsizetype i = 0;
    while (i < n) {
        const QChar c = line[i];
        if (c.isSpace()) {
            ++i;
            continue;
        }
        if (c == u'"') {
            qsizetype j = i + 1;
            while (j < n && line[j] != u'"')
                j += line[j] == u'\\' ? 2 : 1;
            j = std::min(j + 1, n);
            qsizetype k = j;
            while (k < n && line[k].isSpace())
                ++k;
            tokens.push_back({k < n && line[k] == u':' ? Kind::Key : Kind::String, i, j - i});
            i = j;
        } else if (c.isDigit() || c == u'-') {
            qsizetype j = i + 1;
            while (j < n && isNumberChar(line[j]))
                ++j;
            tokens.push_back({Kind::Number, i, j - i});
            i = j;
        } else if (c == u'{' || c == u'}' || c == u'[' || c == u']' || c == u':' || c == u',') {
            tokens.push_back({Kind::Punctuation, i, 1});
            ++i;
        } else {
            bool matched = false;
            for (QStringView literal : {QStringView(u"true"), QStringView(u"false"), QStringView(u"null")}) {
                if (line.mid(i).startsWith(literal)) {
                    tokens.push_back({Kind::Literal, i, literal.size()});
                    i += literal.size();
                    matched = true;
                    break;
                }
            }
            if (!matched) {
                tokens.push_back({Kind::Error, i, 1});
                ++i;
            }
        }
    }
    return tokens;
}

} // namespace jobdeck
