#pragma once

#include "core/statements/StatementLexer.h"

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace jobdeck {

// The built-in statement highlighter (used when KSyntaxHighlighting is not available, as on Debian 12):
// colours each line by the tokens of core's StatementLexer, so the console reads statements exactly as
// the service does. Upper-case words are keywords, other words and back-quoted names are names.
class StatementHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit StatementHighlighter(QTextDocument* document);

    enum class Role { Keyword, Name, String, Number, Punctuation, Error };
    static QTextCharFormat formatFor(Role role);
    static Role roleOf(const Token& token);

protected:
    void highlightBlock(const QString& text) override;
};

} // namespace jobdeck
