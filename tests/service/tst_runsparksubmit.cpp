// --runner spark-submit chosen through SPARK_HOME: the command line a recording stand-in spark-submit
// receives (options in order, --hudi-conf left out, the run id and the other platform-managed configs,
// platform and cluster Spark defaults below the job's), the environment and hudi-defaults.conf of the
// run, and an s3:// path served through --s3-map.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace jobdeck;
using namespace jobdeck::runtest;

class TestRunSparkSubmit final : public QObject {
    Q_OBJECT

    QTemporaryDir m_sparkHome;
    QTemporaryDir m_bucket; // s3://apps is served from here (--s3-map)
    std::unique_ptr<TestService> m_service;
    Project m_project;

private slots:
    void initTestCase() {
        QVERIFY(QDir().mkpath(m_sparkHome.filePath("bin")));
        QFile script(m_sparkHome.filePath("bin/spark-submit"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\n"
                     "for a in \"$@\"; do echo \"spark-submit-arg: $a\"; done\n"
                     "echo \"run-id-env: $ONEHOUSE_JOB_RUN_ID\"\n"
                     "sed 's/^/hudi-conf: /' \"$HUDI_CONF_DIR/hudi-defaults.conf\"\n");
        script.close();
        QVERIFY(script.setPermissions(script.permissions() | QFileDevice::ExeOwner));
        qputenv("SPARK_HOME", m_sparkHome.path().toLocal8Bit());
        m_service = std::make_unique<TestService>(QStringList{"--s3-map", "apps=" + m_bucket.path()});
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
        qunsetenv("SPARK_HOME");
        QVERIFY(m_project.create(*m_service));
    }

    void buildsTheSparkSubmitCommandLine() {
        QFile jar(m_bucket.filePath("app.jar"));
        QVERIFY(jar.open(QIODevice::WriteOnly));
        jar.close();
        QCOMPARE(statusOf(must(
                     *m_service, m_project.op,
                     "CREATE CLUSTER sc TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH 'spark.a' = 'cluster', "
                     "'spark.c' = 'cl', 'hoodie.insert.shuffle.parallelism' = '10'")),
                 std::string(kSuccess));
        QCOMPARE(statusOf(must(*m_service, m_project.op,
                               "CREATE JOB sj TYPE = 'JAR' PARAMETERS = " +
                                   tuple({"--class", "com.example.App", "--conf", "spark.a=job",
                                          "--hudi-conf", "hoodie.upsert.shuffle.parallelism=8", "--name", "n",
                                          "s3://apps/app.jar", "--date", "d"}) +
                                   " CLUSTER = 'sc'")),
                 std::string(kSuccess));
        const QString id = runIdOf(runJob(*m_service, m_project.op, "sj", {{"--date", "e"}}));
        QVERIFY(!id.isEmpty());
        const auto run = waitForRun(*m_service, m_project.op, "sj", id, hasEnded());
        QCOMPARE(run.value("status", std::string()), std::string(kCompleted));
        const QStringList log =
            QString::fromUtf8(fullLog(*m_service, m_project.op, "sj", id)).split('\n', Qt::SkipEmptyParts);
        QStringList args;
        for (const auto& line : log.filter(QRegularExpression("^spark-submit-arg: ")))
            args << line.mid(QString("spark-submit-arg: ").size());
        const QStringList expected{
            "--class",
            "com.example.App",
            "--name",
            "n",
            "--conf",
            "spark.onehouse.jobRunId=" + id,
            "--conf",
            "spark.submit.deployMode=client",
            "--conf",
            "spark.executorEnv.ONEHOUSE_JOB_RUN_ID=" + id,
            "--conf",
            "spark.c=cl",
            "--conf",
            "spark.kryo.registrator=org.apache.spark.HoodieSparkKryoRegistrar",
            "--conf",
            "spark.serializer=org.apache.spark.serializer.KryoSerializer",
            "--conf",
            "spark.sql.catalog.spark_catalog=org.apache.spark.sql.hudi.catalog.HoodieCatalog",
            "--conf",
            "spark.sql.extensions=org.apache.spark.sql.hudi.HoodieSparkSessionExtension",
            "--conf",
            "spark.a=job",
            m_bucket.filePath("app.jar"),
            "--date",
            "e"};
        QVERIFY2(args == expected, qPrintable(args.join(' ')));
        QVERIFY(log.contains("run-id-env: " + id));
        QVERIFY(log.contains("hudi-conf: hoodie.insert.shuffle.parallelism=10"));
        QVERIFY(log.contains("hudi-conf: hoodie.upsert.shuffle.parallelism=8"));
    }

    void cleanupTestCase() {
        if (m_service)
            m_service->stop();
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunSparkSubmit)
#include "tst_runsparksubmit.moc"
