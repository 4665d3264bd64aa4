// Driver command lines (spark-submit and the local runner) and application path resolution.
#include "service/runs/ApplicationPathResolver.h"
#include "service/runs/SparkSubmitCommand.h"
#include "tests/runner/SuiteRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;

using Args = std::vector<std::string>;

class TestRunCommand final : public QObject {
    Q_OBJECT

private slots:
    void sparkSubmitKeepsOptionsOrderAndLayersConfigs() {
        DriverCommandInput in;
        in.jobConfiguration = {"--class",
                               "com.example.App",
                               "--conf",
                               "spark.a=job",
                               "--hudi-conf",
                               "hoodie.x=1",
                               "--name=my app",
                               "-c",
                               "spark.b=2",
                               "--conf=hoodie.y=3",
                               "--conf",
                               "spark.onehouse.jobRunId=forged",
                               "--verbose",
                               "--conf",
                               "spark.submit.deployMode=cluster"};
        in.applicationFile = "/apps/app.jar";
        in.arguments = {"--date", "2024-01-01"};
        in.runId = "r1";
        in.defaultSparkConfigs = {{"spark.a", "cluster"},
                                  {"spark.c", "cluster"},
                                  {"spark.serializer", "kryo"},
                                  {"spark.remote", "x"}};
        in.managedSparkConfigs = {{"spark.submit.deployMode", "client"}, {"spark.onehouse.jobRunId", "r1"}};
        const Args expected{"/spark/bin/spark-submit",
                            "--class",
                            "com.example.App",
                            "--name=my app",
                            "--verbose",
                            "--conf",
                            "spark.onehouse.jobRunId=r1",
                            "--conf",
                            "spark.submit.deployMode=client",
                            "--conf",
                            "spark.c=cluster",
                            "--conf",
                            "spark.serializer=kryo",
                            "--conf",
                            "spark.a=job",
                            "--conf",
                            "spark.b=2",
                            "/apps/app.jar",
                            "--date",
                            "2024-01-01"};
        QCOMPARE(SparkSubmitCommand::sparkSubmit("/spark/bin/spark-submit", in), expected);
    }

    void localRunner() {
        DriverCommandInput in;
        in.jobConfiguration = {"--class=com.example.App", "--conf", "spark.a=1"};
        in.applicationFile = "/apps/app.jar";
        in.arguments = {"a", "--b=c"};
        in.runId = "r1";
        in.managedSparkConfigs = {{"spark.onehouse.jobRunId", "r1"},
                                  {"spark.executorEnv.ONEHOUSE_JOB_RUN_ID", "r1"}};
        // A JVM's SparkConf reads the spark.* system properties: the run id reaches driver and executors.
        QCOMPARE(SparkSubmitCommand::local(in),
                 (Args{"java", "-Dspark.onehouse.jobRunId=r1", "-Dspark.executorEnv.ONEHOUSE_JOB_RUN_ID=r1",
                       "-Dspark.a=1", "-cp", "/apps/app.jar", "com.example.App", "a", "--b=c"}));
        QVERIFY(SparkSubmitCommand::localEnvironment(in).empty());
        in.jobConfiguration = {};
        QCOMPARE(SparkSubmitCommand::local(in),
                 (Args{"java", "-Dspark.onehouse.jobRunId=r1", "-Dspark.executorEnv.ONEHOUSE_JOB_RUN_ID=r1",
                       "-jar", "/apps/app.jar", "a", "--b=c"}));
        in.type = JobType::Python;
        in.applicationFile = "/apps/app.py";
        in.jobConfiguration = {"--conf", "spark.app.name=it's mine"};
        QCOMPARE(SparkSubmitCommand::local(in), (Args{"python3", "/apps/app.py", "a", "--b=c"}));
        // PySpark shell-splits PYSPARK_SUBMIT_ARGS for the spark-submit it starts.
        using Env = std::vector<std::pair<std::string, std::string>>;
        QCOMPARE(
            SparkSubmitCommand::localEnvironment(in),
            (Env{{"PYSPARK_SUBMIT_ARGS",
                  "--conf 'spark.onehouse.jobRunId=r1' --conf 'spark.executorEnv.ONEHOUSE_JOB_RUN_ID=r1' "
                  "--conf 'spark.app.name=it'\\''s mine' pyspark-shell"}}));
    }

    void jobConfigurationIsWhatPrecedesThePath() {
        SparkJob job;
        job.parameters = {"--class", "X", "s3://b/app.jar", "--date", "d"};
        job.applicationPath = "s3://b/app.jar";
        job.arguments = {"--date", "d"};
        QCOMPARE(SparkSubmitCommand::jobConfigurationOf(job), (Args{"--class", "X"}));
    }

    void resolvesPaths() {
        QTemporaryDir dir;
        const std::string data = dir.path().toStdString();
        ApplicationPathResolver resolver(data, {{"mapped", data + "/elsewhere"}});
        QCOMPARE(resolver.map("/abs/app.py").localPath, std::string("/abs/app.py"));
        QCOMPARE(resolver.map("file:///abs/app.py").localPath, std::string("/abs/app.py"));
        QCOMPARE(resolver.map("s3://bucket/jobs/app.jar").localPath, data + "/s3/bucket/jobs/app.jar");
        QCOMPARE(resolver.map("s3a://mapped/app.jar").localPath, data + "/elsewhere/app.jar");
        QCOMPARE(resolver.map("s3://bucket/../../etc/passwd").error,
                 std::string("Application file s3://bucket/../../etc/passwd does not exist"));
        QVERIFY(resolver.map("gs://bucket/app.jar").error.find("only local paths, file:// and s3://") !=
                std::string::npos);

        QCOMPARE(resolver.resolve("s3://bucket/jobs/app.jar").error,
                 std::string("Application file s3://bucket/jobs/app.jar does not exist"));
        QVERIFY(QDir().mkpath(dir.filePath("s3/bucket/jobs")));
        QFile file(dir.filePath("s3/bucket/jobs/app.jar"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const auto found = resolver.resolve("s3://bucket/jobs/app.jar");
        QVERIFY(found.error.empty());
        QCOMPARE(found.localPath, data + "/s3/bucket/jobs/app.jar");
    }

    void parsesMappings() {
        QCOMPARE(ApplicationPathResolver::parseMapping("b=/d"),
                 (std::optional<std::pair<std::string, std::string>>(
                     std::make_pair(std::string("b"), std::string("/d")))));
        QVERIFY(!ApplicationPathResolver::parseMapping("b"));
        QVERIFY(!ApplicationPathResolver::parseMapping("=d"));
        QVERIFY(!ApplicationPathResolver::parseMapping("b="));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunCommand)
#include "tst_runcommand.moc"
