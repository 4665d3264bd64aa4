// Cluster deploy mode against the stand-in spark-submit (tests/apps/spark-submit-standin, a standalone
// master's REST submission client that runs drivers as local processes): a run is submitted and its
// submission id recorded and shown, followed with --status to its true end, canceled with --kill,
// followed again by a restarted jobdeckd; the run id and the Hudi configs reach the driver; a
// submission the cluster manager forgets or spark-submit refuses ends FAILED with a clear message;
// options that do not go together are refused with one line.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/policy/RunEndMessages.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <signal.h>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

const QString kStandin = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-standin");
const QString kMaster = QStringLiteral("spark://127.0.0.1:6066");
const QRegularExpression kDriverId(QStringLiteral("^driver-\\d{14}-\\d{4}$"));
constexpr int kEndTimeoutMs =
    90000; // a run's end: submission, the driver, a few --status polls (JVM-free here)

QStringList clusterArguments(const QString& master) {
    return {"--runner", "spark-submit", "--spark-submit",           kStandin, "--deploy-mode", "cluster",
            "--master", master,         "--cluster-status-seconds", "1"};
}

std::function<bool(const nlohmann::json&)> hasSubmissionId() {
    return [](const nlohmann::json& run) {
        return run.contains("submissionId") && run["submissionId"].is_string();
    };
}

} // namespace

class TestClusterMode final : public QObject {
    Q_OBJECT

    QTemporaryDir m_sparkHome; // JOBDECK_STANDIN_SPARK_HOME: the stand-in master's state
    std::unique_ptr<TestService> m_service;
    Project m_project;

    nlohmann::json st(const QString& statement) { return runStatement(*m_service, m_project.op, statement); }
    bool createJob(const QString& name, const QStringList& parameters) {
        return statusOf(must(*m_service, m_project.op,
                             "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) +
                                 " CLUSTER = 'cc'")) == kSuccess;
    }
    // Starts a run and waits until its submission id is recorded; the run id and the submission id.
    QPair<QString, QString> submit(const QString& job) {
        const QString id = runIdOf(runJob(*m_service, m_project.op, job));
        if (id.isEmpty())
            return {};
        const auto run = waitForRun(*m_service, m_project.op, job, id, hasSubmissionId(), kEndTimeoutMs);
        return {id, QString::fromStdString(run.value("submissionId", std::string()))};
    }
    nlohmann::json waitForEnd(const QString& job, const QString& id) {
        return waitForRun(*m_service, m_project.op, job, id, hasEnded(), kEndTimeoutMs);
    }
    // The stand-in master's record of a driver (state, pids, exit code).
    QJsonObject driverRecord(const QString& driverId) const {
        QFile file(m_sparkHome.filePath("drivers/" + driverId + ".json"));
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object()
                                              : QJsonObject();
    }
    QString driverState(const QString& driverId) const {
        return driverRecord(driverId).value("state").toString();
    }
    // What the driver printed, on the stand-in's "worker".
    QString driverOutput(const QString& driverId) const {
        QFile file(m_sparkHome.filePath("work/" + driverId + "/stdout"));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }
    bool waitForDriverState(const QString& driverId, const QString& state) const {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < kEndTimeoutMs) {
            if (driverState(driverId) == state)
                return true;
            QThread::msleep(200);
        }
        qWarning("driver %s is %s, not %s", qPrintable(driverId), qPrintable(driverState(driverId)),
                 qPrintable(state));
        return false;
    }
    QString log(const QString& job, const QString& id) {
        return QString::fromUtf8(fullLog(*m_service, m_project.op, job, id));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_sparkHome.isValid());
        qputenv("JOBDECK_STANDIN_SPARK_HOME", m_sparkHome.path().toLocal8Bit());
        m_service = std::make_unique<TestService>(clusterArguments(kMaster));
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
        QVERIFY(m_project.create(*m_service));
        QCOMPARE(statusOf(st("CREATE CLUSTER cc TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1 WITH "
                             "'hoodie.insert.shuffle.parallelism' = '12'")),
                 std::string(kSuccess));
        QVERIFY(createJob(
            "ok", {"--hudi-conf", "hoodie.upsert.shuffle.parallelism=8", kPythonApp, "--sleep", "1"}));
        QVERIFY(createJob("bad", {kPythonApp, "--exit-code", "3"}));
        QVERIFY(createJob("long", {kPythonApp, "--sleep", "120"}));
        QVERIFY(createJob("short", {kPythonApp, "--sleep", "4"}));
        QVERIFY(createJob("shortbad", {kPythonApp, "--sleep", "4", "--exit-code", "5"}));
    }

    void cleanupTestCase() {
        // Drivers a failed test left running on the stand-in master.
        for (const auto& entry : QDir(m_sparkHome.filePath("drivers")).entryList({"*.json"})) {
            const QString driverId = entry.chopped(5);
            if (driverState(driverId) == "RUNNING")
                QProcess::execute(kStandin, {"--master", kMaster, "--kill", driverId});
        }
        m_service.reset();
    }

    void submitsRecordsTheSubmissionIdAndCompletes() {
        const auto [id, driverId] = submit("ok");
        QVERIFY(!id.isEmpty());
        QVERIFY2(kDriverId.match(driverId).hasMatch(), qPrintable(driverId));
        // Shown where runs are shown.
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'ok'");
        const auto runs = shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"];
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].value("submissionId", std::string()), driverId.toStdString());

        const auto end = waitForEnd("ok", id);
        QCOMPARE(end.value("status", std::string()), std::string(kCompleted));
        QVERIFY(end["message"].is_null());
        QCOMPARE(end.value("submissionId", std::string()), driverId.toStdString());
        QCOMPARE(driverState(driverId), QString("FINISHED"));

        // The log: what spark-submit printed, that the driver's own output is not here, the states.
        const QString text = log("ok", id);
        QVERIFY2(text.contains("Submission successfully created as " + driverId + "."), qPrintable(text));
        QVERIFY2(text.contains("its own output stays with the cluster manager"), qPrintable(text));
        QVERIFY2(text.contains("is not available here"), qPrintable(text));
        QVERIFY2(text.contains("spark-submit --status " + driverId + ": driver state FINISHED]"),
                 qPrintable(text));
        QVERIFY2(text.contains("\"driverState\" : \"FINISHED\""), qPrintable(text));
        QVERIFY2(!text.contains("run-id: "), qPrintable(text)); // the driver's output stayed on the "worker"
        QCOMPARE(logPage(*m_service, m_project.op, "ok", id, text.toUtf8().size()).header("X-Log-Complete"),
                 QByteArray("true"));
    }

    void runIdAndHudiConfigsReachTheDriver() {
        const auto [id, driverId] = submit("ok");
        QVERIFY(!driverId.isEmpty());
        QCOMPARE(waitForEnd("ok", id).value("status", std::string()), std::string(kCompleted));
        const QString output = driverOutput(driverId);
        // The environment (the stand-in gives spark.executorEnv.* to its one process, as to executors).
        QVERIFY2(output.contains("run-id: " + id + "\n"), qPrintable(output));
        for (const QString& conf :
             {"spark.onehouse.jobRunId=" + id, "spark.executorEnv.ONEHOUSE_JOB_RUN_ID=" + id,
              QString("spark.submit.deployMode=cluster"), "spark.master=" + kMaster,
              QString("spark.hadoop.hoodie.upsert.shuffle.parallelism=8"),
              QString("spark.hadoop.hoodie.insert.shuffle.parallelism=12")})
            QVERIFY2(output.contains("spark-conf: " + conf + "\n"), qPrintable(conf + " in\n" + output));
        QVERIFY2(!output.contains("spark.submit.deployMode=client"), qPrintable(output));
    }

    void aFailingDriverEndsFailed() {
        const auto [id, driverId] = submit("bad");
        QVERIFY(!driverId.isEmpty());
        const auto end = waitForEnd("bad", id);
        QCOMPARE(end.value("status", std::string()), std::string(kFailed));
        QCOMPARE(end.value("message", std::string()),
                 "The driver " + driverId.toStdString() + " failed in the cluster (FAILED)");
        QVERIFY(end["exitCode"].is_null()); // a standalone master does not report it
        QCOMPARE(driverRecord(driverId).value("exitCode").toInt(), 3);
    }

    // The cluster manager's reason for an ERROR quotes what the driver was given (here a file of --files
    // it could not fetch, whose name holds the value of the Job's secret): the run's message shows the
    // secret as ****, as the run's log does.
    void aClusterErrorShowsNoSecret() {
        const QString secret = "s3cr3t-7f2a";
        const QString missing = m_sparkHome.filePath("absent-" + secret + ".txt");
        QVERIFY(
            createJob("erring", {"--conf", "spark.db.password=" + secret, "--files", missing, kPythonApp}));
        const QString id = runIdOf(runJob(*m_service, m_project.op, "erring"));
        QVERIFY(!id.isEmpty());
        const auto end = waitForEnd("erring", id);
        QVERIFY2(end.value("status", std::string()) == kFailed, end.dump().c_str());
        QVERIFY2(end.contains("submissionId") && end["submissionId"].is_string(), end.dump().c_str());
        const QString driverId = QString::fromStdString(end["submissionId"].get<std::string>());
        const QString message = QString::fromStdString(end.value("message", std::string()));
        QVERIFY2(message.startsWith("The cluster could not run the driver " + driverId + " (ERROR): "),
                 qPrintable(message));
        QVERIFY2(message.contains("absent-****.txt"), qPrintable(message));
        QVERIFY2(!message.contains(secret), qPrintable(message));
        const auto described = st("DESCRIBE JOB_RUN `" + id + "` JOB_NAME = 'erring'").dump();
        QVERIFY2(!QString::fromStdString(described).contains(secret), described.c_str());
        const QString text = log("erring", id);
        QVERIFY2(text.contains("driver state ERROR]"), qPrintable(text));
        QVERIFY2(!text.contains(secret), qPrintable(text));
        QVERIFY2(!m_service->errorOutput().contains(secret), qPrintable(m_service->errorOutput()));
    }

    void cancelKillsTheDriver() {
        const auto [id, driverId] = submit("long");
        QVERIFY(!driverId.isEmpty());
        QVERIFY(waitForDriverState(driverId, "RUNNING"));
        const auto canceled = st("CANCEL JOB_RUN `" + id + "` JOB_NAME = 'long'");
        QCOMPARE(statusOf(canceled), std::string(kSuccess));
        const auto end = waitForEnd("long", id);
        QCOMPARE(end.value("status", std::string()), std::string(kCanceled));
        QCOMPARE(end.value("message", std::string()).rfind("Canceled by key ", 0), std::size_t(0));
        QCOMPARE(driverState(driverId), QString("KILLED"));
        const QString text = log("long", id);
        QVERIFY2(text.contains("spark-submit --kill " + driverId), qPrintable(text));
        QVERIFY2(text.contains("Kill request for " + driverId + " submitted"), qPrintable(text));
        QCOMPARE(errorOf(st("CANCEL JOB_RUN `" + id + "` JOB_NAME = 'long'")),
                 "Job run " + id.toStdString() + " is already CANCELED");
    }

    void aRestartedServiceFollowsToTheTrueOutcome() {
        const auto [good, goodDriver] = submit("short");
        const auto [bad, badDriver] = submit("shortbad");
        QVERIFY(!goodDriver.isEmpty() && !badDriver.isEmpty());
        QCOMPARE(m_service->stop(), 0);
        // Both drivers end while no jobdeckd follows them.
        QVERIFY(waitForDriverState(goodDriver, "FINISHED"));
        QVERIFY(waitForDriverState(badDriver, "FAILED"));
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));

        const auto goodEnd = waitForEnd("short", good);
        QCOMPARE(goodEnd.value("status", std::string()), std::string(kCompleted));
        QCOMPARE(goodEnd.value("submissionId", std::string()), goodDriver.toStdString());
        const auto badEnd = waitForEnd("shortbad", bad);
        QCOMPARE(badEnd.value("status", std::string()), std::string(kFailed));
        QCOMPARE(badEnd.value("message", std::string()),
                 "The driver " + badDriver.toStdString() + " failed in the cluster (FAILED)");
    }

    void aKilledServiceFollowsARunningDriverAfterItsRestart() {
        const auto [id, driverId] = submit("long");
        QVERIFY(!driverId.isEmpty());
        QVERIFY(waitForDriverState(driverId, "RUNNING"));
        m_service->kill9();
        QVERIFY2(m_service->start(), qPrintable(m_service->lastError()));
        QCOMPARE(describeRun(*m_service, m_project.op, "long", id).value("status", std::string()),
                 std::string(kRunning));
        // Canceled through the restarted service: its --kill reaches the same driver.
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + id + "` JOB_NAME = 'long'")), std::string(kSuccess));
        QCOMPARE(waitForEnd("long", id).value("status", std::string()), std::string(kCanceled));
        QCOMPARE(driverState(driverId), QString("KILLED"));
    }

    void aSubmissionTheMasterForgetsEndsFailed() {
        const auto [id, driverId] = submit("long");
        QVERIFY(!driverId.isEmpty());
        QVERIFY(waitForDriverState(driverId, "RUNNING"));
        const int pgid = driverRecord(driverId).value("pgid").toInt();
        const int supervisor = driverRecord(driverId).value("supervisorPid").toInt();
        QVERIFY(pgid > 1 && supervisor > 1);
        // The master loses the driver (as after a failover without recovery): --status finds nothing.
        ::kill(supervisor, SIGKILL);
        ::kill(-pgid, SIGKILL);
        QVERIFY(QFile::remove(m_sparkHome.filePath("drivers/" + driverId + ".json")));
        const auto end = waitForEnd("long", id);
        QCOMPARE(end.value("status", std::string()), std::string(kFailed));
        QCOMPARE(end.value("message", std::string()),
                 "The cluster manager at " + kMaster.toStdString() + " does not know the driver " +
                     driverId.toStdString() + " (3 answers in a row); its outcome cannot be known");
        const QString text = log("long", id);
        QVERIFY2(text.contains("spark-submit --status " + driverId + ": submission not found]"),
                 qPrintable(text));
    }

    void aRefusedSubmissionEndsFailed() {
        // The stand-in refuses any master but spark://, as spark-submit refuses what it cannot reach.
        TestService refusing(clusterArguments("k8s://https://127.0.0.1:1"));
        QVERIFY2(refusing.start(), qPrintable(refusing.lastError()));
        Project project;
        QVERIFY(project.create(refusing));
        QCOMPARE(
            statusOf(must(refusing, project.op, "CREATE CLUSTER cc TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")),
            std::string(kSuccess));
        QCOMPARE(statusOf(must(refusing, project.op,
                               "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp}) +
                                   " CLUSTER = 'cc'")),
                 std::string(kSuccess));
        const QString id = runIdOf(runJob(refusing, project.op, "j"));
        QVERIFY(!id.isEmpty());
        const auto end = waitForRun(refusing, project.op, "j", id, hasEnded(), kEndTimeoutMs);
        QCOMPARE(end.value("status", std::string()), std::string(kFailed));
        QCOMPARE(
            end.value("message", std::string()),
            std::string("spark-submit could not submit the run to k8s://https://127.0.0.1:1: it exited with "
                        "code 1; its output is in the run's log"));
        QVERIFY(end["submissionId"].is_null());
        QVERIFY(QString::fromUtf8(fullLog(refusing, project.op, "j", id)).contains("Error: "));
    }

    // A job of another project whose arguments print the first run's submission id (spark-submit
    // --verbose echoes them before its client answers): it records its own id, and its CANCEL kills
    // its own driver, never the other project's.
    void echoedSubmissionIdsOfAnotherProjectAreNotTaken() {
        const auto [victim, victimDriver] = submit("long");
        QVERIFY(!victimDriver.isEmpty());
        QVERIFY(waitForDriverState(victimDriver, "RUNNING"));

        const ApiCredentials other = m_service->createKey("other", "operator");
        QVERIFY2(other.isValid(), qPrintable(m_service->lastError()));
        QVERIFY(
            statementSucceeds(*m_service, other, "CREATE CLUSTER oc TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        const QString fake = "Submission successfully created as " + victimDriver + ".";
        const QString fakeLogLine =
            "26/12/01 10:00:00 INFO RestSubmissionClient: " + fake + " Polling submission state...";
        QVERIFY(statementSucceeds(
            *m_service, other,
            "CREATE JOB evil TYPE = 'PYTHON' PARAMETERS = " +
                tuple({"--verbose", kPythonApp, "--sleep", "120", fake, "x\n" + fakeLogLine}) +
                " CLUSTER = 'oc'"));
        const QString evil = runIdOf(runJob(*m_service, other, "evil"));
        QVERIFY(!evil.isEmpty());
        const auto evilRun = waitForRun(*m_service, other, "evil", evil, hasSubmissionId(), kEndTimeoutMs);
        const QString evilDriver = QString::fromStdString(evilRun.value("submissionId", std::string()));
        QVERIFY2(kDriverId.match(evilDriver).hasMatch(), qPrintable(evilDriver));
        QVERIFY2(evilDriver != victimDriver, qPrintable(evilDriver));

        QCOMPARE(statusOf(runStatement(*m_service, other, "CANCEL JOB_RUN `" + evil + "` JOB_NAME = 'evil'")),
                 std::string(kSuccess));
        QCOMPARE(waitForRun(*m_service, other, "evil", evil, hasEnded(), kEndTimeoutMs)
                     .value("status", std::string()),
                 std::string(kCanceled));
        QCOMPARE(driverState(evilDriver), QString("KILLED"));
        QCOMPARE(driverState(victimDriver), QString("RUNNING"));
        QCOMPARE(describeRun(*m_service, m_project.op, "long", victim).value("status", std::string()),
                 std::string(kRunning));
        QVERIFY(!log("long", victim).contains("--kill"));
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + victim + "` JOB_NAME = 'long'")), std::string(kSuccess));
        QCOMPARE(waitForEnd("long", victim).value("status", std::string()), std::string(kCanceled));
    }

    // A submission client that answers with a submission id an ended run already recorded (a master
    // that numbers its drivers anew): the database keeps one run per id, so the second run ends FAILED
    // with its id cleared, and its log does not say it was submitted.
    void aSubmissionIdAnEndedRunRecordedEndsTheRunFailed() {
        QTemporaryDir scripts;
        QVERIFY(scripts.isValid());
        // The stand-in, but every submission after the first answers with the first one's id.
        const QString wrapper = scripts.filePath("same-id-spark-submit");
        {
            QFile file(wrapper);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QStringLiteral(
                           "#!/bin/sh\n"
                           "standin='%1'\nfirst='%2'\n"
                           "case \" $* \" in *' --status '*|*' --kill '*) exec \"$standin\" \"$@\";; esac\n"
                           "out=$(\"$standin\" \"$@\" 2>&1); rc=$?\n"
                           "id=$(printf '%s\\n' \"$out\" | sed -n 's/.*Submission successfully created as "
                           "\\(driver-[0-9-]*\\)\\..*/\\1/p' | tail -n 1)\n"
                           "if [ -s \"$first\" ] && [ -n \"$id\" ]; then\n"
                           "  out=$(printf '%s\\n' \"$out\" | sed \"s/$id/$(cat \"$first\")/g\")\n"
                           "else\n"
                           "  printf '%s' \"$id\" > \"$first\"\n"
                           "fi\n"
                           "printf '%s\\n' \"$out\" >&2\n"
                           "exit $rc\n")
                           .arg(kStandin, scripts.filePath("first-id"))
                           .toUtf8());
        }
        QVERIFY(QFile::setPermissions(wrapper, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QStringList arguments = clusterArguments(kMaster);
        arguments[arguments.indexOf("--spark-submit") + 1] = wrapper;
        TestService reusing(arguments);
        QVERIFY2(reusing.start(), qPrintable(reusing.lastError()));
        Project project;
        QVERIFY(project.create(reusing));
        QVERIFY(statementSucceeds(reusing, project.op,
                                  "CREATE CLUSTER cc TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
        QVERIFY(statementSucceeds(reusing, project.op,
                                  "CREATE JOB j TYPE = 'PYTHON' PARAMETERS = " +
                                      tuple({kPythonApp, "--sleep", "1"}) + " CLUSTER = 'cc'"));
        const QString first = runIdOf(runJob(reusing, project.op, "j"));
        QVERIFY(!first.isEmpty());
        const auto firstEnd = waitForRun(reusing, project.op, "j", first, hasEnded(), kEndTimeoutMs);
        QCOMPARE(firstEnd.value("status", std::string()), std::string(kCompleted));
        const std::string driverId = firstEnd.value("submissionId", std::string());
        QVERIFY2(kDriverId.match(QString::fromStdString(driverId)).hasMatch(), driverId.c_str());

        const QString second = runIdOf(runJob(reusing, project.op, "j"));
        QVERIFY(!second.isEmpty());
        const auto end = waitForRun(reusing, project.op, "j", second, hasEnded(), kEndTimeoutMs);
        QCOMPARE(end.value("status", std::string()), std::string(kFailed));
        QCOMPARE(end.value("message", std::string()), submissionIdTakenMessage(driverId));
        QVERIFY(end["submissionId"].is_null());
        const QString text = QString::fromUtf8(fullLog(reusing, project.op, "j", second));
        QVERIFY2(text.contains(QString::fromStdString("Submission successfully created as " + driverId)),
                 qPrintable(text));
        QVERIFY2(!text.contains("[jobdeckd: submitted to"), qPrintable(text));
        QCOMPARE(describeRun(reusing, project.op, "j", first).value("submissionId", std::string()), driverId);
    }

    void optionsThatDoNotGoTogetherAreRefused_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("line");
        QTest::newRow("no runner")
            << QStringList{"--deploy-mode", "cluster", "--master", kMaster}
            << "jobdeckd: --deploy-mode cluster needs --runner spark-submit: drivers are "
               "submitted to the cluster with spark-submit\n";
        QTest::newRow("no master")
            << QStringList{"--deploy-mode", "cluster", "--runner", "spark-submit"}
            << "jobdeckd: --deploy-mode cluster needs --master <url> of the cluster "
               "manager to submit drivers to (spark://host:6066, k8s://https://host:port)\n";
        QTest::newRow("local master")
            << QStringList{"--deploy-mode", "cluster", "--runner", "spark-submit", "--master", "local[2]"}
            << "jobdeckd: --deploy-mode cluster cannot submit to --master local[2]: a "
               "local master has no cluster; give a spark:// or k8s:// master\n";
        QTest::newRow("master in client mode")
            << QStringList{"--runner", "spark-submit", "--master", kMaster}
            << "jobdeckd: --master is for --deploy-mode cluster; in client deploy mode drivers run on this "
               "host "
               "and no master is used, so leave --master out or add --deploy-mode cluster\n";
    }

    void optionsThatDoNotGoTogetherAreRefused() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, line);
        QTemporaryDir dataDir;
        const auto exit =
            TestService::runJobdeckd(QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir",
                                                 dataDir.path(), "--log-target", "stderr"} +
                                     arguments);
        QCOMPARE(exit.status, 1);
        QCOMPARE(QString::fromUtf8(exit.err), line);
        QVERIFY(exit.out.isEmpty());
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestClusterMode)
#include "tst_clustermode.moc"
