// The stand-in spark-submit (tests/apps/spark-submit-standin) that cluster-mode tests submit to: it
// answers as the standalone master's REST submission client does (submission id, driverState, kill)
// and runs the driver as a real process with what a cluster's worker would give it.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ProcessState.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <vector>

#include <signal.h>

namespace {

const QString kStandin = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-standin");
const QString kPythonApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
const QString kMaster = QStringLiteral("spark://127.0.0.1:6066");
constexpr int kCommandTimeoutMs = 30000; // one invocation; a busy machine starts python slowly
constexpr int kStateTimeoutMs = 60000;   // a driver reaching the awaited state
const QStringList kEndStates{"FINISHED", "FAILED", "KILLED", "ERROR"};

struct Invocation {
    int exitCode = -1; // -1: crashed or timed out
    QString err;
};

// The JSON a "Server responded with <type>:" line introduces (it runs to the end of the output).
QJsonObject responseAfter(const QString& output, const QString& type) {
    const qsizetype at = output.indexOf("Server responded with " + type + ":\n");
    if (at < 0)
        return {};
    const qsizetype brace = output.indexOf('{', at);
    const qsizetype end = output.lastIndexOf('}');
    return QJsonDocument::fromJson(output.mid(brace, end - brace + 1).toUtf8()).object();
}

} // namespace

class TestSparkSubmitStandin final : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_home; // JOBDECK_STANDIN_SPARK_HOME of the current test

    QProcessEnvironment environment(const QMap<QString, QString>& extra) const {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("JOBDECK_STANDIN_SPARK_HOME", m_home->path());
        for (auto it = extra.begin(); it != extra.end(); ++it)
            env.insert(it.key(), it.value());
        return env;
    }

    Invocation run(const QStringList& arguments, const QMap<QString, QString>& extraEnv = {}) const {
        QProcess process;
        process.setProcessEnvironment(environment(extraEnv));
        process.start(kStandin, arguments);
        Invocation result;
        if (!process.waitForFinished(kCommandTimeoutMs)) {
            process.kill();
            process.waitForFinished(5000);
            result.err = "timed out: " + QString::fromUtf8(process.readAllStandardError());
            return result;
        }
        result.err = QString::fromUtf8(process.readAllStandardError());
        if (process.exitStatus() == QProcess::NormalExit)
            result.exitCode = process.exitCode();
        return result;
    }

    // Submits kPythonApp with `appArguments`; the driver id, or empty (the output is logged).
    QString submit(const QStringList& appArguments, const QStringList& options = {},
                   const QMap<QString, QString>& extraEnv = {}) const {
        const Invocation submitted = run(QStringList{"--master", kMaster, "--deploy-mode", "cluster"} +
                                             options + QStringList{kPythonApp} + appArguments,
                                         extraEnv);
        static const QRegularExpression created(QStringLiteral(
            "Submission successfully created as (driver-\\d{14}-\\d{4,})\\. Polling submission state"));
        const auto match = created.match(submitted.err);
        if (submitted.exitCode != 0 || !match.hasMatch()) {
            qWarning().noquote() << "submission failed:" << submitted.exitCode << submitted.err;
            return {};
        }
        return match.captured(1);
    }

    QJsonObject status(const QString& driverId) const {
        return responseAfter(run({"--master", kMaster, "--status", driverId}).err,
                             "SubmissionStatusResponse");
    }

    // Polls --status until driverState is `state` or another end state; the last state seen.
    QString waitForState(const QString& driverId, const QString& state) const {
        QDeadlineTimer deadline(kStateTimeoutMs);
        QString seen;
        while (!deadline.hasExpired()) {
            seen = status(driverId).value("driverState").toString();
            if (seen == state || kEndStates.contains(seen))
                break;
            QTest::qWait(300);
        }
        return seen;
    }

    QJsonObject record(const QString& driverId) const {
        QFile file(m_home->filePath("drivers/" + driverId + ".json"));
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object()
                                              : QJsonObject();
    }

    QStringList driverOutput(const QString& driverId) const {
        QFile file(record(driverId).value("stdout").toString());
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).split('\n') : QStringList();
    }

    // A failed test may leave a driver running: end every process the stand-in started.
    void killLeftovers() const {
        const QDir drivers(m_home->filePath("drivers"));
        for (const QString& name : drivers.entryList({"*.json"}, QDir::Files)) {
            const QJsonObject r = record(name.chopped(5));
            if (const int pgid = r.value("pgid").toInt(); pgid > 0)
                ::killpg(pgid, SIGKILL);
            if (const int supervisor = r.value("supervisorPid").toInt(); supervisor > 0)
                ::kill(supervisor, SIGKILL);
        }
    }

private slots:
    void initTestCase() {
        QVERIFY2(!QStandardPaths::findExecutable("python3").isEmpty(),
                 "python3 is needed (bash packaging/install-deps.sh installs it)");
        QVERIFY2(QFileInfo(kStandin).isExecutable(), qPrintable(kStandin + " is not executable"));
    }

    void init() {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
    }

    void cleanup() {
        killLeftovers();
        m_home.reset();
    }

    void submissionPrintsTheClientsAnswer() {
        const Invocation submitted =
            run({"--master", kMaster, "--deploy-mode", "cluster", "--name", "n", kPythonApp, "--lines", "1"});
        QCOMPARE(submitted.exitCode, 0);
        static const QRegularExpression created(QStringLiteral("created as (driver-\\d{14}-\\d{4})\\."));
        const QString id = created.match(submitted.err).captured(1);
        QVERIFY2(!id.isEmpty(), qPrintable(submitted.err));
        QVERIFY(submitted.err.contains("Submitting a request to launch an application in " + kMaster + "."));
        QVERIFY(submitted.err.contains(
            QRegularExpression("State of driver " + id + " is now (RUNNING|FINISHED)\\.")));
        const QJsonObject response = responseAfter(submitted.err, "CreateSubmissionResponse");
        QCOMPARE(response.value("action").toString(), QString("CreateSubmissionResponse"));
        QCOMPARE(response.value("submissionId").toString(), id);
        QCOMPARE(response.value("success").toBool(), true);
        QCOMPARE(response.value("message").toString(), "Driver successfully submitted as " + id);
    }

    void finishedDriver() {
        const QString id = submit({"--lines", "2"});
        QVERIFY(!id.isEmpty());
        QCOMPARE(waitForState(id, "FINISHED"), QString("FINISHED"));
        const QJsonObject answer = status(id);
        QCOMPARE(answer.value("success").toBool(), true);
        QCOMPARE(answer.value("submissionId").toString(), id);
        QVERIFY(!answer.value("workerId").toString().isEmpty());
        QCOMPARE(record(id).value("exitCode").toInt(-1), 0);
        const QStringList output = driverOutput(id);
        QVERIFY2(output.contains("line 2") && output.contains("done"), qPrintable(output.join('\n')));
    }

    void failingDriver() {
        const QString id = submit({"--exit-code", "3"});
        QVERIFY(!id.isEmpty());
        QCOMPARE(waitForState(id, "FAILED"), QString("FAILED"));
        QCOMPARE(record(id).value("exitCode").toInt(), 3);
    }

    void killedDriver() {
        const QString id = submit({"--sleep", "300"});
        QVERIFY(!id.isEmpty());
        QCOMPARE(status(id).value("driverState").toString(), QString("RUNNING"));
        const qint64 pid = record(id).value("pid").toInteger();
        QVERIFY(jobdeck::test::processIsRunning(pid));

        const Invocation killed = run({"--master", kMaster, "--kill", id});
        QCOMPARE(killed.exitCode, 0);
        const QJsonObject answer = responseAfter(killed.err, "KillSubmissionResponse");
        QCOMPARE(answer.value("success").toBool(), true);
        QCOMPARE(answer.value("message").toString(), "Kill request for " + id + " submitted");
        QVERIFY2(killed.err.contains(id + " is killed successfully."), qPrintable(killed.err));

        QCOMPARE(waitForState(id, "KILLED"), QString("KILLED"));
        QVERIFY(!jobdeck::test::processIsRunning(pid));
        const Invocation again = run({"--master", kMaster, "--kill", id});
        QCOMPARE(responseAfter(again.err, "KillSubmissionResponse").value("success").toBool(true), false);
        QVERIFY2(again.err.contains("Error: Driver " + id + " has already finished or does not exist"),
                 qPrintable(again.err));
    }

    void unknownSubmission() {
        const Invocation answer = run({"--master", kMaster, "--status", "driver-20000101000000-9999"});
        QCOMPARE(answer.exitCode, 0); // the real client ends normally too
        QVERIFY2(answer.err.contains("Error: Server responded with message of unexpected type "
                                     "SubmissionStatusResponse."),
                 qPrintable(answer.err));
        QVERIFY(!answer.err.contains("driverState"));
    }

    void missingApplicationIsAnError() {
        const Invocation submitted =
            run({"--master", kMaster, "--deploy-mode", "cluster", m_home->filePath("absent.py")});
        QCOMPARE(submitted.exitCode, 0); // the master accepts it; its worker cannot start it
        const QString id = QRegularExpression("created as (driver-\\S+)\\.").match(submitted.err).captured(1);
        QVERIFY2(!id.isEmpty(), qPrintable(submitted.err));
        const QJsonObject answer = status(id);
        QCOMPARE(answer.value("driverState").toString(), QString("ERROR"));
        QVERIFY(answer.value("message").toString().startsWith("Exception from the cluster:\n"));
    }

    // As when a worker is lost: the master reports an unsupervised driver as ERROR.
    void lostSupervisorIsAnError() {
        const QString id = submit({"--sleep", "300"});
        QVERIFY(!id.isEmpty());
        const int supervisor = record(id).value("supervisorPid").toInt();
        QVERIFY(jobdeck::test::processIsRunning(supervisor));
        QCOMPARE(::kill(supervisor, SIGKILL), 0);
        QCOMPARE(waitForState(id, "ERROR"), QString("ERROR"));
    }

    // The driver gets its Spark configuration and spark.executorEnv.* as on a cluster, not the
    // submitter's environment.
    void runIdReachesTheDriverThroughItsConfiguration() {
        const QMap<QString, QString> submitterEnv{{"ONEHOUSE_JOB_RUN_ID", "from-the-submitter"}};
        const QString id = submit({},
                                  {"--conf", "spark.onehouse.jobRunId=run-42", "--conf",
                                   "spark.executorEnv.ONEHOUSE_JOB_RUN_ID=run-42"},
                                  submitterEnv);
        QVERIFY(!id.isEmpty());
        QCOMPARE(waitForState(id, "FINISHED"), QString("FINISHED"));
        const QStringList output = driverOutput(id);
        QVERIFY2(output.contains("run-id: run-42"), qPrintable(output.join('\n')));
        QVERIFY(output.contains("spark-conf: spark.onehouse.jobRunId=run-42"));
        QVERIFY(output.contains("spark-conf: spark.submit.deployMode=cluster"));
        QVERIFY(output.contains("spark-conf: spark.master=" + kMaster));

        const QString plain = submit({}, {}, submitterEnv);
        QVERIFY(!plain.isEmpty());
        QCOMPARE(waitForState(plain, "FINISHED"), QString("FINISHED"));
        QVERIFY2(driverOutput(plain).contains("run-id: <unset>"), qPrintable(driverOutput(plain).join('\n')));
    }

    void concurrentSubmissionsGetDistinctIds() {
        std::vector<std::unique_ptr<QProcess>> processes;
        for (int i = 0; i < 4; ++i) {
            processes.push_back(std::make_unique<QProcess>());
            processes.back()->setProcessEnvironment(environment({}));
            processes.back()->start(kStandin, {"--master", kMaster, "--deploy-mode", "cluster", kPythonApp});
        }
        QSet<QString> ids;
        for (auto& process : processes) {
            QVERIFY(process->waitForFinished(kCommandTimeoutMs));
            QCOMPARE(process->exitCode(), 0);
            const QString err = QString::fromUtf8(process->readAllStandardError());
            ids.insert(responseAfter(err, "CreateSubmissionResponse").value("submissionId").toString());
        }
        ids.remove(QString());
        QCOMPARE(ids.size(), 4);
        QCOMPARE(QDir(m_home->filePath("drivers")).entryList({"*.json"}, QDir::Files).size(), 4);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestSparkSubmitStandin)
#include "tst_sparksubmitstandin.moc"
