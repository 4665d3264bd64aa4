// What the parameter editor shows for its lines, computed without a widget: the parameters read, the
// diagnostics with their lines, the spans to colour and underline in UTF-16 offsets, and the gutter's marks.
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/ParameterLineAnalysis.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <algorithm>

using namespace jobdeck;

namespace {

using Style = ParameterSpanStyle;

std::vector<ParameterLine> read(const QStringList& texts) {
    std::vector<ParameterLine> lines;
    for (const QString& t : texts)
        lines.push_back(readParameterLine(t.toStdString(), int(t.size())));
    return lines;
}

ParameterLineContext allowing(std::vector<std::string> allowlist) {
    ParameterLineContext c;
    c.validation.settings.hudiConfigsEnabled = true;
    c.validation.settings.hudiConfigAllowlist = std::move(allowlist);
    c.validation.withAdvice = false;
    return c;
}

bool hasCode(const ParameterLineAnalysis& a, std::string_view code, int line) {
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i)
        if (a.diagnostics[i].code == code && a.diagnosticLines[i] == line)
            return true;
    return false;
}

std::vector<Style> stylesOf(const ParameterLineSpans& line) {
    std::vector<Style> styles;
    for (const ParameterSpan& s : line.spans)
        styles.push_back(s.style);
    return styles;
}

} // namespace

class TestParameterLineAnalysis final : public QObject {
    Q_OBJECT

private slots:
    // Where the editor hides a secret value: the ranges maskParameters replaces, in the line's UTF-16
    // offsets (a quoted line's quotes and escapes counted, a non-ASCII character one unit).
    void secretValuesPerLine() {
        const auto lines = read({"--conf", "spark.db.password=pw1", "", "app.py", "--api-token", "tök",
                                 "\"--url=jdbc:x://h/db?password=p w\"", "--date", "2024", "--token="});
        const ParameterLineAnalysis a = analyseParameterLines(lines, allowing({}));
        const auto ranges = [&](int line) { return a.spans[std::size_t(line)].secretValues; };
        QCOMPARE(ranges(1), (std::vector<LineRange>{{18, 3}}));
        QCOMPARE(ranges(5), (std::vector<LineRange>{{0, 3}}));
        QCOMPARE(ranges(6), (std::vector<LineRange>{{30, 3}}));
        for (const int line : {0, 2, 3, 4, 7, 8, 9}) // the empty value of --token= has no range
            QVERIFY2(ranges(line).empty(), qPrintable(QString::number(line)));

        // A finding that quotes a secret shows it as the service's refusal does: ****.
        const ParameterLineAnalysis quoting =
            analyseParameterLines(read({"--db-password=hunter2", "app.py"}), allowing({}));
        QVERIFY(hasCode(quoting, "option.unknown", 0));
        for (const Diagnostic& d : quoting.diagnostics) {
            QVERIFY2(d.message.find("hunter2") == std::string::npos, d.message.c_str());
            for (const Fix& fix : d.fixes)
                QVERIFY2(fix.title.find("hunter2") == std::string::npos, fix.title.c_str());
        }
        QVERIFY(std::any_of(quoting.diagnostics.begin(), quoting.diagnostics.end(), [](const Diagnostic& d) {
            return d.message.find("'--db-password=****'") != std::string::npos;
        }));
    }

    // A cluster's WITH line: key and value trimmed, UTF-16 ranges of the line.
    void secretValuesOfPairLines() {
        const auto of = [](const QString& line) { return secretValuesOfPairLine(line.toStdString()); };
        QCOMPARE(of(QStringLiteral("spark.db.password = hünter2 ")), (std::vector<LineRange>{{20, 7}}));
        QCOMPARE(of(QStringLiteral("spark.r=https://ü:pw@repo/m2")), (std::vector<LineRange>{{18, 2}}));
        QCOMPARE(of(QStringLiteral("spark.executor.memory=4g")), std::vector<LineRange>{});
        QCOMPARE(of(QStringLiteral("=password")), std::vector<LineRange>{});
        QCOMPARE(of(QStringLiteral("spark.db.password=  ")), std::vector<LineRange>{});
    }

    void readsEachLineAndMapsTokensToLines() {
        const auto lines = read({"--class", "", "com.example.App", "  ", "\"s3://b/app one.jar\"", "--date"});
        const ParameterLineAnalysis a = analyseParameterLines(lines, allowing({}));
        QCOMPARE(a.parameters,
                 (std::vector<std::string>{"--class", "com.example.App", "s3://b/app one.jar", "--date"}));
        QCOMPARE(a.tokenLines, (std::vector<int>{0, 2, 4, 5}));
        QCOMPARE(a.lineTokens, (std::vector<int>{0, -1, 1, -1, 2, 3}));
        QCOMPARE(a.lineOfToken(2), 4);
        QCOMPARE(a.lineOfToken(7), -1);
        QCOMPARE(a.classified.applicationPath, 2);
        QVERIFY(lines[4].quoted);
        QCOMPARE(stylesOf(a.spans[4]), std::vector<Style>{Style::ApplicationPath});
        QCOMPARE(a.spans[4].spans[0].start, 0);
        QCOMPARE(a.spans[4].spans[0].length, 20); // the quotes are part of the literal
        QCOMPARE(stylesOf(a.spans[5]), std::vector<Style>{Style::ApplicationArgument});
        QVERIFY(a.diagnostics.empty());
        QCOMPARE(a.lineSeverity, (std::vector<int>(6, -1)));
    }

    // A line that cannot be read is an error on its line; the other lines are still checked, and no fix is
    // offered, since it would rewrite the list without that line.
    void anUnreadableLineIsListedAndBlocksFixes() {
        const auto lines = read(
            {"\"unterminated", "--hudi-conf", "hoodie.a=1", "s3://b/app.jar", "--hudi-conf", "hoodie.a=2"});
        QVERIFY(lines[0].error);
        const ParameterLineAnalysis a = analyseParameterLines(lines, allowing({"hoodie.a"}));
        QVERIFY(a.hasTextErrors);
        QVERIFY(hasCode(a, "text.line", 0));
        // The editor's own codes are diagnostic codes, one descriptor each, like the validator's.
        const DiagnosticDescriptor* textLine = findDiagnosticDescriptor("text.line");
        QVERIFY2(textLine, "text.line has no descriptor");
        QCOMPARE(textLine->severity, Severity::Error);
        QVERIFY(hasCode(a, "hudi-conf.after-path", 5));
        for (const Diagnostic& d : a.diagnostics)
            QVERIFY(d.fixes.empty());
        QCOMPARE(a.lineSeverity[0], int(Severity::Error));
        QCOMPARE(a.lineSeverity[5], int(Severity::Warning));
        QCOMPARE(stylesOf(a.spans[5]), std::vector<Style>{Style::MisplacedHudiConf});
        // Without the broken line the same finding offers its fix.
        const auto clean = read({"--hudi-conf", "hoodie.a=1", "s3://b/app.jar", "--hudi-conf", "hoodie.a=2"});
        const ParameterLineAnalysis b = analyseParameterLines(clean, allowing({"hoodie.a"}));
        QVERIFY(!b.hasTextErrors);
        const auto misplaced =
            std::find_if(b.diagnostics.begin(), b.diagnostics.end(),
                         [](const Diagnostic& d) { return d.code == "hudi-conf.after-path"; });
        QVERIFY(misplaced != b.diagnostics.end());
        QVERIFY(!misplaced->fixes.empty());
    }

    // Key, '=' and value of a pair, in UTF-16 offsets of the line (é is two bytes, one UTF-16 unit).
    void pairSpansAreInUtf16Offsets() {
        const auto lines =
            read({"--conf", "spark.app.name=café", "--hudi-conf", "hoodie.é=1", "s3://b/app.jar"});
        QVERIFY(lines[1].utf16Offsets.empty() == false);
        const ParameterLineAnalysis a = analyseParameterLines(lines, allowing({"hoodie."}));
        QCOMPARE(stylesOf(a.spans[1]),
                 (std::vector<Style>{Style::ConfKey, Style::PairSeparator, Style::ConfValue}));
        const auto& conf = a.spans[1].spans;
        QCOMPARE(conf[0].start, 0);
        QCOMPARE(conf[0].length, 14);
        QCOMPARE(conf[1].start, 14);
        QCOMPARE(conf[2].start, 15);
        QCOMPARE(conf[2].length, 4); // "café": four UTF-16 units, five bytes
        QCOMPARE(stylesOf(a.spans[0]), std::vector<Style>{Style::OptionName});
        QCOMPARE(stylesOf(a.spans[3]),
                 (std::vector<Style>{Style::HudiKey, Style::PairSeparator, Style::HudiValue}));
        QCOMPARE(a.spans[3].spans[0].length, 8);
    }

    // A key outside the allow-list is drawn as not applied and refused, once the settings are known; while
    // they are not, neither (nothing is judged against default settings), and other checks still run.
    void projectChecksWaitForTheSettings() {
        const auto lines = read({"--bogus", "--hudi-conf", "hoodie.index.type=BLOOM", "s3://b/app.jar"});
        ParameterLineContext known = allowing({"hoodie.datasource."});
        const ParameterLineAnalysis a = analyseParameterLines(lines, known);
        QVERIFY(hasCode(a, "hudi-conf.not-permitted.key", 2));
        QCOMPARE(a.spans[2].spans[0].style, Style::NotApplied);
        QCOMPARE(a.spans[2].underlines.size(), std::size_t(1));
        QCOMPARE(a.spans[2].underlines[0].style, Style::Error);
        QCOMPARE(a.spans[2].underlines[0].length, 23);

        ParameterLineContext unknown;
        unknown.settingsKnown = false; // default settings: --hudi-conf off
        unknown.validation.withAdvice = false;
        const ParameterLineAnalysis b = analyseParameterLines(lines, unknown);
        QVERIFY(hasCode(b, "option.unknown", 0));
        for (const Diagnostic& d : b.diagnostics)
            QVERIFY2(!dependsOnProjectSettings(d.code), d.message.c_str());
        QCOMPARE(b.spans[2].spans[0].style, Style::HudiKey);
        QVERIFY(b.spans[2].underlines.empty());
    }

    // A service refusal is listed first after the text errors, on the line of its parameter; an error
    // outranks a warning in the line's underline and gutter mark.
    void serviceRefusalGoesOnItsParameter() {
        const auto lines = read({"--conf", "spark.a=1", "--conf", "spark.a=2", "s3://b/app.jar"});
        ParameterLineContext c = allowing({});
        c.serviceRefusal = Diagnostic{"service.refusal", Severity::Error, "refused here", 1, {}};
        const ParameterLineAnalysis a = analyseParameterLines(lines, c);
        QCOMPARE(a.diagnostics.front().code, std::string_view("service.refusal"));
        QVERIFY2(findDiagnosticDescriptor("service.refusal"), "service.refusal has no descriptor");
        QCOMPARE(a.diagnosticLines.front(), 1);
        QVERIFY(hasCode(a, "conf.duplicate-key", 1));
        QCOMPARE(a.lineSeverity[1], int(Severity::Error));
        QCOMPARE(a.spans[1].underlines.size(), std::size_t(1));
        QCOMPARE(a.spans[1].underlines[0].style, Style::Error);

        // Re-analysing into the same result replaces everything in it.
        ParameterLineAnalysis reused = a;
        analyseParameterLines(read({"s3://b/app.jar"}), allowing({}), reused);
        QCOMPARE(reused.parameters, std::vector<std::string>{"s3://b/app.jar"});
        QVERIFY(reused.diagnostics.empty());
        QCOMPARE(reused.spans.size(), std::size_t(1));
        QCOMPARE(reused.lineSeverity, std::vector<int>{-1});
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestParameterLineAnalysis)
#include "tst_parameterlineanalysis.moc"
