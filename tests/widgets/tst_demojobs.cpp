// The Local profile's demo runs for real: the console's launcher starts the bundled jobdeckd with the
// demo data and copies the shipped demo applications (JOBDECK_BINARY_DIR/demo) where the service maps
// s3://demo-bucket/jobs/. Every demo job is run with short durations (argument overrides) and ends as
// designed with its log: the run id, the Hudi configs it was given (a misplaced pair and a key the
// allow-list no longer grants are not among them), the overrides honoured, one failure on purpose.
// Three runs of count_transactions fill the 2-driver cluster and queue the third with its reason; a
// fourth is refused at the job's limit. The console shows them (screenshot demo-running.png).
#include "client/ApiClient.h"
#include "client/ConnectionProfiles.h"
#include "client/LocalServiceLauncher.h"
#include "client/SecretStore.h"
#include "models/RunsTableModel.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/RunGauge.h"
#include "widgets/RunMonitor.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;
using Overrides = std::vector<std::pair<std::string, std::string>>;

namespace {

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

bool isFinal(JobRunStatus s) {
    return s == JobRunStatus::Completed || s == JobRunStatus::Failed || s == JobRunStatus::Canceled;
}

} // namespace

class TestDemoJobs final : public QObject {
    Q_OBJECT

    ConsoleHome m_home;
    std::unique_ptr<SecretStore> m_secrets;
    std::unique_ptr<LocalServiceLauncher> m_launcher;
    ApiClient m_client;

    QString dataDir() const { return m_home.filePath(QStringLiteral("local")); }
    static QString demoDir() { return QStringLiteral(JOBDECK_BINARY_DIR "/demo"); }

    // Polls DESCRIBE JOB_RUN until the run is final (a JVM start on a busy machine takes seconds).
    std::optional<SparkJobRun> waitUntilFinal(const QString& job, const QString& runId) {
        std::optional<SparkJobRun> last;
        (void)QTest::qWaitFor(
            [&] {
                const auto r = test::waitFor(m_client.describeJobRun(runId, job));
                if (r.value)
                    last = r.value;
                return last && isFinal(last->status);
            },
            90000);
        return last;
    }

    QString wholeLog(const QString& job, const QString& runId) {
        QByteArray log;
        qint64 offset = 0;
        for (int i = 0; i < 100; ++i) {
            const auto chunk = test::waitFor(m_client.runLog(job, runId, offset));
            if (!chunk.value)
                break;
            log += chunk.value->data;
            offset = chunk.value->nextOffset;
            if (chunk.value->complete)
                break;
        }
        return QString::fromUtf8(log);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(QFileInfo::exists(QDir(demoDir()).filePath(QStringLiteral("jobdeck_demo.py"))),
                 "build the jobdeck_demo target");
        QVERIFY2(QFileInfo::exists(QDir(demoDir()).filePath(QStringLiteral("jobdeck-demo.jar"))),
                 "build the jobdeck_demo target (needs a JDK)");
        m_secrets = std::make_unique<SecretStore>(m_home.secretsDir(), SecretStore::Backend::File);
        m_launcher = std::make_unique<LocalServiceLauncher>(m_secrets.get());
        m_launcher->setDataDir(dataDir());
        m_launcher->setServicePath(QStringLiteral(JOBDECKD_PATH));
        m_launcher->setDemoDir(demoDir());
        QSignalSpy ready(m_launcher.get(), &LocalServiceLauncher::ready);
        QSignalSpy failed(m_launcher.get(), &LocalServiceLauncher::failed);
        m_launcher->start();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() > 0, 60000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        m_client.setConnection(m_launcher->connection());
    }

    void cleanupTestCase() {
        m_launcher.reset(); // stops the service it started
    }

    void demoApplicationsAreWhereTheServiceFindsThem() {
        const QDir jobs(QDir(dataDir()).filePath(QStringLiteral("s3/demo-bucket/jobs")));
        for (const QString& name : {QStringLiteral("jobdeck_demo.py"), QStringLiteral("jobdeck-demo.jar")}) {
            QVERIFY2(QFileInfo(jobs.filePath(name)).isFile(), qPrintable(jobs.filePath(name)));
            QCOMPARE(QFileInfo(jobs.filePath(name)).size(), QFileInfo(QDir(demoDir()).filePath(name)).size());
        }
    }

    void everyDemoJobEndsAsDesigned_data() {
        QTest::addColumn<QString>("job");
        QTest::addColumn<QStringList>("overrides"); // name, value, name, value...
        QTest::addColumn<int>("status");
        QTest::addColumn<QStringList>("inLog");
        QTest::addColumn<QStringList>("notInLog");
        const QStringList quick{QStringLiteral("--seconds"), QStringLiteral("1")};
        QTest::newRow("count_transactions (JAR, applied Hudi configs)")
            << "count_transactions" << quick << int(JobRunStatus::Completed)
            << QStringList{"Jobdeck demo driver (Java",
                           "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                           "hoodie.datasource.hive_sync.database=analytics",
                           "arguments: --date 2026-11-30 --seconds 1",
                           "count_transactions: 100%",
                           "count_transactions: done in 1.0 s"}
            << QStringList{};
        QTest::newRow("ingest_orders (JAR, misplaced --hudi-conf)")
            << "ingest_orders" << quick << int(JobRunStatus::Completed)
            << QStringList{"arguments: --hudi-conf hoodie.datasource.write.operation=upsert --date "
                           "2026-11-30 "
                           "--seconds 1",
                           "ingest_orders: done in 1.0 s"}
            << QStringList{"  hoodie.datasource.write.operation=upsert"};
        QTest::newRow("daily_report (PYTHON)")
            << "daily_report" << (quick + QStringList{"--date", "2026-12-01"}) << int(JobRunStatus::Completed)
            << QStringList{"Jobdeck demo driver (Python",
                           "arguments: --task daily_report --date 2026-12-01 "
                           "--seconds 1",
                           "daily_report: done in 1 s"}
            << QStringList{};
        QTest::newRow("nightly_cleanup (a key no longer allowed)")
            << "nightly_cleanup" << quick << int(JobRunStatus::Completed)
            << QStringList{"nightly_cleanup: done in 1 s"} << QStringList{"hoodie.cleaner.commits.retained"};
        QTest::newRow("export_partners (fails on purpose)")
            << "export_partners" << QStringList{"--fail-after", "1"} << int(JobRunStatus::Failed)
            << QStringList{"export_partners: ERROR reading input partition date=2026-11-30",
                           "fails on purpose after 1 s"}
            << QStringList{"done in"};
    }

    void everyDemoJobEndsAsDesigned() {
        QFETCH(QString, job);
        QFETCH(QStringList, overrides);
        QFETCH(int, status);
        QFETCH(QStringList, inLog);
        QFETCH(QStringList, notInLog);
        Overrides pairs;
        for (int i = 0; i + 1 < overrides.size(); i += 2)
            pairs.emplace_back(overrides[i].toStdString(), overrides[i + 1].toStdString());
        const auto started = test::waitFor(m_client.runJob(job, pairs));
        QVERIFY2(started.value, qPrintable(started.errorText()));
        const QString runId = *started.value;

        const auto run = waitUntilFinal(job, runId);
        QVERIFY(run);
        const QString log = wholeLog(job, runId);
        QVERIFY2(int(run->status) == status,
                 qPrintable(QString::fromStdString(run->message.value_or("")) + "\n" + log));
        QVERIFY2(log.contains(QStringLiteral("run id: ") + runId), qPrintable(log));
        QVERIFY2(log.contains(QStringLiteral("Hudi configs (")), qPrintable(log));
        for (const QString& text : inLog)
            QVERIFY2(log.contains(text), qPrintable(text + QStringLiteral(" not in:\n") + log));
        for (const QString& text : notInLog)
            QVERIFY2(!log.contains(text), qPrintable(text + QStringLiteral(" in:\n") + log));
        if (run->status == JobRunStatus::Failed) {
            QCOMPARE(run->exitCode, std::optional<int>(2));
            QCOMPARE(run->message.value_or(""), std::string("The driver exited with code 2"));
        }
    }

    void theNotAllowedKeyIsShownSo() {
        const auto job = test::waitFor(m_client.describeJob(QStringLiteral("nightly_cleanup")));
        QVERIFY2(job.value, qPrintable(job.errorText()));
        const auto& statuses = job.value->hudiConfigsStatus;
        const auto it = statuses.find("hoodie.cleaner.commits.retained");
        QVERIFY(it != statuses.end());
        QCOMPARE(it->second, HudiConfigStatus::NotAllowed);
    }

    void threeRunsFillTheClusterAndQueueOne() {
        const QString job = QStringLiteral("count_transactions");
        QStringList runIds;
        for (int i = 0; i < 3; ++i) {
            const auto started = test::waitFor(m_client.runJob(job));
            QVERIFY2(started.value, qPrintable(started.errorText()));
            runIds << *started.value;
        }
        // The job's limit is 3: a fourth is refused, nothing queues behind the limit.
        const auto fourth = test::waitFor(m_client.runJob(job));
        QVERIFY(fourth.error);
        QVERIFY2(fourth.error->message.contains(QStringLiteral("already has 3 active run(s) (max 3)")),
                 qPrintable(fourth.errorText()));

        // The cluster runs 2 drivers: two run (40 s each by default), the third waits for a slot.
        int running = 0;
        int queued = 0;
        QString reason;
        (void)QTest::qWaitFor(
            [&] {
                running = queued = 0;
                for (const QString& id : runIds) {
                    const auto r = test::waitFor(m_client.describeJobRun(id, job));
                    if (!r.value)
                        continue;
                    running += r.value->status == JobRunStatus::Running;
                    if (r.value->status == JobRunStatus::Queued) {
                        ++queued;
                        reason = QString::fromStdString(r.value->queueReason.value_or(""));
                    }
                }
                return running == 2 && queued == 1 && reason.contains(QLatin1String("driver slot"));
            },
            60000);
        QCOMPARE(running, 2);
        QCOMPARE(queued, 1);
        QCOMPARE(reason, QStringLiteral("Waiting for a driver slot on cluster demo_cluster (2 of 2 in use)"));

        // The console on the same Local profile reuses this service and shows the runs and the gauge.
        MainWindow::Options options = m_home.options(ConnectionProfiles::kLocalName);
        options.localDataDir = dataDir();
        options.servicePath = QStringLiteral(JOBDECKD_PATH);
        options.demoDir = demoDir();
        MainWindow window(options);
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(30000) || loaded.count() > 0, qPrintable(window.statusWidget()->text()));
        QVERIFY(window.jobsView()->selectJob(job.toStdString()));
        window.monitorJobRunsAction()->setChecked(true);
        RunMonitor* monitor = window.runMonitor();
        // The monitor follows the job once the window is connected (it may still be connecting here).
        QTRY_COMPARE_WITH_TIMEOUT(monitor->jobName(), job, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->gauge()->active(), 3, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->gauge()->limit(), 3, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->model()->activeCount(job.toStdString()), 3, 20000);
        window.runMonitor()->showRun(job, runIds.first());
        QTest::qWait(1500); // a few log lines
        saveScreenshot(&window, QStringLiteral("demo-running.png"));

        QList<QPair<QString, QString>> cancels;
        for (const QString& id : runIds)
            cancels.append({job, id});
        monitor->cancelRuns(cancels);
        for (const QString& id : runIds) {
            const auto run = waitUntilFinal(job, id);
            QVERIFY(run);
            QCOMPARE(int(run->status), int(JobRunStatus::Canceled));
        }
    }
};

JOBDECK_TEST_MAIN(TestDemoJobs)
#include "tst_demojobs.moc"
