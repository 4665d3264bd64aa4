#pragma once

#include "models/JsonTokenizer.h"

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace jobdeck {

// The built-in JSON highlighter (used when KSyntaxHighlighting is not available, as on Debian 12):
// colours the tokens of models/JsonTokenizer.
class JsonHighlighter final : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit JsonHighlighter(QTextDocument* document);

    static QTextCharFormat formatFor(JsonTokenizer::Kind kind);

protected:
    void highlightBlock(const QString& text) override;
};

} // namespace jobdeck
