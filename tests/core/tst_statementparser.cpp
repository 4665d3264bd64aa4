#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "tests/runner/SuiteRegistry.h"

#include <QElapsedTimer>
#include <QTest>

#include <limits>
#include <random>

using namespace jobdeck;

namespace {

template <std::size_t N> QByteArray bytes(const char (&text)[N]) {
    return QByteArray(text, N - 1); // keeps embedded NULs
}

std::string toStd(const QByteArray& text) {
    return std::string(text.constData(), static_cast<std::size_t>(text.size()));
}

// Parses and compares with the expected value; on a mismatch says what came out instead.
void expectStatement(std::string_view text, const Statement& expected) {
    const ParseResult result = parseStatement(text);
    QVERIFY2(result.statement.has_value(), ("no statement for: " + std::string(text) +
                                            "\nerror: " + (result.error ? result.error->message : ""))
                                               .c_str());
    QVERIFY2(!result.error.has_value(), "a statement and an error at once");
    QVERIFY2(*result.statement == expected,
             ("for: " + std::string(text) + "\ngot:      " + printStatement(*result.statement) +
              "\nexpected: " + printStatement(expected))
                 .c_str());
}

} // namespace

class StatementParserTest final : public QObject {
    Q_OBJECT

private slots:
    void parsesCreateJob() {
        CreateJobStatement expected{"count_transactions",
                                    JobType::Jar,
                                    {"--class", "com.example.MySparkApp",
                                     "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"},
                                    "onehouse_cluster_spark",
                                    3};
        // The contract's own example, as written in seed 001.
        expectStatement("CREATE JOB `count_transactions`\n"
                        "    TYPE = 'JAR'\n"
                        "    PARAMETERS = ( '--class', 'com.example.MySparkApp', "
                        "'s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar' )\n"
                        "    CLUSTER = 'onehouse_cluster_spark'\n"
                        "    MAX_CONCURRENT_RUNS = 3",
                        expected);
        if (QTest::currentTestFailed())
            return;
        // Keywords in any case, clauses in any order, a trailing ';', cluster as a bare name.
        expectStatement(
            "create job count_transactions cluster = onehouse_cluster_spark Max_Concurrent_Runs=3 "
            "parameters=('--class','com.example.MySparkApp',"
            "'s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar') type='jar' ;  \n",
            expected);
        if (QTest::currentTestFailed())
            return;
        expectStatement(
            "CREATE JOB py TYPE = 'PYTHON' PARAMETERS = ('s3://b/app.py', '--date', '2024-01-01') "
            "CLUSTER = 'c1'",
            CreateJobStatement{
                "py", JobType::Python, {"s3://b/app.py", "--date", "2024-01-01"}, "c1", std::nullopt});
        if (QTest::currentTestFailed())
            return;
        expectStatement("CREATE JOB e TYPE = PYTHON PARAMETERS = () CLUSTER = `my cluster`",
                        CreateJobStatement{"e", JobType::Python, {}, "my cluster", std::nullopt});
    }

    void parsesAlterJob() {
        expectStatement("ALTER JOB `count_transactions`\n    SET MAX_CONCURRENT_RUNS = 3",
                        AlterJobStatement{"count_transactions", std::nullopt, std::nullopt, 3});
        if (QTest::currentTestFailed())
            return;
        expectStatement("ALTER JOB j SET CLUSTER = 'c2'",
                        AlterJobStatement{"j", std::nullopt, "c2", std::nullopt});
        if (QTest::currentTestFailed())
            return;
        expectStatement("alter job j set parameters = ('a.jar', '--x', 'y') SET cluster = 'c3' set "
                        "MAX_CONCURRENT_RUNS = 1;",
                        AlterJobStatement{"j", std::vector<std::string>{"a.jar", "--x", "y"}, "c3", 1});
        if (QTest::currentTestFailed())
            return;
        expectStatement("ALTER JOB j SET PARAMETERS = ()",
                        AlterJobStatement{"j", std::vector<std::string>{}, std::nullopt, std::nullopt});
    }

    void parsesSimpleJobStatements() {
        expectStatement("DELETE JOB nightly", DeleteJobStatement{"nightly"});
        expectStatement("describe job `nightly.v2-b`", DescribeJobStatement{"nightly.v2-b"});
        expectStatement("DESCRIBE JOB nightly.v2-b;", DescribeJobStatement{"nightly.v2-b"});
        expectStatement("SHOW JOBS", ShowJobsStatement{});
        expectStatement("  show\tjobs ; ", ShowJobsStatement{});
        expectStatement("SHOW JOBS SUMMARY", ShowJobsStatement{true, std::nullopt});
        expectStatement("show jobs summary;", ShowJobsStatement{true, std::nullopt});
        expectStatement("SHOW JOBS SUMMARY LIMIT 200", ShowJobsStatement{true, 200});
    }

    void parsesRunJob() {
        expectStatement("RUN JOB nightly", RunJobStatement{"nightly", {}});
        expectStatement("RUN JOB nightly ARGUMENTS = ()", RunJobStatement{"nightly", {}});
        expectStatement(
            "RUN JOB nightly ARGUMENTS = ( '--date' = '2024-08-19', '--filter' = 'a=b, c=''d''' )",
            RunJobStatement{"nightly", {{"--date", "2024-08-19"}, {"--filter", "a=b, c='d'"}}});
    }

    void parsesJobRunStatements() {
        expectStatement("DESCRIBE JOB_RUN `3f2a-77` JOB_NAME = 'nightly'",
                        DescribeJobRunStatement{"3f2a-77", "nightly"});
        expectStatement("DESCRIBE JOB_RUN run_1 JOB_NAME = nightly",
                        DescribeJobRunStatement{"run_1", "nightly"});
        expectStatement("DESCRIBE JOB_RUN '3f2a 77' JOB_NAME = `night``ly`",
                        DescribeJobRunStatement{"3f2a 77", "night`ly"});
        expectStatement("CANCEL JOB_RUN `3f2a-77` JOB_NAME = 'nightly';",
                        CancelJobRunStatement{"3f2a-77", "nightly"});
    }

    // A run id is a UUID; written without back-quotes it is read as one wherever a run id is expected,
    // whichever of the 16 hex digits it starts with (onehouse-cli sends it so).
    void parsesUnquotedRunIds() {
        for (const char first : std::string_view("0123456789abcdefABCDEF")) {
            const std::string id = std::string(1, first) + "d95996d-3b1e-4c2a-9f00-0123456789ab";
            expectStatement("DESCRIBE JOB_RUN " + id + " JOB_NAME = 'j'", DescribeJobRunStatement{id, "j"});
            expectStatement("CANCEL JOB_RUN " + id + " JOB_NAME = j;", CancelJobRunStatement{id, "j"});
        }
        expectStatement("describe job_run 5D95996D-3B1E-4C2A-9F00-0123456789AB job_name = 'j'",
                        DescribeJobRunStatement{"5D95996D-3B1E-4C2A-9F00-0123456789AB", "j"});
        expectStatement("DESCRIBE JOB_RUN\n00000000-0000-0000-0000-000000000000\nJOB_NAME = 'j'",
                        DescribeJobRunStatement{"00000000-0000-0000-0000-000000000000", "j"});
    }

    void parsesShowJobRuns() {
        expectStatement("SHOW JOB_RUNS", ShowJobRunsStatement{});
        expectStatement("SHOW JOB_RUNS JOB_NAME = 'nightly'",
                        ShowJobRunsStatement{"nightly", false, std::nullopt});
        expectStatement("SHOW JOB_RUNS ACTIVE", ShowJobRunsStatement{std::nullopt, true, std::nullopt});
        expectStatement("SHOW JOB_RUNS LIMIT 20", ShowJobRunsStatement{std::nullopt, false, 20});
        expectStatement("SHOW JOB_RUNS JOB_NAME = 'n' ACTIVE LIMIT 5", ShowJobRunsStatement{"n", true, 5});
        expectStatement("show job_runs limit 5 active job_name = n", ShowJobRunsStatement{"n", true, 5});
    }

    void parsesClusterStatements() {
        expectStatement("CREATE CLUSTER onehouse_cluster_spark TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1",
                        CreateClusterStatement{"onehouse_cluster_spark", "Spark", 4, 1, {}});
        expectStatement(
            "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 8 MIN_OCU = 2 WITH 'spark.executor.memory' = "
            "'4g', 'hoodie.upsert.shuffle.parallelism' = '200'",
            CreateClusterStatement{
                "c",
                "Spark",
                8,
                2,
                {{"spark.executor.memory", "4g"}, {"hoodie.upsert.shuffle.parallelism", "200"}}});
        expectStatement("create cluster c with 'a'='b' min_ocu=0 max_ocu=1 type='Spark'",
                        CreateClusterStatement{"c", "Spark", 1, 0, {{"a", "b"}}});
        expectStatement("ALTER CLUSTER c SET MAX_OCU = 10", AlterClusterStatement{"c", 10, std::nullopt, {}});
        expectStatement("ALTER CLUSTER c SET MIN_OCU = 2 SET MAX_OCU = 10 WITH 'k' = 'v'",
                        AlterClusterStatement{"c", 10, 2, {{"k", "v"}}});
        expectStatement("ALTER CLUSTER c WITH 'k' = 'v', 'k2' = ''",
                        AlterClusterStatement{"c", std::nullopt, std::nullopt, {{"k", "v"}, {"k2", ""}}});
        expectStatement("DESCRIBE CLUSTER c", DescribeClusterStatement{"c"});
        expectStatement("SHOW CLUSTERS", ShowClustersStatement{});
        expectStatement("DELETE CLUSTER `c`", DeleteClusterStatement{"c"});
    }

    void parsesProjectStatements() {
        using Op = AlterProjectStatement::AllowlistOp;
        expectStatement("DESCRIBE PROJECT", DescribeProjectStatement{});
        expectStatement("ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                        AlterProjectStatement{true, std::nullopt, std::nullopt, Op::None, {}});
        expectStatement("alter project set hudi_configs = disabled",
                        AlterProjectStatement{false, std::nullopt, std::nullopt, Op::None, {}});
        expectStatement("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED",
                        AlterProjectStatement{std::nullopt, true, std::nullopt, Op::None, {}});
        expectStatement("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 8",
                        AlterProjectStatement{std::nullopt, true, 8, Op::None, {}});
        expectStatement("ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 8",
                        AlterProjectStatement{std::nullopt, std::nullopt, 8, Op::None, {}});
        expectStatement(
            "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ( 'hoodie.datasource.write.', "
            "'hoodie.upsert.shuffle.parallelism' )",
            AlterProjectStatement{std::nullopt,
                                  std::nullopt,
                                  std::nullopt,
                                  Op::Add,
                                  {"hoodie.datasource.write.", "hoodie.upsert.shuffle.parallelism"}});
        expectStatement(
            "ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.x')",
            AlterProjectStatement{std::nullopt, std::nullopt, std::nullopt, Op::Remove, {"hoodie.x"}});
        expectStatement("ALTER PROJECT SET HUDI_CONFIGS = ENABLED ADD HUDI_CONFIG_ALLOWLIST ('hoodie.x')",
                        AlterProjectStatement{true, std::nullopt, std::nullopt, Op::Add, {"hoodie.x"}});
    }

    void parsesAuditLog() {
        expectStatement("SHOW AUDIT_LOG", ShowAuditLogStatement{});
        expectStatement("show audit_log limit 50;", ShowAuditLogStatement{50});
    }

    void parsesNamesStringsAndNumbers() {
        // Doubled quotes, '=' and ',' inside strings, UTF-8, line breaks.
        expectStatement(
            "RUN JOB `wéird ``job`` 名前` ARGUMENTS = ('--msg' = 'it''s = fine, ok', '--city' = 'Zürich "
            "東京 🚀', '--multi' = 'a\nb')",
            RunJobStatement{
                "wéird `job` 名前",
                {{"--msg", "it's = fine, ok"}, {"--city", "Zürich 東京 🚀"}, {"--multi", "a\nb"}}});
        // A keyword is a fine name where a name is expected.
        expectStatement("DESCRIBE JOB jobs", DescribeJobStatement{"jobs"});
        expectStatement("DELETE CLUSTER `SHOW`", DeleteClusterStatement{"SHOW"});
        expectStatement("SHOW JOB_RUNS LIMIT 9223372036854775807",
                        ShowJobRunsStatement{std::nullopt, false, std::numeric_limits<std::int64_t>::max()});
        expectStatement("SHOW AUDIT_LOG LIMIT -9223372036854775808",
                        ShowAuditLogStatement{std::numeric_limits<std::int64_t>::min()});
        expectStatement("SHOW AUDIT_LOG LIMIT 007", ShowAuditLogStatement{7});
        expectStatement("RUN JOB j ARGUMENTS = ('' = '')", RunJobStatement{"j", {{"", ""}}});
    }

    void namesTheAction() {
        QCOMPARE(statementAction(CreateJobStatement{}), std::string_view("CREATE JOB"));
        QCOMPARE(statementAction(DescribeJobRunStatement{}), std::string_view("DESCRIBE JOB_RUN"));
        QCOMPARE(statementAction(CancelJobRunStatement{}), std::string_view("CANCEL JOB_RUN"));
        QCOMPARE(statementAction(AlterProjectStatement{}), std::string_view("ALTER PROJECT"));
        QCOMPARE(statementAction(ShowAuditLogStatement{}), std::string_view("SHOW AUDIT_LOG"));
        // Every statement's action is how its text begins.
        const char* texts[] = {"CREATE JOB j TYPE = 'JAR' PARAMETERS = ('a.jar') CLUSTER = 'c'",
                               "ALTER JOB j SET CLUSTER = 'c'",
                               "DELETE JOB j",
                               "DESCRIBE JOB j",
                               "SHOW JOBS",
                               "RUN JOB j",
                               "DESCRIBE JOB_RUN `r` JOB_NAME = 'j'",
                               "CANCEL JOB_RUN `r` JOB_NAME = 'j'",
                               "SHOW JOB_RUNS",
                               "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1",
                               "ALTER CLUSTER c SET MAX_OCU = 2",
                               "DESCRIBE CLUSTER c",
                               "SHOW CLUSTERS",
                               "DELETE CLUSTER c",
                               "DESCRIBE PROJECT",
                               "ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                               "SHOW AUDIT_LOG"};
        QCOMPARE(std::size(texts), std::variant_size_v<Statement>);
        for (std::size_t i = 0; i < std::size(texts); ++i) {
            const ParseResult result = parseStatement(texts[i]);
            QVERIFY2(result.statement, texts[i]);
            QCOMPARE(result.statement->index(), i);
            const std::string action(statementAction(*result.statement));
            QVERIFY2(std::string_view(texts[i]).substr(0, action.size()) == action, texts[i]);
        }
    }

    void reportsErrors_data() {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");

        const auto row = [](const char* name, const QByteArray& input, const char* message, int line,
                            int column) {
            QTest::newRow(name) << input << QString::fromUtf8(message) << line << column;
        };
        row("empty", "",
            "empty statement: expected CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL at 1:1", 1, 1);
        row("blank", "  \n  ",
            "empty statement: expected CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL at 2:3", 2, 3);
        row("only semicolon", ";", "expected CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL at 1:1", 1,
            1);
        row("unknown verb", "DROP JOB a",
            "expected CREATE, ALTER, DELETE, DESCRIBE, SHOW, RUN or CANCEL at 1:1", 1, 1);
        row("unknown object", "CREATE TABLE t", "expected JOB or CLUSTER after CREATE at 1:8", 1, 8);
        row("missing name", "DESCRIBE JOB", "expected a job name after JOB at 1:13", 1, 13);
        row("empty name", "DELETE JOB ``", "a job name cannot be empty at 1:12", 1, 12);
        row("missing equals", "CREATE JOB a TYPE 'JAR'", "expected '=' after TYPE at 1:19", 1, 19);
        row("equals on line 3", "CREATE JOB a\n  TYPE = 'JAR'\n  PARAMETERS ('x')",
            "expected '=' after PARAMETERS at 3:14", 3, 14);
        row("unknown job type", "CREATE JOB a TYPE = 'SCALA'",
            "unknown job type 'SCALA': expected 'JAR' or 'PYTHON' at 1:21", 1, 21);
        row("missing type", "CREATE JOB a PARAMETERS = ('x.jar') CLUSTER = 'c'",
            "CREATE JOB is missing TYPE = 'JAR' | 'PYTHON' at 1:50", 1, 50);
        row("missing cluster", "CREATE JOB a TYPE = 'JAR' PARAMETERS = ('x.jar');",
            "CREATE JOB is missing CLUSTER = '<cluster>' at 1:49", 1, 49);
        row("unknown clause", "CREATE JOB a TYPE = 'JAR' CLASS = 'x'",
            "expected TYPE, PARAMETERS, CLUSTER or MAX_CONCURRENT_RUNS after 'JAR' at 1:27", 1, 27);
        row("duplicate clause", "CREATE JOB a TYPE = 'JAR' TYPE = 'JAR'",
            "TYPE is given more than once at 1:27", 1, 27);
        row("duplicate set", "ALTER JOB a SET CLUSTER = 'c' SET cluster = 'd'",
            "SET CLUSTER is given more than once at 1:35", 1, 35);
        row("alter without set", "ALTER JOB a", "expected SET after a at 1:12", 1, 12);
        row("string where number", "ALTER JOB a SET MAX_CONCURRENT_RUNS = '3'",
            "expected a number after '=' at 1:39", 1, 39);
        row("trailing comma", "ALTER JOB a SET PARAMETERS = ('x', )", "expected a string after ',' at 1:36",
            1, 36);
        row("missing close paren", "ALTER JOB a SET PARAMETERS = ('x' 'y')",
            "expected ',' or ')' after 'x' at 1:35", 1, 35);
        row("number in list", "ALTER JOB a SET PARAMETERS = (1)", "expected a string after '(' at 1:31", 1,
            31);
        row("pair without value", "RUN JOB a ARGUMENTS = ('--date')", "expected '=' after '--date' at 1:32",
            1, 32);
        row("empty allowlist", "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ()",
            "expected a string after '(' at 1:42", 1, 42);
        row("bad switch", "ALTER PROJECT SET HUDI_CONFIGS = ON",
            "expected ENABLED or DISABLED after '=' at 1:34", 1, 34);
        row("two allowlist ops",
            "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('a') REMOVE HUDI_CONFIG_ALLOWLIST ('b')",
            "only one ADD or REMOVE HUDI_CONFIG_ALLOWLIST is allowed per statement at 1:47", 1, 47);
        row("run id missing job name", "DESCRIBE JOB_RUN `r1`", "expected JOB_NAME after `r1` at 1:22", 1,
            22);
        row("unterminated string", "CREATE JOB a TYPE = 'JAR",
            "unterminated string: missing closing ' at 1:21", 1, 21);
        row("unterminated string over lines", "RUN JOB a ARGUMENTS = ('--x' = 'a\nb\nc",
            "unterminated string: missing closing ' at 1:32", 1, 32);
        row("unterminated backquote", "DESCRIBE JOB `abc",
            "unterminated back-quoted name: missing closing ` at 1:14", 1, 14);
        row("invalid utf-8 in string", "SHOW JOBS\n  'é\xff'", "invalid UTF-8 byte 0xFF at 2:5", 2, 5);
        row("overlong utf-8", "DESCRIBE JOB `a\xc0\x80`", "invalid UTF-8 byte 0xC0 at 1:16", 1, 16);
        row("surrogate utf-8", "DESCRIBE JOB `\xed\xa0\x80`", "invalid UTF-8 byte 0xED at 1:15", 1, 15);
        row("truncated utf-8", "DESCRIBE JOB '\xe6\x97", "invalid UTF-8 byte 0xE6 at 1:15", 1, 15);
        row("invalid utf-8 outside", "SHOW \xfe", "invalid UTF-8 byte 0xFE at 1:6", 1, 6);
        row("unicode outside quotes", "SHOW JOBS é", "unexpected character 'é' at 1:11", 1, 11);
        row("nul between words", bytes("SHOW\0JOBS"), "NUL character is not allowed at 1:5", 1, 5);
        row("nul in name", bytes("DESCRIBE JOB `a\0b`"), "NUL character is not allowed at 1:16", 1, 16);
        row("control character", "SHOW\x01JOBS", "unexpected control character U+0001 at 1:5", 1, 5);
        row("double quotes", "DESCRIBE JOB \"a\"",
            "unexpected character '\"': strings are single-quoted ('...') and names back-quoted (`...`) at "
            "1:14",
            1, 14);
        row("number overflow", "ALTER JOB a SET MAX_CONCURRENT_RUNS = 9223372036854775808",
            "number 9223372036854775808 is beyond the 64-bit integer range at 1:39", 1, 39);
        row("negative overflow", "SHOW AUDIT_LOG LIMIT -9223372036854775809",
            "number -9223372036854775809 is beyond the 64-bit integer range at 1:22", 1, 22);
        // A UUID-shaped word is a run id only where one is expected; almost-UUIDs stay bad numbers.
        row("uuid as a job name", "DELETE JOB 5d95996d-3b1e-4c2a-9f00-0123456789ab",
            "a job name cannot start with a digit: back-quote it (`5d95996d-3b1e-4c2a-9f00-0123456789ab`) at "
            "1:12",
            1, 12);
        row("uuid as a number", "SHOW JOB_RUNS LIMIT 5d95996d-3b1e-4c2a-9f00-0123456789ab",
            "expected a number after LIMIT at 1:21", 1, 21);
        row("short uuid", "DESCRIBE JOB_RUN 5d95996d-3b1e JOB_NAME = 'j'",
            "invalid number '5d95996d-3b1e': numbers are decimal integers at 1:18", 1, 18);
        row("uuid with a tail", "DESCRIBE JOB_RUN 5d95996d-3b1e-4c2a-9f00-0123456789abc JOB_NAME = 'j'",
            "invalid number '5d95996d-3b1e-4c2a-9f00-0123456789abc': numbers are decimal integers at 1:18", 1,
            18);
        row("uuid with a bad digit", "DESCRIBE JOB_RUN 5d95996d-3b1e-4c2a-9f00-0123456789ag JOB_NAME = 'j'",
            "invalid number '5d95996d-3b1e-4c2a-9f00-0123456789ag': numbers are decimal integers at 1:18", 1,
            18);
        row("decimal number", "SHOW JOB_RUNS LIMIT 1.5",
            "invalid number '1.5': numbers are decimal integers at 1:21", 1, 21);
        row("trailing garbage", "SHOW JOBS extra", "unexpected extra after the end of the statement at 1:11",
            1, 11);
        row("second statement", "SHOW JOBS; SHOW JOBS",
            "unexpected SHOW after the end of the statement at 1:12", 1, 12);
        row("garbage after crlf", "SHOW\r\nJOBS (", "unexpected '(' after the end of the statement at 2:6", 2,
            6);
        row("missing ocu", "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 2",
            "CREATE CLUSTER is missing MIN_OCU = <n> at 1:44", 1, 44);
        row("with without pairs", "ALTER CLUSTER c WITH", "expected a string after WITH at 1:21", 1, 21);
    }

    void reportsErrors() {
        QFETCH(QByteArray, input);
        QFETCH(QString, message);
        QFETCH(int, line);
        QFETCH(int, column);
        const ParseResult result = parseStatement(toStd(input));
        QVERIFY(!result.statement.has_value());
        QVERIFY(result.error.has_value());
        QCOMPARE(QString::fromStdString(result.error->message), message);
        QCOMPARE(result.error->line, line);
        QCOMPARE(result.error->column, column);
    }

    void hugeInputsFinishFast() {
        constexpr std::size_t kMiB = 1024 * 1024;
        const std::string inputs[] = {
            std::string(kMiB, '('),
            "CREATE JOB a TYPE = 'JAR' PARAMETERS = " + std::string(kMiB, '('),
            "RUN JOB a ARGUMENTS = ('--x' = '" + std::string(kMiB, 'x'), // unterminated
            "DESCRIBE JOB `" + std::string(kMiB, '`'),                   // doubled quotes, then unterminated
            "SHOW AUDIT_LOG LIMIT " + std::string(kMiB, '9'),
            "DESCRIBE JOB " + std::string(kMiB, 'a'),
            std::string(kMiB, '\n') + "SHOW JOBS",
            std::string(kMiB, '\0'),
        };
        for (const std::string& input : inputs) {
            QElapsedTimer timer;
            timer.start();
            const ParseResult result = parseStatement(input);
            QVERIFY2(timer.elapsed() < 20000,
                     input.substr(0, 60).c_str()); // a hang guard: bench_statementparser times it
            QVERIFY(result.statement.has_value() != result.error.has_value());
        }
        QCOMPARE(parseStatement(inputs[0]).error->message,
                 std::string("expected CREATE, ALTER, DELETE, DESCRIBE, "
                             "SHOW, RUN or CANCEL at 1:1"));
        QCOMPARE(parseStatement(inputs[4]).error->column, 22);
        // A name over 256 characters is refused without being repeated (core/statements/NameLimits.h).
        QCOMPARE(parseStatement(inputs[5]).error->message,
                 std::string("a job name can have at most 256 characters; this one has 1048576 at 1:14"));
        QCOMPARE(*parseStatement(inputs[6]).statement, Statement(ShowJobsStatement{}));
    }

    // Twice the parameters must cost about twice the time: a quadratic parser would take 4x.
    void parsesInLinearTime() {
        const auto statementWith = [](int count) {
            std::string text = "CREATE JOB big TYPE = 'JAR' PARAMETERS = (";
            for (int i = 0; i < count; ++i)
                text += (i ? ", '--opt" : "'--opt") + std::to_string(i) + "=it''s'";
            return text + ") CLUSTER = 'c'";
        };
        const auto timeOf = [](const std::string& text) {
            qint64 best = std::numeric_limits<qint64>::max();
            for (int attempt = 0; attempt < 5; ++attempt) {
                QElapsedTimer timer;
                timer.start();
                const ParseResult result = parseStatement(text);
                best = std::min(best, timer.nsecsElapsed());
                if (!result.statement)
                    return qint64(-1);
            }
            return best;
        };
        // Sizes 16 times apart: linear work takes about 16 times as long, quadratic 256 times. The bound
        // sits between the two with a factor 4 to spare on each side. A busy machine only ever makes one
        // measurement slower, so the smallest ratio of three rounds is the parser's own; a quadratic
        // parser stays near 256 in every round.
        const std::string smallText = statementWith(4000);
        const std::string largeText = statementWith(64000);
        double bestRatio = std::numeric_limits<double>::max();
        QString measured;
        for (int round = 0; round < 3 && bestRatio >= 64; ++round) {
            const qint64 small = timeOf(smallText);
            const qint64 large = timeOf(largeText);
            QVERIFY(small > 0 && large > 0);
            bestRatio = std::min(bestRatio, double(large) / double(small));
            measured += QStringLiteral(" 4k: %1 ns, 64k: %2 ns;").arg(small).arg(large);
        }
        QVERIFY2(bestRatio < 64, qPrintable(QStringLiteral("linear is about 16 times:") + measured));
    }

    // Mutations of valid statements: every outcome is a statement or an error with a sane position,
    // and every statement that comes out prints to text that parses back to it.
    void survivesMutations() {
        const std::vector<std::string> seeds = {
            "CREATE JOB `count_transactions` TYPE = 'JAR' PARAMETERS = ( '--class', 'com.example.App', "
            "'s3://b/app.jar', '--date', '2024-01-01' ) CLUSTER = 'c' MAX_CONCURRENT_RUNS = 3;",
            "ALTER JOB j SET PARAMETERS = ('a.py', 'it''s') SET CLUSTER = 'c' SET MAX_CONCURRENT_RUNS = 2",
            "RUN JOB j ARGUMENTS = ('--date' = '2024=01', '--city' = 'Zürich 東京')",
            "DESCRIBE JOB_RUN `r-1` JOB_NAME = 'j'",
            "CANCEL JOB_RUN `r``2` JOB_NAME = 'j'",
            "SHOW JOB_RUNS JOB_NAME = 'j' ACTIVE LIMIT 10",
            "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1 WITH 'spark.a' = '1', 'hoodie.b' = '2'",
            "ALTER CLUSTER c SET MAX_OCU = 3 SET MIN_OCU = -1 WITH 'k' = 'v'",
            "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4",
            "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.x.', 'hoodie.y')",
            "DELETE CLUSTER c",
            "SHOW AUDIT_LOG LIMIT 5",
        };
        const std::string alphabet =
            std::string("'`(),=; \n\t-_.0123456789aZ\xc3\xa9\xff\x80", 37) + std::string(1, '\0');
        std::mt19937 random(20240819);
        const auto pick = [&](std::size_t bound) {
            return std::uniform_int_distribution<std::size_t>(0, bound - 1)(random);
        };
        int statements = 0;
        int errors = 0;
        for (int iteration = 0; iteration < 20000; ++iteration) {
            std::string text = seeds[pick(seeds.size())];
            const int mutations = 1 + static_cast<int>(pick(4));
            for (int m = 0; m < mutations; ++m) {
                const std::size_t at = text.empty() ? 0 : pick(text.size() + 1);
                switch (pick(5)) {
                case 0:
                    text.insert(at, 1, alphabet[pick(alphabet.size())]);
                    break;
                case 1:
                    if (at < text.size())
                        text.erase(at, 1 + pick(8));
                    break;
                case 2:
                    if (at < text.size())
                        text[at] = alphabet[pick(alphabet.size())];
                    break;
                case 3:
                    text.resize(at);
                    break;
                default: {
                    const std::size_t from = text.empty() ? 0 : pick(text.size());
                    text.insert(at, text.substr(from, 1 + pick(12)));
                    break;
                }
                }
            }
            const ParseResult result = parseStatement(text);
            QVERIFY(result.statement.has_value() != result.error.has_value());
            if (result.error) {
                ++errors;
                const int lines = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
                QVERIFY(result.error->line >= 1 && result.error->line <= lines);
                QVERIFY(result.error->column >= 1 &&
                        result.error->column <= static_cast<int>(text.size()) + 1);
                const std::string suffix =
                    " at " + std::to_string(result.error->line) + ":" + std::to_string(result.error->column);
                QVERIFY(result.error->message.size() > suffix.size());
                QCOMPARE(result.error->message.substr(result.error->message.size() - suffix.size()), suffix);
            } else {
                ++statements;
                const ParseResult again = parseStatement(printStatement(*result.statement));
                QVERIFY2(again.statement && *again.statement == *result.statement, text.c_str());
            }
        }
        // The mutations must exercise both outcomes, or the loop proves little.
        QVERIFY(statements > 500);
        QVERIFY(errors > 5000);
    }
};

JOBDECK_TEST_GUILESS_MAIN(StatementParserTest)
#include "tst_statementparser.moc"
