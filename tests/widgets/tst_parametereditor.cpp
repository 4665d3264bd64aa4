#include "core/hudi/HudiConfigExplanation.h"
#include "core/parameters/ParameterTextForms.h"
#include "models/ParameterCompletionModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "widgets/LineNumberArea.h"
#include "widgets/PairListEdit.h"
#include "widgets/ParameterEditor.h"
#include "widgets/ParameterHighlighter.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QCompleter>
#include <QDir>
#include <QHelpEvent>
#include <QMenu>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>
#include <QToolTip>

#include <algorithm>

using namespace jobdeck;
using Style = ParameterHighlighter::Style;

using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;

namespace {

using Params = std::vector<std::string>;

// The count_transactions example of seed 000 and the position-matters example.
const Params kCountTransactions = {"--class",
                                   "com.example.MySparkApp",
                                   "--hudi-conf",
                                   "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                                   "--hudi-conf",
                                   "hoodie.datasource.hive_sync.database=analytics",
                                   "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"};
const Params kPositionMatters = {
    "--class",     "Foo",        "--hudi-conf", "hoodie.a=b", "s3://bucket/app.jar",
    "--hudi-conf", "hoodie.c=d", "arg1"};

ProjectSettings allowing(std::vector<std::string> allowlist) {
    ProjectSettings s;
    s.hudiConfigsEnabled = true;
    s.hudiConfigAllowlist = std::move(allowlist);
    return s;
}

ValidationContext context(ProjectSettings settings, ValidationContext::Mode mode) {
    ValidationContext c;
    c.settings = std::move(settings);
    c.mode = mode;
    return c;
}

// The format the highlighter left at a column of a line (from the block's layout, as painted).
QTextCharFormat formatAt(const ParameterEditor& editor, int line, int column) {
    const QTextBlock block = editor.document()->findBlockByNumber(line);
    for (const QTextLayout::FormatRange& r : block.layout()->formats())
        if (column >= r.start && column < r.start + r.length)
            return r.format;
    return {};
}

bool hasStyle(const ParameterEditor& editor, int line, int column, Style style) {
    const QTextCharFormat f = formatAt(editor, line, column);
    const QTextCharFormat& want = editor.highlighter()->format(style);
    return f.foreground() == want.foreground() && f.background() == want.background() &&
           f.fontItalic() == want.fontItalic() && f.fontStrikeOut() == want.fontStrikeOut();
}

bool underlined(const ParameterEditor& editor, int line, Style style) {
    const QTextCharFormat f = formatAt(editor, line, 0);
    return f.underlineStyle() == QTextCharFormat::WaveUnderline &&
           f.underlineColor() == editor.highlighter()->format(style).underlineColor();
}

} // namespace

class TstParameterEditor final : public QObject {
    Q_OBJECT
private slots:
    void highlightsCountTransactions();
    void highlightsPositionMattersAndDrawsBoundary();
    void tooltipsForMisplacedPairAndError();
    void tooltipThroughHelpEvent();
    void notAppliedKeysAreMarked();
    void pasteConvertsEachForm_data();
    void pasteConvertsEachForm();
    void quickFixesApplyAndUndo_data();
    void quickFixesApplyAndUndo();
    void fixMenuOffersLineFixes();
    void completionOffersCatalogueKeys();
    void completionOffersEnumValuesAndOptions();
    void spaceAfterAnOptionStartsValueLine_data();
    void spaceAfterAnOptionStartsValueLine();
    void nextDiagnosticAndRefusalMapping();
    void malformedLineIsReportedNotFatal();
    void editsRecheckLikeAFreshRead();
    void hidesSecretValuesOffTheEditedLine();
    void pairListHidesSecretValues();
    void screenshot();
};

void TstParameterEditor::highlightsCountTransactions() {
    ParameterEditor editor;
    ValidationContext ctx;
    ctx.settings = allowing({"hoodie.datasource.meta.sync."});
    editor.setValidationContext(ctx);
    editor.setParameters(kCountTransactions);
    QCOMPARE(editor.parameters(), kCountTransactions);
    QVERIFY(hasStyle(editor, 0, 0, Style::OptionName));
    QVERIFY(hasStyle(editor, 1, 3, Style::OptionValue));
    QVERIFY(hasStyle(editor, 2, 0, Style::OptionName));
    // key, '=' and value of an allowed pair
    const QString pair = editor.document()->findBlockByNumber(3).text();
    const int eq = int(pair.indexOf(QLatin1Char('=')));
    QVERIFY(hasStyle(editor, 3, 0, Style::HudiKey));
    QVERIFY(hasStyle(editor, 3, eq - 1, Style::HudiKey));
    QVERIFY(hasStyle(editor, 3, eq, Style::PairSeparator));
    QVERIFY(hasStyle(editor, 3, eq + 1, Style::HudiValue));
    QCOMPARE(editor.hudiStatusAtLine(3), std::optional(HudiConfigStatus::Applied));
    // hive_sync.database is outside the allow-list: marked as not applied, and CREATE refuses it.
    QVERIFY(hasStyle(editor, 5, 0, Style::NotApplied));
    QCOMPARE(editor.hudiStatusAtLine(5), std::optional(HudiConfigStatus::NotAllowed));
    QVERIFY(underlined(editor, 5, Style::Error));
    QVERIFY(hasStyle(editor, 6, 0, Style::ApplicationPath));
    QCOMPARE(editor.applicationPathLine(), 6);
    QVERIFY(!underlined(editor, 3, Style::Error));
}

void TstParameterEditor::highlightsPositionMattersAndDrawsBoundary() {
    ParameterEditor editor;
    editor.resize(600, 400);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.setValidationContext(context(allowing({"hoodie.a"}), ValidationContext::Mode::Create));
    editor.setParameters(kPositionMatters);
    QVERIFY(hasStyle(editor, 0, 0, Style::OptionName));
    QVERIFY(hasStyle(editor, 1, 0, Style::OptionValue));
    QVERIFY(hasStyle(editor, 2, 0, Style::OptionName));
    QVERIFY(hasStyle(editor, 3, 0, Style::HudiKey));
    QVERIFY(hasStyle(editor, 3, 8, Style::PairSeparator));
    QVERIFY(hasStyle(editor, 3, 9, Style::HudiValue));
    QVERIFY(hasStyle(editor, 4, 0, Style::ApplicationPath));
    QVERIFY(hasStyle(editor, 5, 0, Style::MisplacedHudiConf));
    QVERIFY(hasStyle(editor, 6, 0, Style::MisplacedHudiConf));
    QVERIFY(hasStyle(editor, 7, 0, Style::ApplicationArgument));
    QCOMPARE(formatAt(editor, 7, 0).background().color(), ParameterHighlighter::argumentZoneColor());
    QVERIFY(formatAt(editor, 6, 0).fontItalic());
    // The misplaced pair is an application argument and carries the validator's warning underline.
    QVERIFY2(underlined(editor, 6, Style::Warning), qPrintable(editor.toolTipForLine(6)));
    const std::vector<ClassifiedToken>& tokens = editor.classified().tokens;
    QCOMPARE(std::count_if(tokens.begin(), tokens.end(),
                           [](const ClassifiedToken& t) { return t.cls == TokenClass::HudiConfPair; }),
             std::ptrdiff_t(1));

    // The boundary runs along the bottom of the path's line: below line 4's text, at or above line 5's top.
    const int y = editor.boundaryLineY();
    const QRect path = editor.cursorRect(QTextCursor(editor.document()->findBlockByNumber(4)));
    const QRect after = editor.cursorRect(QTextCursor(editor.document()->findBlockByNumber(5)));
    QVERIFY2(y >= path.bottom() - 1 && y <= after.top() + 1,
             qPrintable(QStringLiteral("y=%1 path=%2 next=%3").arg(y).arg(path.bottom()).arg(after.top())));
    // And it is painted: the pixel row at y has the boundary colour.
    const QImage image = editor.viewport()->grab().toImage();
    const QColor painted =
        image.pixelColor(image.width() / 4, y * image.height() / editor.viewport()->height());
    QCOMPARE(painted, QColor(0xbf, 0x36, 0x0c));
    // Moving the path down moves the boundary.
    editor.setParameters(
        {"--class", "Foo", "--hudi-conf", "hoodie.a=b", "--verbose", "s3://bucket/app.jar", "x"});
    QCOMPARE(editor.applicationPathLine(), 5);
    QVERIFY(editor.boundaryLineY() > y);
    editor.setParameters({"--class", "Foo"});
    QCOMPARE(editor.boundaryLineY(), -1);
}

void TstParameterEditor::tooltipsForMisplacedPairAndError() {
    ParameterEditor editor;
    editor.setValidationContext(context(allowing({"hoodie.a"}), ValidationContext::Mode::Create));
    editor.setParameters(kPositionMatters);
    // The misplaced pair is explained in core's words, once, on the flag's line and the pair's.
    const QString sentence = QString::fromStdString(misplacedHudiConfigMessage("hoodie.c"));
    const QString misplaced = editor.toolTipForLine(6);
    QVERIFY2(misplaced.count(sentence) == 1, qPrintable(misplaced));
    QVERIFY2(editor.toolTipForLine(5).count(sentence) == 1, qPrintable(editor.toolTipForLine(5)));
    QVERIFY(editor.toolTipForLine(3).contains(QStringLiteral("APPLIED")));
    QVERIFY(editor.toolTipForLine(3).contains(
        QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::Applied))));

    editor.setParameters({"--hudi-conf", "spark.foo=1", "s3://bucket/app.jar"});
    const QString error = QStringLiteral(
        "--hudi-conf only accepts hoodie.* keys, got 'spark.foo'. Use --conf for Spark configs.");
    QVERIFY2(editor.toolTipForLine(1).contains(error), qPrintable(editor.toolTipForLine(1)));
    QVERIFY(underlined(editor, 1, Style::Error));

    ParameterEditor off;
    off.setParameters({"--hudi-conf", "hoodie.a=b", "s3://bucket/app.jar"});
    const QString disabled = QStringLiteral("--hudi-conf is not enabled for this organization. Remove the "
                                            "--hudi-conf parameters, or contact Onehouse "
                                            "support to enable Hudi config overrides on Spark jobs.");
    bool found = false;
    for (const Diagnostic& d : off.diagnostics())
        found = found || QString::fromStdString(d.message) == disabled;
    QVERIFY(found);
    QCOMPARE(off.hudiStatusAtLine(1), std::optional(HudiConfigStatus::NotAllowed));
}

void TstParameterEditor::tooltipThroughHelpEvent() {
    ParameterEditor editor;
    editor.resize(600, 400);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.setValidationContext(context(allowing({"hoodie.a"}), ValidationContext::Mode::Create));
    editor.setParameters(kPositionMatters);
    const QRect r = editor.cursorRect(QTextCursor(editor.document()->findBlockByNumber(6)));
    const QPoint pos(r.left() + 4, r.center().y());
    QHelpEvent help(QEvent::ToolTip, pos, editor.viewport()->mapToGlobal(pos));
    QApplication::sendEvent(editor.viewport(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), editor.toolTipForLine(6));
    QToolTip::hideText();
}

void TstParameterEditor::notAppliedKeysAreMarked() {
    ParameterEditor editor;
    ValidationContext ctx = context(allowing({"hoodie.write."}), ValidationContext::Mode::Alter);
    ctx.previousParameters = {"--hudi-conf", "hoodie.write.lock.provider=x", "--hudi-conf", "hoodie.keep=1",
                              "s3://b/app.jar"};
    editor.setValidationContext(ctx);
    editor.setParameters({"--hudi-conf", "hoodie.write.lock.provider=x", "--hudi-conf", "hoodie.keep=1",
                          "--hudi-conf", "hoodie.write.operation=upsert", "s3://b/app.jar"});
    QCOMPARE(editor.hudiStatusAtLine(1), std::optional(HudiConfigStatus::Reserved));
    QCOMPARE(editor.hudiStatusAtLine(3), std::optional(HudiConfigStatus::NotAllowed));
    QCOMPARE(editor.hudiStatusAtLine(5), std::optional(HudiConfigStatus::Applied));
    QVERIFY(hasStyle(editor, 1, 0, Style::NotApplied));
    QVERIFY(hasStyle(editor, 3, 0, Style::NotApplied));
    QVERIFY(hasStyle(editor, 5, 0, Style::HudiKey));
    QVERIFY(editor.toolTipForLine(1).contains(QStringLiteral("RESERVED")));
    QVERIFY(editor.toolTipForLine(3).contains(QStringLiteral("NOT_ALLOWED")));
    // The statuses in core's words, as every other view gives them.
    QVERIFY2(editor.toolTipForLine(1).contains(
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::Reserved))),
             qPrintable(editor.toolTipForLine(1)));
    QVERIFY2(editor.toolTipForLine(3).contains(
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::NotAllowed))),
             qPrintable(editor.toolTipForLine(3)));
    QCOMPARE(editor.hudiStatusAtLine(0), std::nullopt);
}

void TstParameterEditor::pasteConvertsEachForm_data() {
    QTest::addColumn<QString>("pasted");
    QTest::addColumn<int>("form");
    QTest::newRow("json") << QStringLiteral(
                                 "[\"--class\", \"com.example.MySparkApp\", \"--hudi-conf\", "
                                 "\"hoodie.datasource.hive_sync.database=analytics\", \"s3://b/app.jar\"]")
                          << int(ParameterTextForm::JsonArray);
    QTest::newRow("tuple") << QStringLiteral(
                                  "( '--class', 'com.example.MySparkApp',\n  '--hudi-conf', "
                                  "'hoodie.datasource.hive_sync.database=analytics', 's3://b/app.jar' )")
                           << int(ParameterTextForm::StatementTuple);
    QTest::newRow("shell") << QStringLiteral("--class com.example.MySparkApp \\\n  --hudi-conf "
                                             "hoodie.datasource.hive_sync.database=analytics s3://b/app.jar")
                           << int(ParameterTextForm::ShellCommand);
}

void TstParameterEditor::pasteConvertsEachForm() {
    QFETCH(QString, pasted);
    QFETCH(int, form);
    const Params expected = {"--class", "com.example.MySparkApp", "--hudi-conf",
                             "hoodie.datasource.hive_sync.database=analytics", "s3://b/app.jar"};
    ParameterEditor editor;
    editor.setPlainText(QStringLiteral("--verbose"));
    QTextCursor c = editor.textCursor();
    c.movePosition(QTextCursor::End);
    editor.setTextCursor(c);
    QApplication::clipboard()->setText(pasted);
    editor.paste();
    QCOMPARE(editor.lastConvertedPaste(), std::optional(ParameterTextForm(form)));
    Params withVerbose = expected;
    withVerbose.insert(withVerbose.begin(), "--verbose");
    QCOMPARE(editor.parameters(), withVerbose);
    QCOMPARE(editor.toPlainText(),
             QStringLiteral("--verbose\n") +
                 QString::fromStdString(formatParameterText(expected, ParameterTextForm::PerLine)));
    // One undo step takes the whole paste back.
    editor.undo();
    QCOMPARE(editor.toPlainText(), QStringLiteral("--verbose"));
}

void TstParameterEditor::quickFixesApplyAndUndo_data() {
    QTest::addColumn<QStringList>("input");
    QTest::addColumn<QString>("fixTitle");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("move misplaced pair")
        << QStringList{"--class", "Foo", "s3://b/app.jar", "--hudi-conf", "hoodie.c=d", "arg1"}
        << QStringLiteral("Move --hudi-conf hoodie.c before the application path")
        << QStringList{"--class", "Foo", "--hudi-conf", "hoodie.c=d", "s3://b/app.jar", "arg1"};
    QTest::newRow("hoodie key from --conf") << QStringList{"--conf", "hoodie.c=d", "s3://b/app.jar"}
                                            << QStringLiteral("Move hoodie.c to --hudi-conf")
                                            << QStringList{"--hudi-conf", "hoodie.c=d", "s3://b/app.jar"};
    QTest::newRow("split comma pair")
        << QStringList{"--hudi-conf", "hoodie.c=d,hoodie.e=f", "s3://b/app.jar"}
        << QStringLiteral("Split into 2 --hudi-conf pairs")
        << QStringList{"--hudi-conf", "hoodie.c=d", "--hudi-conf", "hoodie.e=f", "s3://b/app.jar"};
    QTest::newRow("hoodie-conf") << QStringList{"--hoodie-conf", "hoodie.c=d", "s3://b/app.jar"}
                                 << QStringLiteral("Replace --hoodie-conf by --hudi-conf")
                                 << QStringList{"--hudi-conf", "hoodie.c=d", "s3://b/app.jar"};
    QTest::newRow("did you mean") << QStringList{"--hudi-conf", "hoodie.datasource.hive_sync.databse=x",
                                                 "s3://b/app.jar"}
                                  << QStringLiteral("Rename to hoodie.datasource.hive_sync.database")
                                  << QStringList{"--hudi-conf", "hoodie.datasource.hive_sync.database=x",
                                                 "s3://b/app.jar"};
}

void TstParameterEditor::quickFixesApplyAndUndo() {
    QFETCH(QStringList, input);
    QFETCH(QString, fixTitle);
    QFETCH(QStringList, expected);
    auto toParams = [](const QStringList& l) {
        Params p;
        for (const QString& s : l)
            p.push_back(s.toStdString());
        return p;
    };
    ParameterEditor editor;
    editor.setValidationContext(context(allowing({"hoodie."}), ValidationContext::Mode::Create));
    // Typed rather than set, so there is a history to undo into; a blank line and padding must come back too.
    const QString original =
        QString::fromStdString(formatParameterText(toParams(input), ParameterTextForm::PerLine))
            .replace(QStringLiteral("\n"), QStringLiteral("  \n\n"));
    editor.setPlainText(QString());
    QTest::keyClicks(&editor, original.left(3));
    editor.insertPlainText(original.mid(3));
    editor.recheckNow();
    QCOMPARE(editor.toPlainText(), original);
    std::optional<Fix> fix;
    QStringList offered;
    for (const Diagnostic& d : editor.diagnostics())
        for (const Fix& f : d.fixes) {
            offered << QString::fromStdString(f.title);
            if (QString::fromStdString(f.title) == fixTitle)
                fix = f;
        }
    QVERIFY2(fix, qPrintable(QStringLiteral("offered: ") + offered.join(QStringLiteral(" | "))));
    editor.applyFix(*fix);
    QCOMPARE(editor.parameters(), toParams(expected));
    editor.undo();
    QCOMPARE(editor.toPlainText(), original);
    editor.recheckNow();
    QCOMPARE(editor.parameters(), toParams(input));
    editor.redo();
    editor.recheckNow();
    QCOMPARE(editor.parameters(), toParams(expected));
}

void TstParameterEditor::fixMenuOffersLineFixes() {
    ParameterEditor editor;
    editor.setValidationContext(context(allowing({"hoodie."}), ValidationContext::Mode::Create));
    editor.setParameters({"--hoodie-conf", "hoodie.c=d", "s3://b/app.jar"});
    QVERIFY(editor.fixMenuForLine(2, &editor) == nullptr);
    QMenu* menu = editor.fixMenuForLine(0, &editor);
    QVERIFY(menu);
    QAction* replace = nullptr;
    for (QAction* a : menu->actions())
        if (a->text() == QStringLiteral("Replace --hoodie-conf by --hudi-conf"))
            replace = a;
    QVERIFY(replace);
    replace->trigger();
    QCOMPARE(editor.parameters(), (Params{"--hudi-conf", "hoodie.c=d", "s3://b/app.jar"}));
    delete menu;
    editor.undo();
    editor.recheckNow();
    QCOMPARE(editor.parameters(), (Params{"--hoodie-conf", "hoodie.c=d", "s3://b/app.jar"}));
}

void TstParameterEditor::completionOffersCatalogueKeys() {
    ParameterEditor editor;
    editor.resize(600, 400);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.setFocus();
    editor.setPlainText(QStringLiteral("--hudi-conf\n"));
    editor.moveCursor(QTextCursor::End);
    QTest::keyClicks(&editor, QStringLiteral("hoodie.datasource.hive_sync.datab"));
    QCOMPARE(editor.completionModel()->mode(), ParameterCompletionModel::Mode::HudiKeys);
    QTRY_VERIFY(editor.completer()->popup()->isVisible());
    QCOMPARE(editor.completer()->currentCompletion(),
             QStringLiteral("hoodie.datasource.hive_sync.database="));
    const QModelIndex current = editor.completer()->popup()->currentIndex();
    QVERIFY(current.data(Qt::DisplayRole)
                .toString()
                .startsWith(QStringLiteral("hoodie.datasource.hive_sync.database")));
    QTest::keyClick(editor.completer()->popup(), Qt::Key_Return);
    QCOMPARE(editor.document()->findBlockByNumber(1).text(),
             QStringLiteral("hoodie.datasource.hive_sync.database="));
    // Ctrl+Space on an option line offers option names.
    editor.moveCursor(QTextCursor::End);
    QTest::keyClick(&editor, Qt::Key_Return);
    QTest::keyClicks(&editor, QStringLiteral("--cl"));
    QTest::keyClick(&editor, Qt::Key_Space, Qt::ControlModifier);
    QCOMPARE(editor.completionModel()->mode(), ParameterCompletionModel::Mode::Options);
    QCOMPARE(editor.completer()->currentCompletion(), QStringLiteral("--class"));
}

void TstParameterEditor::completionOffersEnumValuesAndOptions() {
    ParameterEditor editor;
    editor.resize(600, 400);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    editor.setPlainText(QStringLiteral("--hudi-conf\nhoodie.datasource.write.operation=ups"));
    editor.moveCursor(QTextCursor::End);
    editor.triggerCompletion();
    QCOMPARE(editor.completionModel()->mode(), ParameterCompletionModel::Mode::EnumValues);
    QCOMPARE(editor.completer()->currentCompletion(),
             QStringLiteral("hoodie.datasource.write.operation=upsert"));
    editor.completer()->popup()->hide();
    editor.setPlainText(QStringLiteral("--conf\nspark.seri"));
    editor.moveCursor(QTextCursor::End);
    editor.triggerCompletion();
    QCOMPARE(editor.completionModel()->mode(), ParameterCompletionModel::Mode::SparkKeys);
    QCOMPARE(editor.completer()->currentCompletion(), QStringLiteral("spark.serializer="));
}

// Every spark-submit option that takes a value (its alias too), and --hudi-conf: a space typed after it
// starts the value's line. A switch, an option with its value inline and a value's own blanks stay.
void TstParameterEditor::spaceAfterAnOptionStartsValueLine_data() {
    QTest::addColumn<QString>("typed");
    QTest::addColumn<Params>("parameters");
    QTest::newRow("--hudi-conf") << QStringLiteral("--hudi-conf hoodie.a=b")
                                 << Params{"--hudi-conf", "hoodie.a=b"};
    QTest::newRow("--conf") << QStringLiteral("--conf spark.a=b") << Params{"--conf", "spark.a=b"};
    QTest::newRow("-c") << QStringLiteral("-c spark.a=b") << Params{"-c", "spark.a=b"};
    QTest::newRow("--class") << QStringLiteral("--class com.acme.Etl") << Params{"--class", "com.acme.Etl"};
    QTest::newRow("--driver-memory") << QStringLiteral("--driver-memory 4g")
                                     << Params{"--driver-memory", "4g"};
    QTest::newRow("--name, a value with blanks")
        << QStringLiteral("--name nightly orders") << Params{"--name", "nightly orders"};
    QTest::newRow("--verbose is a switch") << QStringLiteral("--verbose x") << Params{"--verbose x"};
    QTest::newRow("inline value") << QStringLiteral("--class=a b") << Params{"--class=a b"};
    QTest::newRow("an argument") << QStringLiteral("--date 2026-11-30") << Params{"--date 2026-11-30"};
}

void TstParameterEditor::spaceAfterAnOptionStartsValueLine() {
    QFETCH(QString, typed);
    QFETCH(Params, parameters);
    ParameterEditor editor;
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QTest::keyClicks(&editor, typed);
    editor.recheckNow();
    QCOMPARE(editor.parameters(), parameters);
}

void TstParameterEditor::nextDiagnosticAndRefusalMapping() {
    ParameterEditor editor;
    editor.setValidationContext(context(allowing({"hoodie.a"}), ValidationContext::Mode::Create));
    editor.setParameters(
        {"--class", "Foo", "--hudi-conf", "hoodie.a=1", "--hudi-conf", "hoodie.zzz=2", "s3://b/app.jar"});
    const QString refusal =
        QStringLiteral("--hudi-conf keys are not permitted for this organization: hoodie.zzz. "
                       "Remove them, or contact Onehouse support to allow them.");
    // The parameter is the one the service's status names (parameterIndex), whatever the message says.
    QCOMPARE(editor.setServiceRefusal(QStringLiteral("something about 'hoodie.zzz' went wrong"), 3), 3);
    QCOMPARE(editor.setServiceRefusal(refusal, -1), -1);
    QCOMPARE(editor.setServiceRefusal(refusal, 99), -1);
    QCOMPARE(editor.setServiceRefusal(refusal, 5), 5);
    // The refusal matches the editor's own diagnostic of that line: it is listed once, at its line.
    int atLine = 0;
    for (std::size_t i = 0; i < editor.diagnostics().size(); ++i)
        atLine +=
            editor.diagnosticLines()[i] == 5 && editor.diagnostics()[i].message == refusal.toStdString();
    QCOMPARE(atLine, 1);
    QVERIFY(editor.toolTipForLine(5).contains(refusal));
    // F8 visits every line with a diagnostic in order, then wraps.
    std::vector<int> lines;
    for (int l : editor.diagnosticLines())
        if (l >= 0)
            lines.push_back(l);
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    QVERIFY(std::find(lines.begin(), lines.end(), 5) != lines.end());
    editor.moveCursor(QTextCursor::End);
    for (int expected : lines) {
        QTest::keyClick(&editor, Qt::Key_F8);
        QCOMPARE(editor.textCursor().blockNumber(), expected);
    }
    // An edit drops the service's answer: it was about the text as sent.
    editor.moveCursor(QTextCursor::End);
    editor.insertPlainText(QStringLiteral("\nx"));
    editor.recheckNow();
    for (const Diagnostic& d : editor.diagnostics())
        QVERIFY(d.code != "service.refusal");
}

void TstParameterEditor::malformedLineIsReportedNotFatal() {
    ParameterEditor editor;
    editor.setPlainText(QStringLiteral("--class\n\"Foo\n--verbose\ns3://b/app.jar"));
    editor.recheckNow();
    QCOMPARE(editor.parameters(), (Params{"--class", "--verbose", "s3://b/app.jar"}));
    QCOMPARE(editor.tokenAtLine(1), -1);
    QVERIFY(underlined(editor, 1, Style::Error));
    QCOMPARE(editor.diagnosticLines().front(), 1);
    QCOMPARE(editor.diagnostics().front().code, std::string_view("text.line"));
}

// A re-check reads again only the lines edited since the last one: after edits that split, join, insert and
// undo lines, everything it shows must be what a fresh editor reading the same text shows.
void TstParameterEditor::editsRecheckLikeAFreshRead() {
    const ValidationContext ctx = context(allowing({"hoodie.a"}), ValidationContext::Mode::Create);
    ParameterEditor editor;
    editor.setValidationContext(ctx);
    editor.setParameters(kPositionMatters);
    auto compareWithFresh = [&](const char* step) {
        editor.recheckNow();
        ParameterEditor fresh;
        fresh.setValidationContext(ctx);
        fresh.setPlainText(editor.toPlainText());
        fresh.recheckNow();
        QVERIFY2(editor.parameters() == fresh.parameters(), step);
        QVERIFY2(editor.diagnostics() == fresh.diagnostics(), step);
        QVERIFY2(editor.diagnosticLines() == fresh.diagnosticLines(), step);
        QVERIFY2(editor.applicationPathLine() == fresh.applicationPathLine(), step);
        QCOMPARE(editor.blockCount(), fresh.blockCount());
        for (int line = 0; line < editor.blockCount(); ++line) {
            const auto formats = editor.document()->findBlockByNumber(line).layout()->formats();
            QVERIFY2(formats == fresh.document()->findBlockByNumber(line).layout()->formats(),
                     qPrintable(QStringLiteral("%1: line %2").arg(QLatin1String(step)).arg(line)));
            QCOMPARE(editor.toolTipForLine(line), fresh.toolTipForLine(line));
        }
    };
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    QTextCursor c(editor.document()->findBlockByNumber(3));
    c.movePosition(QTextCursor::EndOfBlock);
    editor.setTextCursor(c);
    QTest::keyClicks(&editor, QStringLiteral("x"));
    compareWithFresh("typed in a value");
    // Splitting the path's line in two makes its second half the path and shifts every line below.
    c = QTextCursor(editor.document()->findBlockByNumber(4));
    c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, 5);
    editor.setTextCursor(c);
    QTest::keyClick(&editor, Qt::Key_Return);
    compareWithFresh("split a line");
    QTest::keyClick(&editor, Qt::Key_Backspace);
    compareWithFresh("joined it again");
    // Two edits before one re-check, one of them a multi-line insertion above the path.
    c = QTextCursor(editor.document()->findBlockByNumber(1));
    c.movePosition(QTextCursor::EndOfBlock);
    c.insertText(QStringLiteral("\n--hudi-conf\nhoodie.zzz=1"));
    c = QTextCursor(editor.document()->findBlockByNumber(0));
    c.insertText(QStringLiteral("\"unterminated\n"));
    compareWithFresh("two edits, one re-check");
    c.select(QTextCursor::LineUnderCursor);
    c.removeSelectedText();
    compareWithFresh("removed a line");
    QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
    compareWithFresh("undo");
    editor.selectAll();
    QTest::keyClick(&editor, Qt::Key_Delete);
    compareWithFresh("cleared");
    QTest::keyClick(&editor, Qt::Key_Z, Qt::ControlModifier);
    compareWithFresh("undo clear");
    QCOMPARE(editor.parameters().size(), kPositionMatters.size() + 2);
    // One more --jars above a run of them turns every option into a value and back: each shifted line now
    // has the spans the line before it had, and must still be coloured anew.
    editor.setParameters({"--class", "Foo", "--jars", "--jars", "--jars", "--jars", "--jars", "--jars"});
    c = QTextCursor(editor.document()->findBlockByNumber(2));
    c.insertText(QStringLiteral("--jars\n"));
    compareWithFresh("flipped a run of options and values");
    QVERIFY(hasStyle(editor, 6, 0, Style::OptionName));
    QVERIFY(hasStyle(editor, 7, 0, Style::OptionValue));
}

namespace {

// The editor's picture of `rect` (viewport coordinates).
QImage pictureOf(QPlainTextEdit& editor, const QRectF& rect) {
    return editor.viewport()->grab(rect.toAlignedRect()).toImage();
}

} // namespace

// A secret value is painted over on every line but the one being edited (the cursor's, while the editor
// has the focus): two editors whose secrets differ look the same there, and differ once it is edited.
void TstParameterEditor::hidesSecretValuesOffTheEditedLine() {
    const auto withSecrets = [](const std::string& a, const std::string& b) {
        return Params{"--conf", "spark.jdbc.url=jdbc:postgresql://h/db?password=" + a + "&ssl=1", "app.py",
                      "--api-token", b};
    };
    ParameterEditor editor;
    ParameterEditor other;
    for (ParameterEditor* e : {&editor, &other}) {
        e->resize(600, 300);
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e));
    }
    editor.setParameters(withSecrets("Hunter2", "Tok3nValue"));
    other.setParameters(withSecrets("Xyzzy77", "OtherValue"));
    editor.recheckNow();
    other.recheckNow();
    QCOMPARE(editor.hiddenSecretRects().size(), 2); // without the focus, every line hides its secrets
    const QList<QRectF> rects = editor.hiddenSecretRects();
    QCOMPARE(other.hiddenSecretRects(), rects);
    for (const QRectF& r : rects) {
        QVERIFY(r.width() > 0);
        QCOMPARE(pictureOf(editor, r), pictureOf(other, r));
    }

    // The line being edited shows its value; the others keep theirs hidden.
    editor.activateWindow();
    editor.setFocus();
    QTRY_VERIFY(editor.hasFocus());
    QTextCursor cursor(editor.document()->findBlockByNumber(4));
    editor.setTextCursor(cursor);
    QCOMPARE(editor.hiddenSecretRects(), QList<QRectF>{rects.front()});
    QVERIFY(pictureOf(editor, rects.back()) != pictureOf(other, rects.back()));
    cursor = QTextCursor(editor.document()->findBlockByNumber(1));
    editor.setTextCursor(cursor);
    QCOMPARE(editor.hiddenSecretRects(), QList<QRectF>{rects.back()});
    QCOMPARE(pictureOf(editor, rects.back()), pictureOf(other, rects.back()));
    // What is typed stays as typed.
    QCOMPARE(editor.parameters(), withSecrets("Hunter2", "Tok3nValue"));
}

// The cluster dialog's WITH pairs hide their secret values the same way.
void TstParameterEditor::pairListHidesSecretValues() {
    PairListEdit edit;
    PairListEdit other;
    for (PairListEdit* e : {&edit, &other}) {
        e->resize(600, 200);
        e->show();
        QVERIFY(QTest::qWaitForWindowExposed(e));
    }
    edit.setPlainText(QStringLiteral("spark.executor.memory=4g\nspark.db.password = Hunter2\n"
                                     "spark.jars.repositories=https://ci:Pw9@repo/m2"));
    other.setPlainText(QStringLiteral("spark.executor.memory=4g\nspark.db.password = Xyzzy77\n"
                                      "spark.jars.repositories=https://ci:Zq1@repo/m2"));
    const QList<QRectF> rects = edit.hiddenSecretRects();
    QCOMPARE(rects.size(), 2);
    QCOMPARE(other.hiddenSecretRects(), rects);
    for (const QRectF& r : rects)
        QCOMPARE(pictureOf(edit, r), pictureOf(other, r));
    edit.activateWindow();
    edit.setFocus();
    QTRY_VERIFY(edit.hasFocus());
    edit.setTextCursor(QTextCursor(edit.document()->findBlockByNumber(1)));
    QCOMPARE(edit.hiddenSecretRects(), QList<QRectF>{rects.back()});
    QVERIFY(pictureOf(edit, rects.front()) != pictureOf(other, rects.front()));
}

void TstParameterEditor::screenshot() {
    ParameterEditor editor;
    editor.resize(720, 360);
    editor.setValidationContext(context(allowing({"hoodie.a"}), ValidationContext::Mode::Create));
    editor.setParameters(kPositionMatters);
    editor.show();
    QVERIFY(QTest::qWaitForWindowExposed(&editor));
    const QString path = artifactsDir() + QStringLiteral("/parameter-editor.png");
    QVERIFY(editor.grab().save(path));
    QVERIFY(QImage(path).width() > 0);
}

JOBDECK_TEST_MAIN(TstParameterEditor)
#include "tst_parametereditor.moc"
