#include "core/parameters/ParameterTextForms.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <random>

using namespace jobdeck;

namespace {

using Params = std::vector<std::string>;

const ParameterTextForm kForms[] = {ParameterTextForm::JsonArray, ParameterTextForm::StatementTuple,
                                    ParameterTextForm::PerLine, ParameterTextForm::ShellCommand};

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class TestParameterTextForms : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("caseIndex");
        for (int i = 0; i < 9; ++i)
            QTest::newRow(QByteArray::number(i).constData()) << i;
    }

    void roundTrip() {
        QFETCH(int, caseIndex);
        const std::vector<Params> cases = {
            {},
            {"--class", "com.example.MySparkApp", "--hudi-conf",
             "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
             "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"},
            {"--hudi-conf", "hoodie.x1=y1,hoodie.x2=y2", "app.jar", "--date=2026-01-01"},
            {"it's", "say \"hi\"", "back\\slash", "a'b''c", "'", "\""},
            {"", "--name", "", "x", ""},
            {"multi\nline", "tab\there", "cr\r\nlf", "  padded  ", " ", "\"starts with quote"},
            {"Grüße", "日本語", "emoji 🎉", "--conf", "spark.app.name=ñandú"},
            {"spark-submit", "/opt/spark/bin/spark-submit", "$HOME", "`cmd`", "a b", "#comment", "-"},
            {"--driver-java-options", "-Dx=1 -Dy=2", "=", "==", "k=v=w", std::string("nul\x01", 4)},
        };
        const Params& params = cases.at(static_cast<std::size_t>(caseIndex));
        for (const auto form : kForms) {
            const std::string text = formatParameterText(params, form);
            const TextParameters parsed = parseParameterText(text, form);
            QVERIFY2(parsed.ok(), qPrintable(QStringLiteral("%1: %2 in <%3>")
                                                 .arg(parameterTextFormName(form),
                                                      q(parsed.error.value_or("")), q(text))));
            QCOMPARE(parsed.parameters, params);
            QCOMPARE(parsed.ranges.size(), params.size());
            for (const auto& [b, e] : parsed.ranges) {
                QVERIFY(b >= 0 && b <= e && e <= static_cast<int>(text.size()));
            }
        }
    }

    // Any list survives every form, and no text makes a parser crash, hang or report an offset outside it.
    void randomListsAndTexts() {
        const std::vector<std::string> atoms{
            "\"", "'", "\\",  "[", "]", "(",   ")",  ",", " ",       "\n", "\r",
            "\t", "=", "a",   "ü", "🎉", "\\u", "--", "-", "hoodie.", "''", "spark-submit",
            "#",  "$", "\x01"};
        std::mt19937 rng(20261130);
        const auto randomText = [&](int maxAtoms) {
            std::string s;
            for (int n = int(rng() % std::uint32_t(maxAtoms)); n > 0; --n)
                s += atoms[rng() % atoms.size()];
            return s;
        };
        for (int round = 0; round < 3000; ++round) {
            Params params;
            for (int n = int(rng() % 6); n > 0; --n)
                params.push_back(randomText(5));
            const std::string junk = randomText(15);
            for (const auto form : kForms) {
                const TextParameters back = parseParameterText(formatParameterText(params, form), form);
                QVERIFY2(back.ok(), back.error.value_or("").c_str());
                QCOMPARE(back.parameters, params);
                const TextParameters any = parseParameterText(junk, form);
                QVERIFY(any.ok() || (any.errorOffset >= 0 && any.errorOffset <= int(junk.size())));
                QCOMPARE(any.parameters.size(), any.ranges.size());
            }
        }
    }

    void jsonRangesCoverLiterals() {
        const std::string text = " [\"--class\",  \"a\\\"b\" , \"x\"] ";
        const TextParameters p = parseParameterText(text, ParameterTextForm::JsonArray);
        QVERIFY(p.ok());
        QCOMPARE(p.parameters, (Params{"--class", "a\"b", "x"}));
        QCOMPARE(p.ranges.at(0), std::make_pair(2, 11));
        QCOMPARE(text.substr(14, 6), std::string("\"a\\\"b\""));
        QCOMPARE(p.ranges.at(1), std::make_pair(14, 20));
        // 'b' is decoded offset 2 and sits after the escape in the source.
        QCOMPARE(sourceOffsetInToken(text, ParameterTextForm::JsonArray, p.ranges.at(1), 2), 18);
        QCOMPARE(sourceOffsetInToken(text, ParameterTextForm::JsonArray, p.ranges.at(1), 3), 19);
    }

    void jsonFormatLikeTheConsole() {
        // seed 000's console example: an option and its value share a line.
        QCOMPARE(
            formatParameterText({"--class", "com.example.MySparkApp", "--hudi-conf",
                                 "hoodie.datasource.meta.sync.glue.catalogId=123456789012", "--verbose",
                                 "s3://b/app.jar", "--date", "2026-01-01"},
                                ParameterTextForm::JsonArray),
            std::string("[\"--class\", \"com.example.MySparkApp\",\n"
                        " \"--hudi-conf\", \"hoodie.datasource.meta.sync.glue.catalogId=123456789012\",\n"
                        " \"--verbose\",\n"
                        " \"s3://b/app.jar\",\n"
                        " \"--date\", \"2026-01-01\"]"));
        QCOMPARE(formatParameterText({}, ParameterTextForm::JsonArray), std::string("[]"));
    }

    void jsonUnicodeEscapes() {
        const TextParameters p =
            parseParameterText("[\"\\u00fc\\ud83c\\udf89\\n\\t\\/\"]", ParameterTextForm::JsonArray);
        QVERIFY(p.ok());
        QCOMPARE(p.parameters, (Params{"ü🎉\n\t/"}));
    }

    void jsonErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("offset");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("not array") << "{\"a\":1}" << 0 << "JSON array";
        QTest::newRow("unterminated string") << "[\"--class\", \"abc" << 12 << "Unterminated string";
        QTest::newRow("number") << "[\"a\", 1]" << 6 << "Expected a string";
        QTest::newRow("trailing comma") << "[\"a\",]" << 5 << "Expected a string";
        QTest::newRow("missing bracket") << "[\"a\"" << 4 << "closing ]";
        QTest::newRow("missing comma") << "[\"a\" \"b\"]" << 5 << "Expected , or ]";
        QTest::newRow("after bracket") << "[\"a\"] x" << 6 << "after the closing ]";
        QTest::newRow("bad escape") << "[\"a\\qb\"]" << 3 << "Unknown escape";
        QTest::newRow("bad unicode") << "[\"\\u12G4\"]" << 2 << "four hexadecimal";
        QTest::newRow("raw newline") << "[\"a\nb\"]" << 3 << "Line break";
        QTest::newRow("lone surrogate") << "[\"\\ud800\"]" << 2 << "surrogate";
    }

    void jsonErrors() {
        QFETCH(QString, text);
        QFETCH(int, offset);
        QFETCH(QString, messagePart);
        const TextParameters p = parseParameterText(text.toStdString(), ParameterTextForm::JsonArray);
        QVERIFY(!p.ok());
        QCOMPARE(p.errorOffset, offset);
        QVERIFY2(q(*p.error).contains(messagePart), qPrintable(q(*p.error)));
    }

    void tupleForms() {
        const std::string text = "( '--class', 'it''s' ,\n 'x' )";
        const TextParameters p = parseParameterText(text, ParameterTextForm::StatementTuple);
        QVERIFY(p.ok());
        QCOMPARE(p.parameters, (Params{"--class", "it's", "x"}));
        QCOMPARE(p.ranges.at(1), std::make_pair(13, 20));
        QCOMPARE(sourceOffsetInToken(text, ParameterTextForm::StatementTuple, p.ranges.at(1), 3), 18);
        // Without parentheses too (pasted from the middle of a statement).
        const TextParameters bare = parseParameterText("'a', 'b'", ParameterTextForm::StatementTuple);
        QVERIFY(bare.ok());
        QCOMPARE(bare.parameters, (Params{"a", "b"}));
        QCOMPARE(parseParameterText("()", ParameterTextForm::StatementTuple).parameters, Params{});

        const TextParameters open = parseParameterText("( 'a', 'b", ParameterTextForm::StatementTuple);
        QVERIFY(!open.ok());
        QCOMPARE(open.errorOffset, 7);
        QCOMPARE(open.parameters, Params{"a"});
        const TextParameters noClose = parseParameterText("( 'a' ", ParameterTextForm::StatementTuple);
        QVERIFY(!noClose.ok());
        QVERIFY(noClose.error->find("closing )") != std::string::npos);
        const TextParameters noComma = parseParameterText("( 'a' 'b' )", ParameterTextForm::StatementTuple);
        QVERIFY(!noComma.ok());
        QCOMPARE(noComma.errorOffset, 6);
    }

    void perLineRules() {
        const std::string text = "  --class  \r\n\n com.x.App\n\"\"\n\"two\\nlines\"\n\"  pad \"\n";
        const TextParameters p = parseParameterText(text, ParameterTextForm::PerLine);
        QVERIFY(p.ok());
        QCOMPARE(p.parameters, (Params{"--class", "com.x.App", "", "two\nlines", "  pad "}));
        QCOMPARE(p.ranges.at(0), std::make_pair(2, 9));
        QCOMPARE(formatParameterText({"a", "", "b\nc"}, ParameterTextForm::PerLine),
                 std::string("a\n\"\"\n\"b\\nc\""));
        const TextParameters bad = parseParameterText("a\n\"x\" y\n", ParameterTextForm::PerLine);
        QVERIFY(!bad.ok());
        QCOMPARE(bad.errorOffset, 5);
        QCOMPARE(bad.parameters, Params{"a"});
    }

    void shellWords() {
        const std::string text =
            "spark-submit --class 'com.x.App' \\\n  --conf \"spark.a=b c\" --name it\\'s app.jar 'it'\\''s'";
        const TextParameters p = parseParameterText(text, ParameterTextForm::ShellCommand);
        QVERIFY(p.ok());
        QCOMPARE(p.parameters, (Params{"--class", "com.x.App", "--conf", "spark.a=b c", "--name", "it's",
                                       "app.jar", "it's"}));
        QCOMPARE(text.substr(static_cast<std::size_t>(p.ranges.at(1).first),
                             static_cast<std::size_t>(p.ranges.at(1).second - p.ranges.at(1).first)),
                 std::string("'com.x.App'"));
        // Key/value split inside a quoted word maps back to the source.
        const int valueStart = sourceOffsetInToken(text, ParameterTextForm::ShellCommand, p.ranges.at(3), 8);
        QCOMPARE(text.at(static_cast<std::size_t>(valueStart)), 'b');
        QCOMPARE(text.at(static_cast<std::size_t>(valueStart) - 1), '=');
        // A quoted spark-submit is a parameter.
        QCOMPARE(parseParameterText("'spark-submit' x", ParameterTextForm::ShellCommand).parameters,
                 (Params{"spark-submit", "x"}));

        const TextParameters open = parseParameterText("--name 'abc", ParameterTextForm::ShellCommand);
        QVERIFY(!open.ok());
        QCOMPARE(open.errorOffset, 7);
        QVERIFY(open.error->find("single quote") != std::string::npos);
        const TextParameters dq = parseParameterText("a \"b", ParameterTextForm::ShellCommand);
        QVERIFY(!dq.ok());
        QCOMPARE(dq.errorOffset, 2);
        QVERIFY(!parseParameterText("a\\", ParameterTextForm::ShellCommand).ok());
    }

    void detect_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("form");
        QTest::newRow("json") << "  [\"a\"]" << int(ParameterTextForm::JsonArray);
        QTest::newRow("tuple") << "( 'a' )" << int(ParameterTextForm::StatementTuple);
        QTest::newRow("bare tuple") << "'a', 'b'" << int(ParameterTextForm::StatementTuple);
        QTest::newRow("lines") << "--class\nFoo\napp.jar\n" << int(ParameterTextForm::PerLine);
        QTest::newRow("java opts line")
            << "--driver-java-options\n-Dx=1 -Dy=2\napp.jar" << int(ParameterTextForm::PerLine);
        QTest::newRow("shell") << "--class Foo app.jar" << int(ParameterTextForm::ShellCommand);
        QTest::newRow("shell multi") << "--class Foo\n--hudi-conf hoodie.a=b\napp.jar"
                                     << int(ParameterTextForm::ShellCommand);
        QTest::newRow("continuation") << "x \\\n y" << int(ParameterTextForm::ShellCommand);
        QTest::newRow("spark-submit") << "spark-submit\n--class\nFoo" << int(ParameterTextForm::ShellCommand);
        QTest::newRow("single word") << "app.jar" << int(ParameterTextForm::PerLine);
        QTest::newRow("empty") << "" << int(ParameterTextForm::PerLine);
    }

    void detect() {
        QFETCH(QString, text);
        QFETCH(int, form);
        QCOMPARE(int(detectForm(text.toStdString())), form);
    }

    void utf16Table() {
        const std::string text = "aü🎉b";
        const std::vector<int> t = utf16OffsetTable(text);
        QCOMPARE(t.size(), text.size() + 1);
        QCOMPARE(t[0], 0);
        QCOMPARE(t[1], 1); // ü starts at UTF-16 1
        QCOMPARE(t[3], 2); // 🎉 starts at UTF-16 2
        QCOMPARE(t[7], 4); // b after the surrogate pair
        QCOMPARE(t[text.size()], 5);
        QCOMPARE(t[text.size()], int(QString::fromStdString(text).size()));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestParameterTextForms)
#include "tst_parametertextforms.moc"
