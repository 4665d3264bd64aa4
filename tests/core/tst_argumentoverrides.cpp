#include "core/parameters/ArgumentOverrides.h"
#include "tests/runner/SuiteRegistry.h"

#include <QElapsedTimer>
#include <QTest>

using namespace jobdeck;

namespace {

using Args = std::vector<std::string>;
using Overrides = std::vector<std::pair<std::string, std::string>>;

QStringList toList(const Args& args) {
    QStringList list;
    for (const std::string& arg : args)
        list << QString::fromStdString(arg);
    return list;
}

} // namespace

class ArgumentOverridesTest final : public QObject {
    Q_OBJECT

private slots:
    void readsArguments() {
        const Args args = {"--date",   "2024-01-01", "--mode=full", "input.csv", "--verbose",
                           "--offset", "-5",         "-x",          "--",        "--not-an-option"};
        const std::vector<ApplicationArgument> expected = {
            {"--date", "2024-01-01", false, 0},
            {"--mode", "full", true, 2},
            {"", "input.csv", false, 3},
            {"--verbose", std::nullopt, false, 4}, // followed by another option: a flag
            {"--offset", "-5", false, 5},          // a negative number is a value
            {"-x", std::nullopt, false, 7},        // "--" is not its value
            {"", "--", false, 8},
            {"", "--not-an-option", false, 9}, // everything after "--" is positional
        };
        QCOMPARE(readApplicationArguments(args), expected);
    }

    void readsEdgeCases() {
        QVERIFY(readApplicationArguments({}).empty());
        const std::vector<ApplicationArgument> expected = {
            {"--empty", "", true, 0},
            {"--eq", "a=b", true, 1}, // split at the first '='
            {"", "-", false, 2},      // a lone dash is stdin, a positional
            {"--last", std::nullopt, false, 3},
        };
        QCOMPARE(readApplicationArguments({"--empty=", "--eq=a=b", "-", "--last"}), expected);
    }

    void appliesOverrides_data() {
        QTest::addColumn<QStringList>("job");
        QTest::addColumn<QStringList>("overrides"); // name, value, name, value, ...
        QTest::addColumn<QStringList>("effective");

        QTest::newRow("no overrides inherit everything")
            << QStringList{"--date", "2024-01-01", "in.csv"} << QStringList{}
            << QStringList{"--date", "2024-01-01", "in.csv"};
        QTest::newRow("separate form keeps its form")
            << QStringList{"--date", "2024-01-01", "--region", "eu"} << QStringList{"--date", "2024-08-19"}
            << QStringList{"--date", "2024-08-19", "--region", "eu"};
        QTest::newRow("inline form keeps its form")
            << QStringList{"--date=2024-01-01", "--region", "eu"} << QStringList{"--date", "2024-08-19"}
            << QStringList{"--date=2024-08-19", "--region", "eu"};
        QTest::newRow("unknown name is appended")
            << QStringList{"--date", "2024-01-01"} << QStringList{"--limit", "10"}
            << QStringList{"--date", "2024-01-01", "--limit", "10"};
        QTest::newRow("several, appended in the order given")
            << QStringList{"in.csv", "--date=1"} << QStringList{"--b", "2", "--date", "3", "--a", "1"}
            << QStringList{"in.csv", "--date=3", "--b", "2", "--a", "1"};
        QTest::newRow("flag gets a value after it")
            << QStringList{"--dry-run", "--date", "1"} << QStringList{"--dry-run", "false"}
            << QStringList{"--dry-run", "false", "--date", "1"};
        QTest::newRow("two flags get values")
            << QStringList{"-a", "-b", "-c"} << QStringList{"-c", "3", "-a", "1"}
            << QStringList{"-a", "1", "-b", "-c", "3"};
        QTest::newRow("single dash option")
            << QStringList{"-n", "5"} << QStringList{"-n", "6"} << QStringList{"-n", "6"};
        QTest::newRow("values with '=' and spaces")
            << QStringList{"--filter", "a=b"} << QStringList{"--filter", "c = d, e='f'"}
            << QStringList{"--filter", "c = d, e='f'"};
        QTest::newRow("empty value") << QStringList{"--tag=x"} << QStringList{"--tag", ""}
                                     << QStringList{"--tag="};
        QTest::newRow("positional lookalike after -- is not matched")
            << QStringList{"--", "--date", "1"} << QStringList{"--date", "2"}
            << QStringList{"--", "--date", "1", "--date", "2"};
        QTest::newRow("hudi streamer pairs stay untouched")
            << QStringList{"--hoodie-conf", "hoodie.x=1", "--table", "t"} << QStringList{"--table", "u"}
            << QStringList{"--hoodie-conf", "hoodie.x=1", "--table", "u"};
    }

    void appliesOverrides() {
        QFETCH(QStringList, job);
        QFETCH(QStringList, overrides);
        QFETCH(QStringList, effective);
        Args jobArgs;
        for (const QString& arg : job)
            jobArgs.push_back(arg.toStdString());
        Overrides pairs;
        for (qsizetype i = 0; i + 1 < overrides.size(); i += 2)
            pairs.emplace_back(overrides[i].toStdString(), overrides[i + 1].toStdString());
        const OverrideResult result = applyArgumentOverrides(jobArgs, pairs, "nightly");
        QVERIFY2(!result.error, result.error ? result.error->c_str() : "");
        QCOMPARE(toList(result.effective), effective);
    }

    void refusesOverrides_data() {
        QTest::addColumn<QStringList>("job");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("secondName"); // a second override, when not empty
        QTest::addColumn<QString>("message");

        const QStringList job = {"--date", "1", "--date=2", "--region", "eu"};
        QTest::newRow("--conf")
            << job << "--conf"
            << ""
            << "Argument override --conf is not allowed: a run cannot change Spark or Hudi "
               "configurations; change the Job instead.";
        QTest::newRow("--hudi-conf")
            << job << "--hudi-conf"
            << ""
            << "Argument override --hudi-conf is not allowed: a run cannot change Spark or "
               "Hudi configurations; change the Job instead.";
        QTest::newRow("--class") << job << "--class"
                                 << ""
                                 << "Argument override --class is not allowed: a run cannot change the "
                                    "application's main class; change the Job instead.";
        QTest::newRow("occurs twice")
            << job << "--date"
            << ""
            << "Argument --date occurs 2 times in Job nightly's arguments; it cannot be "
               "overridden.";
        QTest::newRow("given twice")
            << job << "--region"
            << "--region"
            << "Argument override --region is given 2 times; give each argument once.";
        QTest::newRow("no dashes")
            << job << "date"
            << ""
            << "Argument override 'date' is not an option name: it must start with -- and "
               "contain no spaces, as in '--date'.";
        QTest::newRow("empty name")
            << job << ""
            << ""
            << "Argument override '' is not an option name: it must start with -- and "
               "contain no spaces, as in '--date'.";
        QTest::newRow("dashes only")
            << job << "---"
            << ""
            << "Argument override '---' is not an option name: it must start with -- and "
               "contain no spaces, as in '--date'.";
        QTest::newRow("negative number")
            << job << "-5"
            << ""
            << "Argument override '-5' is not an option name: it must start with -- "
               "and contain no spaces, as in '--date'.";
        QTest::newRow("space in name")
            << job << "--da te"
            << ""
            << "Argument override '--da te' is not an option name: it must start with -- "
               "and contain no spaces, as in '--date'.";
        QTest::newRow("value in name")
            << job << "--date=3"
            << ""
            << "Argument override '--date=3' must be the option name alone; give its "
               "value separately, as in '--date' = '2024-01-01'.";
        // A refused name is refused even when the Job does not have it, and before any other check.
        QTest::newRow("--conf absent from job") << QStringList{"in.csv"} << "--region"
                                                << "--conf"
                                                << "Argument override --conf is not allowed: a run cannot "
                                                   "change Spark or Hudi configurations; change "
                                                   "the Job instead.";
    }

    void refusesOverrides() {
        QFETCH(QStringList, job);
        QFETCH(QString, name);
        QFETCH(QString, secondName);
        QFETCH(QString, message);
        Args jobArgs;
        for (const QString& arg : job)
            jobArgs.push_back(arg.toStdString());
        Overrides overrides = {{name.toStdString(), "x"}};
        if (!secondName.isEmpty())
            overrides.emplace_back(secondName.toStdString(), "y");
        const OverrideResult result = applyArgumentOverrides(jobArgs, overrides, "nightly");
        QVERIFY(result.error.has_value());
        QVERIFY(result.effective.empty());
        QCOMPARE(QString::fromStdString(*result.error), message);
    }

    // **** is what DESCRIBE JOB_RUN shows for a secret argument's value; sent back, it is refused (the
    // driver would get it as the value), as is a value with a secret inside it masked. Any other value of
    // a secret, and **** for any other argument, are values like any.
    void refusesAMaskedSecretOverride() {
        const Args job = {"--db-password", "real", "--label", "x"};
        for (const char* name : {"--db-password", "--API-TOKEN", "--new-secret"}) {
            const OverrideResult masked = applyArgumentOverrides(job, {{name, "****"}}, "nightly");
            QVERIFY2(masked.error.has_value(), name);
            QCOMPARE(QString::fromStdString(*masked.error),
                     QStringLiteral("Argument override %1 is masked (****), which stands for no value the "
                                    "service keeps for a run; send the real value, or leave the argument out "
                                    "to use the Job's.")
                         .arg(QString::fromLatin1(name)));
        }
        QCOMPARE(applyArgumentOverrides(job, {{"--db-password", "new"}}, "nightly").effective,
                 (Args{"--db-password", "new", "--label", "x"}));
        QCOMPARE(applyArgumentOverrides(job, {{"--label", "****"}}, "nightly").effective,
                 (Args{"--db-password", "real", "--label", "****"}));
        // A secret inside a value, masked as DESCRIBE JOB_RUN shows it, is refused the same way.
        for (const char* value :
             {"jdbc:postgresql://h/db?user=u&password=****", "https://u:****@h/x", "{\"token\": \"****\"}"}) {
            const OverrideResult inside = applyArgumentOverrides(job, {{"--url", value}}, "nightly");
            QVERIFY2(inside.error && inside.error->starts_with("Argument override --url is masked (****)"),
                     value);
        }
        QCOMPARE(applyArgumentOverrides(job, {{"--url", "https://u:p@h/****"}}, "nightly").effective,
                 (Args{"--db-password", "real", "--label", "x", "--url", "https://u:p@h/****"}));
    }

    void namesTheJobOnlyWhenKnown() {
        const OverrideResult result = applyArgumentOverrides({"--d", "1", "--d", "2"}, {{"--d", "3"}});
        QVERIFY(result.error);
        QCOMPARE(*result.error,
                 std::string("Argument --d occurs 2 times in the Job's arguments; it cannot be "
                             "overridden."));
    }

    void handlesManyOverridesQuickly() {
        Args job;
        Overrides overrides;
        for (int i = 0; i < 25000; ++i) {
            job.push_back("--k" + std::to_string(i));
            job.push_back(std::to_string(i));
            overrides.emplace_back("--k" + std::to_string(i), "v");
            overrides.emplace_back("--n" + std::to_string(i), "w");
        }
        QElapsedTimer timer;
        timer.start();
        const OverrideResult result = applyArgumentOverrides(job, overrides);
        QVERIFY2(
            timer.elapsed() < 60000,
            qPrintable(QStringLiteral("hang guard (quadratic work over 50,000 overrides takes far longer); "
                                      "took %1 ms")
                           .arg(timer.elapsed())));
        QVERIFY(!result.error);
        QCOMPARE(result.effective.size(), std::size_t(100000));
        QCOMPARE(result.effective[1], std::string("v"));
        QCOMPARE(result.effective[50000], std::string("--n0"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(ArgumentOverridesTest)
#include "tst_argumentoverrides.moc"
