// How a console tells what became of runs (core/policy/RunOutcome): the log's outcome line, which driver
// output lines are errors, a cluster's gauge text and the name of a job's copy.
#include "core/policy/RunOutcome.h"
#include "core/statements/NameLimits.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

class TestRunOutcome final : public QObject {
    Q_OBJECT
private slots:
    void outcomeLineOfAFinishedRun() {
        SparkJobRun run;
        run.jobRunId = "r1";
        run.status = JobRunStatus::Running;
        QCOMPARE(runOutcomeLine(run), std::string()); // active: no outcome yet
        run.status = JobRunStatus::Failed;
        run.exitCode = 3;
        run.message = "The driver exited with code 3";
        const std::string line = runOutcomeLine(run);
        QCOMPARE(line,
                 std::string("[jobdeck: run r1 ended FAILED, exit code 3: The driver exited with code 3]"));
        QVERIFY(isRunOutcomeLine(line));
        run.status = JobRunStatus::Completed;
        run.exitCode = 0;
        run.message.reset();
        QCOMPARE(runOutcomeLine(run), std::string("[jobdeck: run r1 ended COMPLETED, exit code 0]"));
        QVERIFY(!isRunOutcomeLine("run-id: r1"));
    }

    void errorLines_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("error");
        QTest::newRow("log4j level") << "26/12/01 10:00:01 ERROR SparkContext: Error initializing" << true;
        QTest::newRow("python logging") << "CRITICAL:root:cannot connect" << true;
        QTest::newRow("fatal") << "FATAL out of memory" << true;
        QTest::newRow("traceback") << "Traceback (most recent call last):" << true;
        QTest::newRow("java exception") << "java.lang.IllegalStateException: no table" << true;
        QTest::newRow("python error") << "ValueError: bad date" << true;
        QTest::newRow("caused by") << "Caused by: java.io.IOException: gone" << true;
        QTest::newRow("argument") << "arg: ERROR: table orders not found" << true;
        QTest::newRow("info") << "26/12/01 10:00:01 INFO SparkContext: Running Spark" << false;
        QTest::newRow("counter") << "errors=0 warnings=2" << false;
        QTest::newRow("word inside") << "MIRRORERRORS done" << false;
        QTest::newRow("plain") << "line 3" << false;
    }

    void errorLines() {
        QFETCH(QString, line);
        QFETCH(bool, error);
        QCOMPARE(isErrorLogLine(line.toStdString()), error);
    }

    void clusterGaugeText() {
        QCOMPARE(clusterDriversText("main", 2, 4), std::string("main: 2 of 4 drivers in use"));
        QCOMPARE(clusterDriversText("main", 4, 4), std::string("main: 4 of 4 drivers in use (at MAX_OCU)"));
        QCOMPARE(clusterDriversText("main", 5, 2),
                 std::string("main: 2 of 2 drivers in use (3 more started before MAX_OCU was lowered)"));
    }

    void cloneNames() {
        QCOMPARE(cloneJobName("etl", {"etl"}), std::string("etl_copy"));
        QCOMPARE(cloneJobName("etl", {"etl", "etl_copy"}), std::string("etl_copy_2"));
        QCOMPARE(cloneJobName("etl", {"etl", "etl_copy", "etl_copy_2"}), std::string("etl_copy_3"));
        const std::string longName(kMaxNameCharacters, 'a');
        const std::string copy = cloneJobName(longName, {longName});
        QCOMPARE(copy.size(), kMaxNameCharacters);
        QVERIFY(copy.ends_with("_copy"));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestRunOutcome)
#include "tst_runoutcome.moc"
