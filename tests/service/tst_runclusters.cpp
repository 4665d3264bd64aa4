// What a console needs to show runs against capacity (docs/wire-format.md, Jobdeck extensions): each
// cluster answers how many drivers are in use on it (`driversInUse`), and each run names the cluster it
// was admitted to (`cluster`), kept with the run, so ALTER JOB SET CLUSTER does not move old runs.
#include "core/wire/Cluster.h"
#include "core/wire/SparkJobRun.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/service/tst_runsupport.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::runtest;
using json = nlohmann::json;

class TestRunClusters final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_operator;

    json clusterNamed(const QString& name) {
        const auto status = must(m_service, m_operator, "DESCRIBE CLUSTER " + name);
        return status["apiResponse"]["describeClusterApiResponse"]["cluster"];
    }

    // SHOW CLUSTERS -> name -> driversInUse (-1 when the field is missing).
    std::map<std::string, int> driversInUse() {
        const auto status = must(m_service, m_operator, "SHOW CLUSTERS");
        std::map<std::string, int> inUse;
        for (const auto& c : status["apiResponse"]["showClustersApiResponse"]["clusters"])
            inUse[c.value("name", std::string())] =
                c.contains("driversInUse") ? c["driversInUse"].get<int>() : -1;
        return inUse;
    }

    QString startRun(const QString& job, const QByteArray& key) {
        const QString id = runIdOf(runJob(m_service, m_operator, job, {}, key));
        if (id.isEmpty())
            qWarning("RUN JOB %s did not start", qPrintable(job));
        return id;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        const ApiCredentials admin = m_service.createKey("runclusters", "admin");
        m_operator = m_service.createKey("runclusters", "operator");
        QVERIFY(admin.isValid() && m_operator.isValid());
        QCOMPARE(statusOf(must(m_service, admin,
                               "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 5")),
                 std::string(kSuccess));
        for (const QString& statement :
             {QStringLiteral("CREATE CLUSTER small TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"),
              QStringLiteral("CREATE CLUSTER big TYPE = 'Spark' MAX_OCU = 8 MIN_OCU = 1"),
              "CREATE JOB sleeper TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp, "--sleep", "60"}) +
                  " CLUSTER = 'small' MAX_CONCURRENT_RUNS = 3"})
            QCOMPARE(statusOf(must(m_service, m_operator, statement)), std::string(kSuccess));
    }

    void clustersCountTheirDriversInUse() {
        const auto idle = driversInUse();
        QCOMPARE(idle.at("small"), 0);
        QCOMPARE(idle.at("big"), 0);
        QCOMPARE(clusterNamed("small").value("driversInUse", -1), 0);

        // Three runs on a cluster of two drivers: two in use, one waits in QUEUED (it holds no driver).
        QStringList runs;
        for (int i = 0; i < 3; ++i)
            runs << startRun("sleeper", "in-use-" + QByteArray::number(i));
        for (int i = 0; i < 2; ++i)
            QCOMPARE(waitForRun(m_service, m_operator, "sleeper", runs[i], hasStatus(kRunning))
                         .value("status", ""),
                     std::string(kRunning));
        QTRY_COMPARE_WITH_TIMEOUT(driversInUse().at("small"), 2, 30000);
        QCOMPARE(driversInUse().at("big"), 0);
        QCOMPARE(clusterNamed("small").value("driversInUse", -1), 2);
        QCOMPARE(describeRun(m_service, m_operator, "sleeper", runs[2]).value("status", ""),
                 std::string(kQueued));

        // The wire type reads it back.
        const Cluster small = clusterNamed("small").get<Cluster>();
        QCOMPARE(small.driversInUse, 2);
        QCOMPARE(small.maxOcu, 2);

        for (const QString& id : runs)
            must(m_service, m_operator, "CANCEL JOB_RUN `" + id + "` JOB_NAME = 'sleeper'");
        for (const QString& id : runs)
            QVERIFY(hasEnded()(waitForRun(m_service, m_operator, "sleeper", id, hasEnded())));
        QTRY_COMPARE_WITH_TIMEOUT(driversInUse().at("small"), 0, 30000);
    }

    void aRunNamesTheClusterItWasAdmittedTo() {
        const QString before = startRun("sleeper", "admitted-before");
        QVERIFY(!before.isEmpty());
        QCOMPARE(describeRun(m_service, m_operator, "sleeper", before).value("cluster", ""),
                 std::string("small"));

        // The job moves; its earlier run stays where it was admitted, a new one runs on the new cluster.
        QCOMPARE(statusOf(must(m_service, m_operator, "ALTER JOB sleeper SET CLUSTER = 'big'")),
                 std::string(kSuccess));
        const QString after = startRun("sleeper", "admitted-after");
        QVERIFY(!after.isEmpty());
        QCOMPARE(
            waitForRun(m_service, m_operator, "sleeper", after, hasStatus(kRunning)).value("cluster", ""),
            std::string("big"));
        QCOMPARE(describeRun(m_service, m_operator, "sleeper", before).value("cluster", ""),
                 std::string("small"));
        QTRY_COMPARE_WITH_TIMEOUT(driversInUse().at("big"), 1, 30000);
        QCOMPARE(driversInUse().at("small"), 1);

        // SHOW JOB_RUNS says the same, and the wire type carries it.
        const auto shown = must(m_service, m_operator, "SHOW JOB_RUNS JOB_NAME = 'sleeper' ACTIVE");
        std::map<std::string, std::string> clusterOf;
        for (const auto& r : shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"])
            clusterOf[r.get<SparkJobRun>().jobRunId] = r.get<SparkJobRun>().cluster;
        QCOMPARE(clusterOf[before.toStdString()], std::string("small"));
        QCOMPARE(clusterOf[after.toStdString()], std::string("big"));

        for (const QString& id : {before, after})
            must(m_service, m_operator, "CANCEL JOB_RUN `" + id + "` JOB_NAME = 'sleeper'");
        for (const QString& id : {before, after})
            QVERIFY(hasEnded()(waitForRun(m_service, m_operator, "sleeper", id, hasEnded())));
        // A finished run still names its cluster.
        QCOMPARE(describeRun(m_service, m_operator, "sleeper", before).value("cluster", ""),
                 std::string("small"));
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunClusters)
#include "tst_runclusters.moc"
