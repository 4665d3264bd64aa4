// Every text a client reads in a status or an error answer of jobdeckd is composed by a core function
// (core/statements, core/wire), once, beside the others: the service passes core's text on and writes
// none of its own. Checked on the sources of service/: a status's or an HTTP error's text is never a
// literal or a concatenation there, and no function of the service that makes a message writes it.
#include "tests/runner/SuiteRegistry.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

// Where a string or character literal that starts at `i` ends (the index past it), raw strings
// included; -1 when none starts there (a ' between digits is a digit separator).
qsizetype literalEnd(const QString& text, qsizetype i) {
    const QChar c = text[i];
    const bool afterWord = i > 0 && (text[i - 1].isLetterOrNumber() || text[i - 1] == '_');
    if (c == 'R' && i + 1 < text.size() && text[i + 1] == '"' && !afterWord) {
        const qsizetype open = text.indexOf('(', i + 2);
        if (open < 0)
            return -1;
        const QString close = ')' + text.mid(i + 2, open - i - 2) + '"';
        const qsizetype at = text.indexOf(close, open);
        return at < 0 ? text.size() : at + close.size();
    }
    if (c != '"' && (c != '\'' || afterWord))
        return -1;
    for (qsizetype j = i + 1; j < text.size(); ++j) {
        if (text[j] == '\\')
            ++j;
        else if (text[j] == c)
            return j + 1;
    }
    return text.size();
}

// The text of a C++ source with its comments blanked (string and character literals kept), so that a
// comment quoting a call is not taken for one.
QString withoutComments(const QString& source) {
    QString text = source;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (const qsizetype end = literalEnd(text, i); end > 0) {
            i = end - 1;
        } else if (text[i] == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
            const bool line = text[i + 1] == '/';
            const qsizetype stop = line ? text.indexOf('\n', i) : text.indexOf(QStringLiteral("*/"), i + 2);
            const qsizetype last = stop < 0 ? text.size() : (line ? stop : stop + 2);
            for (qsizetype j = i; j < last; ++j)
                if (text[j] != '\n')
                    text[j] = ' ';
            i = last - 1;
        }
    }
    return text;
}

// The index just past the bracket closing the one opened at `open` (`(` or `{`), skipping literals; -1
// when it is not closed.
qsizetype closingBracket(const QString& text, qsizetype open) {
    const QChar opening = text[open];
    const QChar closing = opening == '(' ? QChar(')') : QChar('}');
    int depth = 0;
    for (qsizetype i = open; i < text.size(); ++i) {
        if (const qsizetype end = literalEnd(text, i); end > 0) {
            i = end - 1;
            continue;
        }
        if (text[i] == opening)
            ++depth;
        else if (text[i] == closing && --depth == 0)
            return i + 1;
    }
    return -1;
}

// The arguments of a call, from its opening bracket, with what nested brackets hold blanked: a
// literal passed to a core function (a parameter's name) is that function's business.
QString topLevel(const QString& call) {
    QString text = call;
    int depth = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (const qsizetype end = literalEnd(text, i); end > 0) {
            if (depth > 1)
                text.replace(i, end - i, QString(end - i, ' '));
            i = end - 1;
            continue;
        }
        const QChar c = text[i];
        if (c == '(')
            ++depth;
        else if (c == ')')
            --depth;
        else if (depth > 1)
            text[i] = ' ';
    }
    return text;
}

// Whether a call's arguments write text of their own: a string literal, strings joined with + (a +
// outside any literal, where the operands are strings as every argument here is), a string made on
// the spot, or an exception's own text.
bool composesText(const QString& call) {
    const QString args = topLevel(call);
    static const QRegularExpression madeHere(
        QStringLiteral("\\b(std::string|std::format|fmt::format)\\s*\\("));
    return args.contains('"') || args.contains('+') || call.contains(QStringLiteral("what()")) ||
           madeHere.match(args).hasMatch();
}

struct Source final {
    QString path;
    QString code; // comments blanked
};

QList<Source> serviceSources() {
    QList<Source> sources;
    QDirIterator it(QStringLiteral(JOBDECK_SOURCE_DIR "/service"),
                    {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        sources.append({path.mid(QStringLiteral(JOBDECK_SOURCE_DIR "/").size()),
                        withoutComments(QString::fromUtf8(file.readAll()))});
    }
    return sources;
}

QString where(const Source& source, qsizetype at, qsizetype end) {
    const qsizetype line = source.code.left(at).count('\n') + 1;
    return QStringLiteral("%1:%2: %3")
        .arg(source.path)
        .arg(line)
        .arg(source.code.mid(at, end - at).simplified());
}

} // namespace

class TestServiceTexts final : public QObject {
    Q_OBJECT

private slots:
    // The premise of the scans: they read comments as blank and find a call's closing bracket.
    void theScanReadsCallsNotComments() {
        const QString code =
            withoutComments(QStringLiteral("f(\"a)\" + x); // g(\"b\")\n/* h(\"c\") */ k(')');"));
        QVERIFY(!code.contains(QStringLiteral("g(")));
        QVERIFY(!code.contains(QStringLiteral("h(")));
        QCOMPARE(code.mid(0, closingBracket(code, 1)), QStringLiteral("f(\"a)\" + x)"));
        QCOMPARE(closingBracket(code, code.indexOf(QStringLiteral("k(")) + 1),
                 code.indexOf(QStringLiteral("k(")) + 6);
        QVERIFY(composesText(QStringLiteral("(\"Job \" + name)")));
        QVERIFY(composesText(QStringLiteral("(404, \"Not found\")")));
        QVERIFY(composesText(QStringLiteral("(std::string(\"Not found\"))")));
        QVERIFY(composesText(QStringLiteral("(500, e.what())")));
        QVERIFY(composesText(QStringLiteral("(404, std::string(path))")));
        QVERIFY(composesText(QStringLiteral("(jobExistsMessage(name) + \".\")")));
        QVERIFY(!composesText(QStringLiteral("(jobExistsMessage(statement.name))")));
        QVERIFY(!composesText(QStringLiteral("(400, expectedMessage(\"after\", it->second))")));
    }

    // ApiStatus::failed/invalid/refused (a status's errorMessage) and HttpResponse::error (the
    // {"error": ...} of an answer) in service/ get core's text or a text core's checks returned.
    void statusAndErrorTextsComeFromCore() {
        static const QRegularExpression call(
            QStringLiteral("\\b(ApiStatus::(failed|invalid|refused)|HttpResponse::error)\\s*\\("));
        const QList<Source> sources = serviceSources();
        QVERIFY(sources.size() > 100);
        QStringList found;
        int calls = 0;
        for (const Source& source : sources) {
            for (auto it = call.globalMatch(source.code); it.hasNext();) {
                const auto match = it.next();
                const qsizetype open = match.capturedEnd() - 1;
                const qsizetype end = closingBracket(source.code, open);
                QVERIFY2(end > open, qPrintable(where(source, match.capturedStart(), open + 1)));
                ++calls;
                if (composesText(source.code.mid(open, end - open)))
                    found << where(source, match.capturedStart(), end);
            }
        }
        QVERIFY(calls > 40);
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    // What an operator reads of the database (jobdeckd's start, its log, the health reason) is core's
    // too (core/wire/DatabaseFaults): a DatabaseError composes nothing in the service, it passes the
    // database's or the system's own words to a core function.
    void databaseErrorTextsComeFromCore() {
        static const QRegularExpression call(QStringLiteral("\\b(DatabaseError|DatabaseFaultError)\\s*\\("));
        QStringList found;
        int calls = 0;
        for (const Source& source : serviceSources()) {
            for (auto it = call.globalMatch(source.code); it.hasNext();) {
                const auto match = it.next();
                const qsizetype open = match.capturedEnd() - 1;
                const qsizetype end = closingBracket(source.code, open);
                QVERIFY2(end > open, qPrintable(where(source, match.capturedStart(), open + 1)));
                const QString args = source.code.mid(open, end - open);
                if (args.startsWith(QStringLiteral("(const std::string&")))
                    continue; // the class's own constructor
                ++calls;
                if (composesText(args))
                    found << where(source, match.capturedStart(), end);
            }
        }
        QVERIFY(calls > 15);
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    // A run's texts (its message, its queue reason, a launch's error that becomes its message) in
    // service/runs are core's: an end, an assignment of one or a text made for one composes nothing.
    void runTextsComeFromCore() {
        static const QRegularExpression call(
            QStringLiteral("\\b(endRun|std::optional<std::string>|std::optional)\\s*\\("));
        static const QRegularExpression assignment(
            QStringLiteral("\\b(message|queueReason|error)\\s*=(?!=)"));
        QStringList found;
        int seen = 0;
        for (const Source& source : serviceSources()) {
            if (!source.path.startsWith(QStringLiteral("service/runs/")))
                continue;
            for (auto it = call.globalMatch(source.code); it.hasNext();) {
                const auto match = it.next();
                const qsizetype open = match.capturedEnd() - 1;
                const qsizetype end = closingBracket(source.code, open);
                QVERIFY(end > open);
                ++seen;
                if (composesText(source.code.mid(open, end - open)))
                    found << where(source, match.capturedStart(), end);
            }
            for (auto it = assignment.globalMatch(source.code); it.hasNext();) {
                const auto match = it.next();
                const qsizetype end = source.code.indexOf(';', match.capturedEnd());
                QVERIFY(end > 0);
                ++seen;
                // The right-hand side as a call's arguments, so that what nested calls get is theirs.
                if (composesText('(' + source.code.mid(match.capturedEnd(), end - match.capturedEnd()) + ')'))
                    found << where(source, match.capturedStart(), end);
            }
        }
        QVERIFY(seen > 20);
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }

    // A function of the service named for the message it makes (notFoundMessage(), conflictMessage())
    // returns core's: it writes no literal.
    void serviceMessageFunctionsReturnCoreTexts() {
        static const QRegularExpression definition(
            QStringLiteral("\\b(\\w+::)?\\w*[mM]essage\\s*\\([^;{}()]*\\)\\s*(const\\s*)?\\{"));
        QStringList found;
        for (const Source& source : serviceSources()) {
            for (auto it = definition.globalMatch(source.code); it.hasNext();) {
                const auto match = it.next();
                const qsizetype open = match.capturedEnd() - 1;
                const qsizetype end = closingBracket(source.code, open);
                QVERIFY(end > open);
                if (source.code.mid(open, end - open).contains('"'))
                    found << where(source, match.capturedStart(), end);
            }
        }
        QVERIFY2(found.isEmpty(), qPrintable(found.join('\n')));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestServiceTexts)

#include "tst_servicetexts.moc"
