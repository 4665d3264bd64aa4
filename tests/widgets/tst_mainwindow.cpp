// The console end to end against a real jobdeckd: connect with a profile, list (jobs created through
// statements appear, live), filter, describe (statuses and the misplaced pair explained), the job
// form (the service's refusal shown word for word), delete through the UI with its confirmation.
#include "core/statements/StatementPrinter.h"
#include "models/JobConfigsModel.h"
#include "models/JobsFilterProxy.h"
#include "models/JobsListLoader.h"
#include "models/JobsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/HudiConfigsExplainer.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFloat16>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QThreadPool>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;
using nlohmann::json;

namespace {

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

QString statement(const Statement& s) {
    return QString::fromStdString(printStatement(s));
}

} // namespace

class TestMainWindow final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ConsoleHome m_home;

    void run(const Statement& s) {
        const json status = runStatement(m_service, m_admin, statement(s));
        QVERIFY2(status.value("apiStatus", "") == "API_OPERATION_STATUS_SUCCESS", status.dump().c_str());
    }

    MainWindow::Options options() const { return m_home.options(QStringLiteral("e2e")); }

    // Save with errors the editor knows of asks first: answer "Save anyway".
    static void saveAnywayWhenAsked(QWidget* form) {
        for (auto* box : form->findChildren<QMessageBox*>(QStringLiteral("saveWithErrorsBox")))
            if (box->isVisible())
                if (auto* anyway = box->findChild<QPushButton*>(QStringLiteral("saveAnywayButton")))
                    anyway->click();
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("e2e"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        run(CreateClusterStatement{"demo_cluster", "Spark", 2, 1, {}});
        run(AlterProjectStatement{
            true, std::nullopt, std::nullopt, AlterProjectStatement::AllowlistOp::None, {}});
        run(AlterProjectStatement{std::nullopt,
                                  std::nullopt,
                                  std::nullopt,
                                  AlterProjectStatement::AllowlistOp::Add,
                                  {"hoodie.datasource.meta.sync."}});
        run(CreateJobStatement{"count_transactions",
                               JobType::Jar,
                               {"--class", "com.example.MySparkApp", "--hudi-conf",
                                "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                                "s3://bucket/app.jar"},
                               "demo_cluster",
                               std::nullopt});
        run(CreateJobStatement{"ingest_orders",
                               JobType::Jar,
                               {"--class", "com.example.Ingest", "s3://bucket/ingest.jar", "--hudi-conf",
                                "hoodie.datasource.write.operation=upsert", "--date", "2026-11-30"},
                               "demo_cluster",
                               std::nullopt});
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("e2e"), m_service, m_admin, &error), qPrintable(error));
    }

    void listDescribeEditDelete() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        QVERIFY2(window.statusWidget()->text().contains(
                     QStringLiteral("Connected to %1").arg(m_service.baseUrl().toString())),
                 qPrintable(window.statusWidget()->text()));
        JobsTableModel* jobs = window.jobsModel();
        QCOMPARE(jobs->rowCount(), 2);
        QVERIFY(jobs->rowOf("count_transactions") >= 0);
        QVERIFY(jobs->rowOf("ingest_orders") >= 0);

        // A job created elsewhere appears through the events, without a reload.
        QSignalSpy reset(jobs, &QAbstractItemModel::modelReset);
        run(CreateJobStatement{
            "daily_report", JobType::Python, {"s3://bucket/report.py"}, "demo_cluster", std::nullopt});
        QTRY_VERIFY_WITH_TIMEOUT(jobs->rowOf("daily_report") >= 0, 15000);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(jobs->index(jobs->rowOf("daily_report"), JobsTableModel::Type).data().toString(),
                 QStringLiteral("PYTHON"));

        // Filter as you type.
        QLineEdit* filter = window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
        QVERIFY(filter);
        QTest::keyClicks(filter, QStringLiteral("type:python"));
        QCOMPARE(window.jobsProxy()->rowCount(), 1);
        filter->clear();
        QCOMPARE(window.jobsProxy()->rowCount(), 3);

        // Describe: the misplaced pair and the applied key, in words.
        QVERIFY(window.jobsView()->selectJob("ingest_orders"));
        window.describeAction()->trigger();
        DescribeViewer* viewer = window.describeViewer();
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB ingest_orders"), 15000);
        QVERIFY2(viewer->explainer()->misplacedText().contains(
                     "--hudi-conf hoodie.datasource.write.operation comes after the application path"),
                 qPrintable(viewer->explainer()->misplacedText()));
        QVERIFY(viewer->explainer()->misplacedText().startsWith("Passed to your application, not applied"));
        QVERIFY(viewer->rawText().contains("misplacedHudiConfigs"));
        saveScreenshot(&window, QStringLiteral("mainwindow-describe-misplaced.png"));

        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier);
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB count_transactions"), 15000);
        const JobConfigsModel* configs = viewer->explainer()->model();
        QCOMPARE(configs->rowCount(), 1);
        QCOMPARE(configs->index(0, JobConfigsModel::Key).data().toString(),
                 QStringLiteral("hoodie.datasource.meta.sync.glue.catalogId"));
        QCOMPARE(configs->index(0, JobConfigsModel::Status).data(JobConfigsModel::RawDataRole).toInt(),
                 int(HudiConfigStatus::Applied));
        // The service's reason (DESCRIBE JOB's hudiConfigsStatusReasons): which entry allows it.
        QCOMPARE(configs->index(0, JobConfigsModel::Explanation).data().toString(),
                 QStringLiteral(
                     "Applied: allowed by the project's allow-list entry 'hoodie.datasource.meta.sync.' "
                     "(a family)."));
        saveScreenshot(&window, QStringLiteral("mainwindow-describe-applied.png"));

        // The job editor: a refused key keeps the dialog open with the service's own words.
        window.newAction()->trigger();
        JobEditorDialog* form = nullptr;
        QTRY_VERIFY((form = window.findChild<JobEditorDialog*>(QStringLiteral("jobEditorDialog"))) !=
                    nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!form->isLoading(), 15000);
        form->findChild<QLineEdit*>(QStringLiteral("nameEdit"))->setText(QStringLiteral("new_job"));
        auto* cluster = form->findChild<QComboBox*>(QStringLiteral("clusterCombo"));
        QVERIFY(cluster);
        const int clusterIndex = cluster->findText(QStringLiteral("demo_cluster"));
        QVERIFY(clusterIndex >= 0);
        cluster->setCurrentIndex(clusterIndex);
        form->editor()->setParameters(
            {"--hudi-conf", "hoodie.datasource.write.operation=upsert", "s3://bucket/new.jar"});
        form->save();
        saveAnywayWhenAsked(form); // the editor knows the error; this test sends it to see the refusal
        QTRY_VERIFY_WITH_TIMEOUT(!form->isBusy(), 15000);
        QCOMPARE(form->messageText(),
                 QStringLiteral("--hudi-conf keys are not permitted for this organization: "
                                "hoodie.datasource.write.operation. Remove them, or contact Onehouse support "
                                "to allow them."));
        QVERIFY(form->isVisible());
        saveScreenshot(form, QStringLiteral("jobeditor-refused.png"));
        form->editor()->setParameters(
            {"--hudi-conf", "hoodie.datasource.meta.sync.database=x", "s3://bucket/new.jar"});
        form->save();
        QTRY_VERIFY_WITH_TIMEOUT(jobs->rowOf("new_job") >= 0, 15000);

        // Delete through the UI: the confirmation is a child message box.
        QVERIFY(window.jobsView()->selectJob("daily_report"));
        window.deleteAction()->trigger();
        QMessageBox* confirm = nullptr;
        QTRY_VERIFY((confirm = window.findChild<QMessageBox*>(QStringLiteral("confirmDelete"))) != nullptr);
        QVERIFY(confirm->text().contains("daily_report"));
        saveScreenshot(confirm, QStringLiteral("mainwindow-confirm-delete.png"));
        confirm->findChild<QPushButton*>(QStringLiteral("confirmDeleteJob"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(jobs->rowOf("daily_report"), -1, 15000);
        const json gone = runStatement(m_service, m_admin, statement(DescribeJobStatement{"daily_report"}));
        QCOMPARE(gone.value("apiStatus", ""), std::string("API_OPERATION_STATUS_FAILED"));
        saveScreenshot(&window, QStringLiteral("mainwindow-jobs.png"));
    }

    void cancelledDeleteKeepsTheJob() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(loaded.wait(20000));
        QVERIFY(window.jobsView()->selectJob("ingest_orders"));
        window.jobsView()->table()->setFocus();
        QTest::keyClick(window.jobsView()->table(), Qt::Key_Delete);
        QMessageBox* confirm = nullptr;
        QTRY_VERIFY((confirm = window.findChild<QMessageBox*>(QStringLiteral("confirmDelete"))) != nullptr);
        confirm->escapeButton()->click(); // "Keep job"
        QTest::qWait(300);
        QVERIFY(window.jobsModel()->rowOf("ingest_orders") >= 0);
        const json still = runStatement(m_service, m_admin, statement(DescribeJobStatement{"ingest_orders"}));
        QCOMPARE(still.value("apiStatus", ""), std::string("API_OPERATION_STATUS_SUCCESS"));
    }

    // A job created while a reload's rows are being built is shown once they are swapped in: a live
    // change applied to the rows being replaced would be lost with them.
    void aChangeMadeWhileTheListLoadsIsKept() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(loaded.wait(20000));
        // The rows are built on the loader's pool: holding its one thread keeps the reload's rows waiting
        // while the change arrives, however fast the machine.
        QThreadPool* pool = window.jobsLoader()->workers();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        QSemaphore holding;
        QSemaphore release;
        pool->start([&] {
            holding.release();
            release.acquire();
        });
        holding.acquire();
        // Whatever fails below, the pool's thread is let go (a failed check returns at once): the test
        // fails instead of hanging at exit on the held pool.
        struct Release {
            QSemaphore& release;
            QThreadPool* pool;
            int threads;
            ~Release() {
                if (release.available() == 0)
                    release.release();
                pool->waitForDone(20000);
                pool->setMaxThreadCount(threads);
            }
        } letGo{release, pool, threads};
        window.refresh();
        QTest::qWait(1000); // the SHOW JOBS answer arrives; its rows wait for the pool
        run(CreateJobStatement{
            "made_during_load", JobType::Python, {"s3://bucket/during.py"}, "demo_cluster", std::nullopt});
        QTest::qWait(3000); // the event, and without the wait its row, arrive meanwhile
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("Loading jobs…"));
        release.release();
        QVERIFY(loaded.wait(20000));
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("made_during_load") >= 0, 15000);
        QCOMPARE(window.jobsModel()
                     ->index(window.jobsModel()->rowOf("made_during_load"), JobsTableModel::Type)
                     .data()
                     .toString(),
                 QStringLiteral("PYTHON"));
        run(DeleteJobStatement{"made_during_load"});
    }
};

JOBDECK_TEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
