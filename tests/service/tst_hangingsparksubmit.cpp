// Cluster deploy mode with a spark-submit whose `--status` hangs (tests/apps/spark-submit-hanging over
// the stand-in): with its output closed and still running, or gone while a grandchild holds its output
// open. The other runs are still followed to their end, and SIGTERM ends jobdeckd within its
// --shutdown-grace.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

const QString kHanging = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-hanging");
const QString kStandin = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/spark-submit-standin");
const QString kMaster = QStringLiteral("spark://127.0.0.1:6066");
constexpr int kGraceSeconds = 5;
constexpr int kEndTimeoutMs = 90000; // a run's end: submission, the driver, a few --status polls

std::function<bool(const nlohmann::json&)> hasSubmissionId() {
    return [](const nlohmann::json& run) {
        return run.contains("submissionId") && run["submissionId"].is_string();
    };
}

} // namespace

class TestHangingSparkSubmit final : public QObject {
    Q_OBJECT

    QTemporaryDir m_sparkHome; // JOBDECK_STANDIN_SPARK_HOME: the stand-in master's state

    // Makes `--status <submissionId>` hang as `how` says (spark-submit-hanging).
    bool hangStatusOf(const std::string& submissionId, const QString& how) {
        QFile list(m_sparkHome.filePath("hang-status"));
        if (!list.open(QIODevice::Append))
            return false;
        list.write((how + ' ' + QString::fromStdString(submissionId) + '\n').toUtf8());
        return true;
    }

    // A hung `--status` of one run (its driver runs for two minutes), then a short run, which must
    // still be followed to its end; then SIGTERM, which must end the service within its grace.
    void hungStatusHoldsUpNeitherTrackingNorShutdown(const QString& how) {
        TestService service({"--runner", "spark-submit", "--spark-submit", kHanging, "--deploy-mode",
                             "cluster", "--master", kMaster, "--cluster-status-seconds", "1",
                             "--shutdown-grace", QString::number(kGraceSeconds)});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        Project project;
        QVERIFY(project.create(service));
        QVERIFY(createClusterAndPythonJob(service, project.op, "cc", "stuck", {"--sleep", "120"}));
        QCOMPARE(statusOf(must(service, project.op,
                               "CREATE JOB quick TYPE = 'PYTHON' PARAMETERS = " +
                                   tuple({kPythonApp, "--sleep", "3"}) + " CLUSTER = 'cc'")),
                 std::string(kSuccess));

        const QString stuck = runIdOf(runJob(service, project.op, "stuck"));
        QVERIFY(!stuck.isEmpty());
        const auto submitted =
            waitForRun(service, project.op, "stuck", stuck, hasSubmissionId(), kEndTimeoutMs);
        QVERIFY2(hasSubmissionId()(submitted), submitted.dump().c_str());
        const std::string driverId = submitted["submissionId"].get<std::string>();
        QVERIFY(hangStatusOf(driverId, how));

        const QString quick = runIdOf(runJob(service, project.op, "quick"));
        QVERIFY(!quick.isEmpty());
        const auto end = waitForRun(service, project.op, "quick", quick, hasEnded(), kEndTimeoutMs);
        QCOMPARE(end.value("status", std::string()), std::string(kCompleted));

        QElapsedTimer stopping;
        stopping.start();
        const int status = service.stop(120000);
        const qint64 stopMs = stopping.elapsed();
        QProcess::execute(kStandin, {"--master", kMaster, "--kill", QString::fromStdString(driverId)});
        QCOMPARE(status, 0);
        // A hang guard with a wide margin, not a timing: the grace, plus 20 s for a busy machine.
        QVERIFY2(stopMs < (kGraceSeconds + 20) * 1000,
                 qPrintable(QString("hang guard: SIGTERM took %1 ms with --shutdown-grace %2")
                                .arg(stopMs)
                                .arg(kGraceSeconds)));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_sparkHome.isValid());
        qputenv("JOBDECK_STANDIN_SPARK_HOME", m_sparkHome.path().toLocal8Bit());
    }

    void statusWithItsOutputClosedHangs() { hungStatusHoldsUpNeitherTrackingNorShutdown("closed"); }
    void statusLeavesAGrandchildHoldingItsOutput() { hungStatusHoldsUpNeitherTrackingNorShutdown("forked"); }
};

JOBDECK_TEST_GUILESS_MAIN(TestHangingSparkSubmit)
#include "tst_hangingsparksubmit.moc"
