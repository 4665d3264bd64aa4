// The built-in statement highlighter: every token of a statement gets its role's format, positions
// follow UTF-16 across multi-byte text, and an unterminated string marks the rest of the line.
#include "tests/runner/SuiteRegistry.h"
#include "widgets/JobPreviewPanel.h"
#include "widgets/StatementHighlighter.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace jobdeck;
using Role = StatementHighlighter::Role;

namespace {

// The format the highlighter gave the character at `position` of the document's first block.
QTextCharFormat formatAt(const QTextDocument& document, int position) {
    const QTextBlock block = document.firstBlock();
    for (const QTextLayout::FormatRange& range : block.layout()->formats())
        if (position >= range.start && position < range.start + range.length)
            return range.format;
    return {};
}

bool hasRole(const QTextDocument& document, int position, Role role) {
    const QTextCharFormat expected = StatementHighlighter::formatFor(role);
    const QTextCharFormat actual = formatAt(document, position);
    return actual.foreground() == expected.foreground() && actual.fontWeight() == expected.fontWeight() &&
           actual.underlineStyle() == expected.underlineStyle();
}

} // namespace

class TestStatementHighlighter final : public QObject {
    Q_OBJECT

private slots:
    void colorsEveryTokenByItsRole() {
        QTextDocument document;
        StatementHighlighter highlighter(&document);
        const QString text =
            QStringLiteral("CREATE JOB `nächste` TYPE = 'PYTHON' PARAMETERS = ('/app.py') CLUSTER = 'c' "
                           "MAX_CONCURRENT_RUNS = 3");
        document.setPlainText(text);
        highlighter.rehighlight(); // a document without a view is not laid out, so not highlighted by itself
        QVERIFY(hasRole(document, text.indexOf("CREATE"), Role::Keyword));
        QVERIFY(hasRole(document, text.indexOf("`n") + 2, Role::Name)); // inside the back-quoted name
        QVERIFY(hasRole(document, text.indexOf("'PYTHON'") + 1, Role::String));
        // After the two-byte 'ä': positions are UTF-16, not bytes.
        QVERIFY(hasRole(document, text.indexOf("TYPE"), Role::Keyword));
        QVERIFY(hasRole(document, text.indexOf('('), Role::Punctuation));
        QVERIFY(hasRole(document, text.indexOf('3'), Role::Number));
        QVERIFY(!hasRole(document, text.indexOf("CREATE"), Role::Name));
    }

    void anUnterminatedStringMarksTheRestOfTheLine() {
        QTextDocument document;
        StatementHighlighter highlighter(&document);
        const QString text = QStringLiteral("DESCRIBE JOB j1 'open");
        document.setPlainText(text);
        highlighter.rehighlight(); // a document without a view is not laid out, so not highlighted by itself
        QVERIFY(hasRole(document, text.indexOf("DESCRIBE"), Role::Keyword));
        QVERIFY(hasRole(document, text.indexOf("j1"), Role::Name));
        QVERIFY(hasRole(document, text.size() - 1, Role::Error));
    }

    void thePreviewHighlightsItsStatement() {
        JobPreviewPanel panel;
        auto* statement = panel.findChild<QPlainTextEdit*>(QStringLiteral("statementPreview"));
        QVERIFY(statement);
        QVERIFY(statement->document()->findChild<QSyntaxHighlighter*>() != nullptr);
    }
};

JOBDECK_TEST_MAIN(TestStatementHighlighter)
#include "tst_statementhighlighter.moc"
