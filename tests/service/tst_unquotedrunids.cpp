// Run ids written without back-quotes, as onehouse-cli sends them: `DESCRIBE JOB_RUN <uuid> JOB_NAME = 'j'`
// and CANCEL JOB_RUN read a bare UUID as the run id whatever digit it starts with (10 of 16 start with
// 0-9), never INVALID. Through the real jobdeckd, on both backends.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::runtest;
using json = nlohmann::json;

class TestUnquotedRunIds final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;

    json st(const QString& statement) { return runStatement(m_service, m_project.op, statement); }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QVERIFY(statusOf(must(m_service, m_project.admin,
                              "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 10 "
                              "MIN_OCU = 0")) == kSuccess);
        QVERIFY(statusOf(must(
                    m_service, m_project.op,
                    "CREATE JOB uuids TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp, "--sleep", "120"}) +
                        " CLUSTER = 'main' MAX_CONCURRENT_RUNS = 10")) == kSuccess);
    }

    void describeAndCancelTakeABareRunIdStartingWithADigit() {
        // Run ids are random: one in 16 starts with each hex digit, so a few runs give one with a digit.
        QStringList runs;
        QString digitFirst;
        for (int i = 0; i < 10 && digitFirst.isEmpty(); ++i) {
            const QString id =
                runIdOf(runJob(m_service, m_project.op, "uuids", {}, "u-" + QByteArray::number(i)));
            QVERIFY(!id.isEmpty());
            runs << id;
            if (id.front().isDigit())
                digitFirst = id;
        }
        QVERIFY2(!digitFirst.isEmpty(), qPrintable(runs.join(' ')));

        const auto described = st("DESCRIBE JOB_RUN " + digitFirst + " JOB_NAME = 'uuids'");
        QCOMPARE(statusOf(described), std::string(kSuccess)); // not INVALID "invalid number ..."
        QCOMPARE(described["apiResponse"]["describeJobRunApiResponse"]["sparkJobRun"]["jobRunId"],
                 json(digitFirst.toStdString()));
        const auto canceled = st("CANCEL JOB_RUN " + digitFirst + " JOB_NAME = uuids");
        QCOMPARE(statusOf(canceled), std::string(kSuccess));
        QCOMPARE(waitForRun(m_service, m_project.op, "uuids", digitFirst, hasStatus(kCanceled), 60000)
                     .value("status", std::string()),
                 std::string(kCanceled));

        // An id that was never handed out is not found, not a syntax error.
        const auto unknown = st("DESCRIBE JOB_RUN 00000000-0000-4000-8000-000000000000 JOB_NAME = 'uuids'");
        QCOMPARE(statusOf(unknown), std::string(kApiFailed));

        for (const QString& run : runs)
            if (run != digitFirst)
                st("CANCEL JOB_RUN `" + run + "` JOB_NAME = 'uuids'");
        for (const QString& run : runs)
            QVERIFY(hasEnded()(waitForRun(m_service, m_project.op, "uuids", run, hasEnded(), 60000)));
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestUnquotedRunIds)
#include "tst_unquotedrunids.moc"
