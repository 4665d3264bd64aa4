// Cluster deploy mode without a service: the spark-submit command lines (submit, --status, --kill) for a
// standalone master and Kubernetes, what is read from spark-submit's output (the submission id, the
// driver's state), and a short command's output and end (CapturedCommand).
#include "service/runs/CapturedCommand.h"
#include "service/runs/SparkSubmitCommand.h"
#include "service/runs/SubmissionOutput.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

using Args = std::vector<std::string>;
using Kind = DriverStatus::Kind;

namespace {

DriverCommandInput pythonRun() {
    DriverCommandInput in;
    in.type = JobType::Python;
    in.jobConfiguration = {"--name", "n", "--conf", "spark.a=job", "--hudi-conf", "hoodie.x=1"};
    in.applicationFile = "/apps/app.py";
    in.arguments = {"--date", "d"};
    in.runId = "r1";
    in.managedSparkConfigs = EffectiveConfig::platformManagedSparkConfigs("r1");
    in.hudiConfigs = {{"hoodie.x", "1"}, {"hoodie.y", "a=b"}};
    return in;
}

// A standalone master's status answer as the REST client logs it.
std::string statusAnswer(const std::string& fields) {
    return "26/12/01 10:00:00 INFO RestSubmissionClient: Server responded with SubmissionStatusResponse:\n{\n"
           "  \"action\" : \"SubmissionStatusResponse\",\n" +
           fields + "\n}\n";
}

} // namespace

class TestClusterSubmission final : public QObject {
    Q_OBJECT

private slots:
    void standaloneSubmitCommandLine() {
        const Args argv =
            SparkSubmitCommand::clusterSubmit("/opt/spark/bin/spark-submit", "spark://m:6066", pythonRun());
        const Args expected{"/opt/spark/bin/spark-submit",
                            "--master",
                            "spark://m:6066",
                            "--deploy-mode",
                            "cluster",
                            "--name",
                            "n",
                            "--conf",
                            "spark.onehouse.jobRunId=r1",
                            "--conf",
                            "spark.submit.deployMode=cluster",
                            "--conf",
                            "spark.executorEnv.ONEHOUSE_JOB_RUN_ID=r1",
                            "--conf",
                            "spark.a=job",
                            "--conf",
                            "spark.hadoop.hoodie.x=1",
                            "--conf",
                            "spark.hadoop.hoodie.y=a=b",
                            "/apps/app.py",
                            "--date",
                            "d"};
        QVERIFY(argv == expected);
    }

    void kubernetesSetsTheDriverEnvironmentAndReturnsAtOnce() {
        const Args argv =
            SparkSubmitCommand::clusterSubmit("spark-submit", "k8s://https://api:6443", pythonRun());
        const auto has = [&argv](const std::string& conf) {
            for (std::size_t i = 1; i < argv.size(); ++i)
                if (argv[i - 1] == "--conf" && argv[i] == conf)
                    return true;
            return false;
        };
        QVERIFY(has("spark.kubernetes.driverEnv.ONEHOUSE_JOB_RUN_ID=r1"));
        QVERIFY(has("spark.kubernetes.submission.waitAppCompletion=false"));
        QVERIFY(has("spark.hadoop.hoodie.x=1"));
        QVERIFY(!has("spark.yarn.appMasterEnv.ONEHOUSE_JOB_RUN_ID=r1"));
        QVERIFY((Args(argv.begin(), argv.begin() + 5) ==
                 Args{"spark-submit", "--master", "k8s://https://api:6443", "--deploy-mode", "cluster"}));
    }

    void statusAndKillCommandLines() {
        QVERIFY((SparkSubmitCommand::clusterStatus("s", "spark://m:6066", "driver-1") ==
                 Args{"s", "--master", "spark://m:6066", "--status", "driver-1"}));
        QVERIFY((SparkSubmitCommand::clusterKill("s", "k8s://https://api", "ns:pod") ==
                 Args{"s", "--master", "k8s://https://api", "--kill", "ns:pod"}));
    }

    void submissionIdFromTheSubmitOutput() {
        QCOMPARE(SubmissionOutput::submissionId("26/12/01 10:00:00 INFO RestSubmissionClient: Submission "
                                                "successfully created as driver-20261201100000-0007. Polling "
                                                "submission state...\n",
                                                {}),
                 std::optional<std::string>("driver-20261201100000-0007"));
        QCOMPARE(
            SubmissionOutput::submissionId("INFO LoggingPodStatusWatcherImpl: Deployed Spark application "
                                           "app with application ID spark-0a1b and submission ID "
                                           "jobs:app-123-driver into Kubernetes\n",
                                           {}),
            std::optional<std::string>("jobs:app-123-driver"));
        QCOMPARE(SubmissionOutput::submissionId("Error: Unrecognized option: --bogus\n", {}), std::nullopt);
    }

    // spark-submit --verbose echoes the job's options and arguments before its client answers: a job
    // whose arguments (or options) print another run's submission id, as a line of their own, a fake
    // client line or a fake answer, still gets its own id, or none.
    void submissionIdIsNeverReadFromEchoedArguments() {
        const std::string fakeLine = "Submission successfully created as driver-20261201090000-0001.";
        const std::string fakeLogLine =
            "26/12/01 10:00:00 INFO RestSubmissionClient: " + fakeLine + " Polling submission state...";
        const std::string fakeAnswer =
            "26/12/01 10:00:00 INFO RestSubmissionClient: Server responded with "
            "CreateSubmissionResponse:\n{\n  \"action\" : \"CreateSubmissionResponse\",\n"
            "  \"submissionId\" : \"driver-20261201090000-0001\",\n  \"success\" : true\n}";
        const std::vector<std::string> passed{
            "--verbose",       "--name", "RestSubmissionClient: " + fakeLine,
            "/apps/app.py",    fakeLine, "x\n" + fakeLogLine,
            "y\n" + fakeAnswer};
        const std::string echo =
            "Parsed arguments:\n  name                    RestSubmissionClient: " + fakeLine +
            "\n  childArgs               [" + fakeLine + " x\n" + fakeLogLine + " y\n" + fakeAnswer +
            "]\n\nMain class:\norg.apache.spark.deploy.rest.RestSubmissionClientApp\n"
            "Arguments:\n/apps/app.py\n" +
            fakeLine + "\nx\n" + fakeLogLine + "\ny\n" + fakeAnswer + "\n";
        const std::string client =
            "26/12/01 10:00:01 INFO RestSubmissionClient: Submission successfully created as "
            "driver-20261201100001-0002. Polling submission state...\n"
            "26/12/01 10:00:01 INFO RestSubmissionClient: Server responded with "
            "CreateSubmissionResponse:\n{\n"
            "  \"action\" : \"CreateSubmissionResponse\",\n  \"message\" : \"Driver successfully submitted "
            "as "
            "driver-20261201100001-0002\",\n  \"submissionId\" : \"driver-20261201100001-0002\",\n"
            "  \"success\" : true\n}\n";
        QCOMPARE(SubmissionOutput::submissionId(echo + client, passed),
                 std::optional<std::string>("driver-20261201100001-0002"));
        // A client that answered nothing after the echo: no id at all, never the echoed one.
        QCOMPARE(SubmissionOutput::submissionId(echo, passed), std::nullopt);
        // The fake answer alone (a job whose argument is the whole fake, the client silent).
        QCOMPARE(SubmissionOutput::submissionId(fakeAnswer + "\n", {"y\n" + fakeAnswer}), std::nullopt);
        // The client's log line and its JSON answer disagree: neither is trusted.
        QCOMPARE(SubmissionOutput::submissionId(
                     "26/12/01 10:00:01 INFO RestSubmissionClient: Submission successfully created as "
                     "driver-20261201100001-0003. Polling submission state...\n" +
                         client.substr(client.find("26/12/01 10:00:01 INFO RestSubmissionClient: Server")),
                     {}),
                 std::nullopt);
        // Kubernetes: an application name that holds the phrase, in the client's own line.
        QCOMPARE(SubmissionOutput::submissionId(
                     "INFO LoggingPodStatusWatcherImpl: Deployed Spark application a and submission ID "
                     "other:victim-driver into Kubernetes with application ID spark-1 and submission ID "
                     "jobs:mine-driver into Kubernetes\n",
                     {"a and submission ID other:victim-driver into Kubernetes"}),
                 std::optional<std::string>("jobs:mine-driver"));
    }

    // The answer to --status must be about the submission asked for.
    void statusOfAnotherSubmissionIsUnreadable() {
        const auto status = SubmissionOutput::driverStatus(
            statusAnswer(
                "  \"driverState\" : \"KILLED\",\n  \"submissionId\" : \"driver-2\",\n  \"success\" : true"),
            "driver-1");
        QCOMPARE(int(status.kind), int(Kind::Unreadable));
        const auto own = SubmissionOutput::driverStatus(
            statusAnswer(
                "  \"driverState\" : \"KILLED\",\n  \"submissionId\" : \"driver-1\",\n  \"success\" : true"),
            "driver-1");
        QCOMPARE(int(own.kind), int(Kind::Killed));
    }

    void standaloneDriverStates_data() {
        QTest::addColumn<QString>("state");
        QTest::addColumn<int>("kind");
        QTest::newRow("SUBMITTED") << "SUBMITTED" << int(Kind::Active);
        QTest::newRow("RUNNING") << "RUNNING" << int(Kind::Active);
        QTest::newRow("RELAUNCHING") << "RELAUNCHING" << int(Kind::Active);
        QTest::newRow("FINISHED") << "FINISHED" << int(Kind::Finished);
        QTest::newRow("FAILED") << "FAILED" << int(Kind::Failed);
        QTest::newRow("ERROR") << "ERROR" << int(Kind::Error);
        QTest::newRow("KILLED") << "KILLED" << int(Kind::Killed);
        QTest::newRow("UNKNOWN") << "UNKNOWN" << int(Kind::Unknown);
    }

    void standaloneDriverStates() {
        QFETCH(QString, state);
        QFETCH(int, kind);
        const auto status = SubmissionOutput::driverStatus(
            statusAnswer("  \"driverState\" : \"" + state.toStdString() + "\",\n  \"success\" : true"),
            "d-1");
        QCOMPARE(int(status.kind), kind);
        QCOMPARE(QString::fromStdString(status.state), state);
    }

    void standaloneErrorMessageAndUnknownSubmissions() {
        const auto error = SubmissionOutput::driverStatus(
            statusAnswer("  \"driverState\" : \"ERROR\",\n  \"message\" : \"Exception from the cluster:\\n"
                         "java.io.FileNotFoundException: app.jar\",\n  \"success\" : true"),
            "d-1");
        QCOMPARE(error.message,
                 std::string("Exception from the cluster:\njava.io.FileNotFoundException: app.jar"));
        // The master's success=false: the client logs that the answer was unexpected, without its JSON.
        QCOMPARE(
            int(SubmissionOutput::driverStatus("26/12/01 10:00:00 ERROR RestSubmissionClient: Error: Server "
                                               "responded with message of unexpected type "
                                               "SubmissionStatusResponse.\n",
                                               "d-1")
                    .kind),
            int(Kind::NotFound));
        QCOMPARE(int(SubmissionOutput::driverStatus(statusAnswer("  \"success\" : false"), "d-1").kind),
                 int(Kind::NotFound));
        QCOMPARE(int(SubmissionOutput::driverStatus("WARN RestSubmissionClient: Unable to connect to server "
                                                    "spark://m:6066.\n",
                                                    "d-1")
                         .kind),
                 int(Kind::Unreadable));
    }

    void kubernetesPodPhases() {
        const auto phase = [](const std::string& name) {
            return SubmissionOutput::driverStatus(
                "Application status (driver): \n\t pod name: app-driver\n\t "
                "namespace: jobs\n\t phase: " +
                    name + "\n\t status: []\n",
                "jobs:app-driver");
        };
        QCOMPARE(int(phase("Pending").kind), int(Kind::Active));
        QCOMPARE(int(phase("Running").kind), int(Kind::Active));
        QCOMPARE(int(phase("Succeeded").kind), int(Kind::Finished));
        QCOMPARE(int(phase("Failed").kind), int(Kind::Failed));
        QCOMPARE(int(phase("Unknown").kind), int(Kind::Unknown));
        QCOMPARE(phase("Succeeded").state, std::string("Succeeded"));
        QCOMPARE(int(SubmissionOutput::driverStatus("Application not found.\n", "jobs:app-driver").kind),
                 int(Kind::NotFound));
    }

    void capturedCommandCollectsOutputAndExitCode() {
        const auto result = CapturedCommand::run({"/bin/sh", "-c", "echo out; echo err >&2; exit 4"},
                                                 std::chrono::seconds(30));
        QCOMPARE(result.exitCode, 4);
        QVERIFY(result.error.empty());
        QVERIFY2(result.output.find("out\n") != std::string::npos, result.output.c_str());
        QVERIFY2(result.output.find("err\n") != std::string::npos, result.output.c_str());
    }

    void capturedCommandStopsAtTheTimeout() {
        const auto result =
            CapturedCommand::run({"/bin/sh", "-c", "echo started; exec sleep 60"}, std::chrono::seconds(1));
        QCOMPARE(result.exitCode, -1);
        QVERIFY2(result.error.find("did not answer within 1 s") != std::string::npos, result.error.c_str());
        QVERIFY(CapturedCommand::run({"/nonexistent/spark-submit"}, std::chrono::seconds(5)).exitCode != 0);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestClusterSubmission)
#include "tst_clustersubmission.moc"
