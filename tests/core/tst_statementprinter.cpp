#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

#include <algorithm>
#include <limits>

using namespace jobdeck;

namespace {

using Op = AlterProjectStatement::AllowlistOp;
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

// Values with every awkward thing the printer must quote: quotes, back quotes, '=', ',', parens,
// keywords, spaces, line breaks, non-ASCII, empty strings, extreme numbers.
std::vector<Statement> awkwardStatements() {
    return {
        CreateJobStatement{"count_transactions",
                           JobType::Jar,
                           {"--class", "com.example.App", "s3://b/app.jar", "--date", "2024-01-01"},
                           "onehouse_cluster_spark",
                           3},
        CreateJobStatement{"it's a `job`",
                           JobType::Python,
                           {"", "'", "''", "`", "a=b=c", "--hudi-conf", "hoodie.x=y1,hoodie.x2=y2", "(", ")",
                            ",", ";", "line\nbreak", "tab\there", "Zürich 東京 🚀"},
                           "cluster = 'x'",
                           std::nullopt},
        CreateJobStatement{"JOB", JobType::Jar, {}, "c", kMax},
        AlterJobStatement{"TYPE", std::vector<std::string>{"a.jar", "it''s"}, "c`2", kMin},
        AlterJobStatement{"j", std::nullopt, std::nullopt, 0},
        AlterJobStatement{"j", std::vector<std::string>{}, std::nullopt, std::nullopt},
        AlterJobStatement{"j", std::nullopt, "é", std::nullopt},
        DeleteJobStatement{"1starts-with-digit"},
        DescribeJobStatement{"a.b-c_d"},
        DescribeJobStatement{"name with spaces"},
        ShowJobsStatement{},
        RunJobStatement{"j", {}},
        RunJobStatement{"nightly", {{"--date", "2024=08=19"}, {"--q", "it's"}, {"", ""}, {"--u", "名前"}}},
        DescribeJobRunStatement{"3f2a-77", "nightly"},
        DescribeJobRunStatement{"run`with`ticks", "job 'x'"},
        CancelJobRunStatement{"SHOW", "j"},
        ShowJobRunsStatement{},
        ShowJobRunsStatement{"it's", true, 1},
        ShowJobRunsStatement{std::nullopt, true, std::nullopt},
        ShowJobRunsStatement{std::nullopt, false, kMin},
        CreateClusterStatement{"c", "Spark", 4, 1, {}},
        CreateClusterStatement{"WITH", "spark", kMax, kMin, {{"spark.a", "x=y"}, {"hoodie.'b'", ""}}},
        AlterClusterStatement{"c", 2, std::nullopt, {}},
        AlterClusterStatement{"c", std::nullopt, 0, {}},
        AlterClusterStatement{"c", std::nullopt, std::nullopt, {{"k", "v"}}},
        AlterClusterStatement{"c", 5, 1, {{"k", "v, w"}, {"k2", "`"}}},
        DescribeClusterStatement{"CLUSTER"},
        ShowClustersStatement{},
        DeleteClusterStatement{"ß"},
        DescribeProjectStatement{},
        AlterProjectStatement{true, std::nullopt, std::nullopt, Op::None, {}},
        AlterProjectStatement{std::nullopt, false, std::nullopt, Op::None, {}},
        AlterProjectStatement{std::nullopt, true, 16, Op::None, {}},
        AlterProjectStatement{std::nullopt, std::nullopt, 16, Op::None, {}},
        AlterProjectStatement{std::nullopt, std::nullopt, std::nullopt, Op::Add, {"hoodie.write.", "it's"}},
        AlterProjectStatement{false, true, 2, Op::Remove, {"hoodie.x"}},
        ShowAuditLogStatement{},
        ShowAuditLogStatement{100},
    };
}

} // namespace

class StatementPrinterTest final : public QObject {
    Q_OBJECT

private slots:
    void quotesStrings() {
        QCOMPARE(quoteString(""), std::string("''"));
        QCOMPARE(quoteString("it's"), std::string("'it''s'"));
        QCOMPARE(quoteString("''"), std::string("''''''"));
        QCOMPARE(quoteString("a`b=c"), std::string("'a`b=c'"));
        QCOMPARE(quoteString("東京\n"), std::string("'東京\n'"));
    }

    void quotesNames() {
        QCOMPARE(quoteName("nightly"), std::string("nightly"));
        QCOMPARE(quoteName("a.b-c_1"), std::string("a.b-c_1"));
        QCOMPARE(quoteName("_x"), std::string("_x"));
        QCOMPARE(quoteName("1abc"), std::string("`1abc`"));
        QCOMPARE(quoteName("-a"), std::string("`-a`"));
        QCOMPARE(quoteName("my job"), std::string("`my job`"));
        QCOMPARE(quoteName("a`b"), std::string("`a``b`"));
        QCOMPARE(quoteName("é"), std::string("`é`"));
        QCOMPARE(quoteName(""), std::string("``"));
        // Keywords, in any case, are back-quoted so the text stays unambiguous.
        QCOMPARE(quoteName("SHOW"), std::string("`SHOW`"));
        QCOMPARE(quoteName("jobs"), std::string("`jobs`"));
        QCOMPARE(quoteName("Max_Ocu"), std::string("`Max_Ocu`"));
        QCOMPARE(quoteName("jobs2"), std::string("jobs2"));
    }

    void printsCanonicalText_data() {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("canonical");
        const auto row = [](const char* input, const char* canonical) {
            QTest::newRow(canonical) << QString::fromUtf8(input) << QString::fromUtf8(canonical);
        };
        row("create job `count_transactions`\n type='jar' parameters=( '--class','A', 'x.jar' ) "
            "cluster=onehouse max_concurrent_runs=3;",
            "CREATE JOB count_transactions TYPE = 'JAR' PARAMETERS = ('--class', 'A', 'x.jar') CLUSTER = "
            "'onehouse' MAX_CONCURRENT_RUNS = 3");
        row("alter job j set max_concurrent_runs=2 set cluster='c' set parameters=()",
            "ALTER JOB j SET PARAMETERS = () SET CLUSTER = 'c' SET MAX_CONCURRENT_RUNS = 2");
        row("delete job `j`", "DELETE JOB j");
        row("describe job `show`", "DESCRIBE JOB `show`");
        row("show jobs;", "SHOW JOBS");
        row("show jobs summary", "SHOW JOBS SUMMARY");
        row("show jobs summary limit 5", "SHOW JOBS SUMMARY LIMIT 5");
        row("describe job summary", "DESCRIBE JOB `summary`");
        row("run job j arguments=('--date'='1')", "RUN JOB j ARGUMENTS = ('--date' = '1')");
        row("run job j arguments=()", "RUN JOB j");
        row("describe job_run r1 job_name=j", "DESCRIBE JOB_RUN `r1` JOB_NAME = 'j'");
        row("cancel job_run 'r 1' job_name=`j`", "CANCEL JOB_RUN `r 1` JOB_NAME = 'j'");
        row("show job_runs limit 3 active job_name=j", "SHOW JOB_RUNS JOB_NAME = 'j' ACTIVE LIMIT 3");
        row("create cluster c with 'a'='b' min_ocu=1 max_ocu=2 type=Spark",
            "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH 'a' = 'b'");
        row("alter cluster c with 'a'='b','c'='d' set min_ocu=1",
            "ALTER CLUSTER c SET MIN_OCU = 1 WITH 'a' = 'b', 'c' = 'd'");
        row("describe cluster c", "DESCRIBE CLUSTER c");
        row("show clusters", "SHOW CLUSTERS");
        row("delete cluster c", "DELETE CLUSTER c");
        row("describe project", "DESCRIBE PROJECT");
        row("alter project set concurrent_runs=enabled max_concurrent_runs_limit=4",
            "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4");
        row("alter project set hudi_configs='disabled'", "ALTER PROJECT SET HUDI_CONFIGS = DISABLED");
        row("alter project remove hudi_config_allowlist('a','b')",
            "ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('a', 'b')");
        row("show audit_log limit 7", "SHOW AUDIT_LOG LIMIT 7");
    }

    void printsCanonicalText() {
        QFETCH(QString, input);
        QFETCH(QString, canonical);
        const ParseResult result = parseStatement(input.toStdString());
        QVERIFY2(result.statement, result.error ? result.error->message.c_str() : "");
        QCOMPARE(QString::fromStdString(printStatement(*result.statement)), canonical);
        // Canonical text is a fixed point.
        QCOMPARE(QString::fromStdString(printStatement(*parseStatement(canonical.toStdString()).statement)),
                 canonical);
    }

    void roundTripsEveryStatement() {
        const std::vector<Statement> statements = awkwardStatements();
        std::vector<bool> kindsSeen(std::variant_size_v<Statement>, false);
        for (const Statement& statement : statements) {
            kindsSeen[statement.index()] = true;
            const std::string text = printStatement(statement);
            const ParseResult result = parseStatement(text);
            QVERIFY2(result.statement,
                     (text + "\nerror: " + (result.error ? result.error->message : std::string())).c_str());
            QVERIFY2(*result.statement == statement,
                     (text + "\nreprinted: " + printStatement(*result.statement)).c_str());
            // A trailing ';' and surrounding whitespace do not change the value.
            const ParseResult withSemicolon = parseStatement("\n  " + text + " ;\n");
            QVERIFY2(withSemicolon.statement && *withSemicolon.statement == statement, text.c_str());
        }
        for (std::size_t i = 0; i < kindsSeen.size(); ++i)
            QVERIFY2(kindsSeen[i], qPrintable(QStringLiteral("no round trip for alternative %1").arg(i)));
    }

    // One parameter per line parses back to the same value for every statement; only CREATE/ALTER JOB with
    // parameters differ from the one-line text, by one line per parameter and one for the closing bracket.
    void parameterPerLineRoundTrips() {
        for (const Statement& statement : awkwardStatements()) {
            const std::string oneLine = printStatement(statement);
            const std::string text = printStatement(statement, StatementLayout::ParameterPerLine);
            const ParseResult result = parseStatement(text);
            QVERIFY2(result.statement && *result.statement == statement, text.c_str());
            const std::vector<std::string>* parameters = nullptr;
            if (const auto* create = std::get_if<CreateJobStatement>(&statement))
                parameters = &create->parameters;
            else if (const auto* alter = std::get_if<AlterJobStatement>(&statement);
                     alter && alter->parameters)
                parameters = &*alter->parameters;
            if (!parameters || parameters->empty()) {
                QCOMPARE(text, oneLine);
                continue;
            }
            const auto lines = [](const std::string& t) { return std::count(t.begin(), t.end(), '\n'); };
            QCOMPARE(lines(text) - lines(oneLine), std::ptrdiff_t(parameters->size() + 1));
        }
        QCOMPARE(printStatement(CreateJobStatement{"j", JobType::Jar, {"--class", "it's"}, "c", std::nullopt},
                                StatementLayout::ParameterPerLine),
                 std::string("CREATE JOB j TYPE = 'JAR' PARAMETERS = (\n    '--class',\n    'it''s'\n) "
                             "CLUSTER = 'c'"));
    }

    void printsRunIdsBackQuoted() {
        QCOMPARE(printStatement(DescribeJobRunStatement{"a`b", "j"}),
                 std::string("DESCRIBE JOB_RUN `a``b` JOB_NAME = 'j'"));
        QCOMPARE(printStatement(CancelJobRunStatement{"it's", "j"}),
                 std::string("CANCEL JOB_RUN `it's` JOB_NAME = 'j'"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(StatementPrinterTest)
#include "tst_statementprinter.moc"
