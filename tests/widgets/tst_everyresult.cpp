// Every result is visible (issue "the console in daily use", §2), against a real jobdeckd: the status
// bar's temporary messages are seen beside the connection state, a run's end shows in the window (the
// status bar and a mark on the runs view) led by the job's name, "cancel requested" goes when the run
// reaches its final state, confirmations name their verbs, and a refusal at the limit names the job.
#include "client/ApiClient.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DesktopNotifier.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/RunDialog.h"
#include "widgets/RunMonitor.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace jobdeck;
using jobdeck::test::awaitReply;
using jobdeck::test::ConsoleHome;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
constexpr int kEndedUnseenRole = Qt::UserRole + 2; // FIRST-RUN

QLabel* statusMessage(MainWindow& window) {
    return window.statusBar()->findChild<QLabel*>(QStringLiteral("statusMessage"));
}

// The label shows `text` in full: visible, and as wide as the text needs.
bool showsInFull(QLabel* label, const QString& text) {
    return label && label->isVisible() && label->text() == text &&
           label->width() >= label->fontMetrics().horizontalAdvance(text);
}

QStringList buttonTexts(QMessageBox* box) {
    QStringList texts;
    for (QAbstractButton* button : box->buttons())
        texts << button->text().remove(QLatin1Char('&'));
    texts.sort(); // the platform's button layout decides the order
    return texts;
}

} // namespace

class TestEveryResult final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_operator;
    ConsoleHome m_home;

    bool statement(const QString& text) { return statementSucceeds(m_service, m_operator, text); }

    std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>(m_home.options(QStringLiteral("results")));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->resize(1280, 800);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

    QString runFromTheConsole(MainWindow& window, const std::string& job) {
        QString runId;
        [&] {
            QVERIFY(window.jobsView()->selectJob(job));
            window.runAction()->trigger();
            RunDialog* dialog = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT(
                (dialog = window.findChild<RunDialog*>(QStringLiteral("runDialog"))) != nullptr, 10000);
            QSignalSpy started(dialog, &RunDialog::runStarted);
            dialog->submit();
            QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000);
            runId = started[0][1].toString();
            dialog->close();
            dialog->deleteLater();
        }();
        return runId;
    }

    static JobRunStatus statusOf(RunMonitor* monitor, const QString& runId) {
        const int row = monitor->model()->rowOf(runId.toStdString());
        return row < 0 ? JobRunStatus::Queued : monitor->model()->run(row).status;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("results"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statement("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB hello TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--lines', '2' ) CLUSTER = 'main'"));
        QVERIFY(statement("CREATE JOB sleeper TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--sleep', '120' ) CLUSTER = 'main'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("results"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    // The connection state no longer takes the whole bar: "N jobs loaded" and "Exported to …" are seen.
    void temporaryMessagesAreSeen() {
        auto window = openWindow();
        QVERIFY(window);
        QLabel* message = statusMessage(*window);
        QVERIFY2(message, "no statusMessage label in the status bar");
        QTRY_VERIFY_WITH_TIMEOUT(showsInFull(message, QStringLiteral("2 jobs loaded")), 10000);
        QVERIFY(window->statusWidget()->isVisible()); // the connection state stays beside it

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("jobs.csv"));
        QSignalSpy exported(window.get(), &MainWindow::exportFinished);
        window->exportTableTo(window->jobsView()->table(), path, TableExport::Format::Csv);
        QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(showsInFull(message, QStringLiteral("Exported to %1.").arg(path)), 10000);
    }

    // Without any notification service the end is still seen: the status bar and the runs view say
    // so, led by the job's name; the notification leads with it too.
    void aRunsEndIsShownInTheWindow() {
        auto window = openWindow();
        QVERIFY(window);
        QSignalSpy shown(window->desktopNotifier(), &DesktopNotifier::shown);
        const QString runId = runFromTheConsole(*window, "hello");
        QVERIFY(!runId.isEmpty());
        RunMonitor* monitor = window->runMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(int(statusOf(monitor, runId)), int(JobRunStatus::Completed), 30000);

        const QString text = QStringLiteral("hello: run %1 completed.").arg(runId);
        QTRY_VERIFY_WITH_TIMEOUT(showsInFull(statusMessage(*window), text), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10000);
        QVERIFY2(shown[0][1].toString().startsWith(QStringLiteral("hello")),
                 qPrintable(shown[0][1].toString()));
        QCOMPARE(shown[0][2].toString(), text);

        // The runs view marks the run until it is looked at; the dock's title counts the marks.
        RunsTableModel* runs = monitor->model();
        const QModelIndex status = runs->index(runs->rowOf(runId.toStdString()), RunsTableModel::Status);
        QTRY_VERIFY(runs->data(status, kEndedUnseenRole).toBool());
        QVERIFY(runs->data(status, Qt::FontRole).value<QFont>().bold());
        QTRY_COMPARE(window->runMonitorDock()->windowTitle(), QStringLiteral("Runs (1 ended)"));
        QTableView* history = monitor->findChild<QTableView*>(QStringLiteral("historyView"));
        QVERIFY(history);
        auto* proxy = static_cast<QSortFilterProxyModel*>(history->model());
        history->selectionModel()->setCurrentIndex(
            proxy->mapFromSource(status), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        QTRY_VERIFY(!runs->data(status, kEndedUnseenRole).toBool());
        QTRY_COMPARE(window->runMonitorDock()->windowTitle(), QStringLiteral("Runs"));
    }

    // "Cancel requested…" is cleared once the run is CANCELED; the confirmation names its verbs.
    void cancelRequestedEndsWithTheFinalState() {
        auto window = openWindow();
        QVERIFY(window);
        const QString runId = runFromTheConsole(*window, "sleeper");
        RunMonitor* monitor = window->runMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(int(statusOf(monitor, runId)), int(JobRunStatus::Running), 30000);
        QTableView* active = monitor->findChild<QTableView*>(QStringLiteral("activeRunsView"));
        QVERIFY(active);
        active->selectAll();
        monitor->cancelSelected();
        auto* box = monitor->findChild<QMessageBox*>(QStringLiteral("cancelConfirmation"));
        QVERIFY(box);
        QVERIFY(!box->windowTitle().startsWith(QStringLiteral("Cancel")));
        QCOMPARE(buttonTexts(box),
                 (QStringList{QStringLiteral("Cancel run"), QStringLiteral("Keep running")}));
        QCOMPARE(box->defaultButton()->text(), QStringLiteral("Keep running"));
        auto* cancel = box->findChild<QPushButton*>(QStringLiteral("confirmCancelRuns"));
        QVERIFY(cancel);
        cancel->click();

        auto* message = monitor->findChild<QLabel*>(QStringLiteral("messageLabel"));
        QVERIFY(message);
        QTRY_VERIFY_WITH_TIMEOUT(message->text().startsWith(QStringLiteral("Cancel requested")), 20000);
        QTRY_COMPARE_WITH_TIMEOUT(int(statusOf(monitor, runId)), int(JobRunStatus::Canceled), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!message->isVisible(), 10000);
        QCOMPARE(message->text(), QString());
    }

    void deleteConfirmationNamesItsVerbs() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->jobsView()->selectJob("hello"));
        window->deleteCurrentJob();
        auto* box = window->findChild<QMessageBox*>(QStringLiteral("confirmDelete"));
        QVERIFY(box);
        QCOMPARE(buttonTexts(box), (QStringList{QStringLiteral("Delete job"), QStringLiteral("Keep job")}));
        QCOMPARE(box->defaultButton()->text(), QStringLiteral("Keep job"));
        QVERIFY(box->text().contains(QStringLiteral("'hello'")));
        box->reject();
    }

    // RUN JOB at the limit is refused with the contract's text, which names the job by its id: the
    // dialog shows the job's name beside the id.
    void aRefusalNamesTheJob() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(statement("RUN JOB sleeper"));
        ApiClient* client = window->client();
        const auto job = awaitReply(client->describeJob(QStringLiteral("sleeper")));
        QVERIFY(job);
        RunDialog dialog(client, *job);
        dialog.show();
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(!finished[0][0].toBool());
        const QString id = QString::fromStdString(job->jobId);
        QCOMPARE(dialog.lastError(),
                 QStringLiteral("Spark Job %1 already has 1 active run(s) (max 1)").arg(id));
        auto* result = dialog.findChild<QLabel*>(QStringLiteral("resultLabel"));
        QVERIFY(result);
        QCOMPARE(result->text(),
                 QStringLiteral("Spark Job %1 ('sleeper') already has 1 active run(s) (max 1)").arg(id));
        for (const SparkJobRun& run : awaitReply(client->showJobRuns([] {
                                          ShowJobRunsStatement s;
                                          s.jobName = "sleeper";
                                          s.activeOnly = true;
                                          return s;
                                      }()))
                                          .value_or(std::vector<SparkJobRun>{}))
            awaitReply(client->cancelJobRun(QString::fromStdString(run.jobRunId), QStringLiteral("sleeper")));
    }

    // When the project narrowed the Job's limit, the refusal also gives the reason the service sends in
    // its errorReason field, on a line of its own under the contract's text.
    void aRefusalGivesTheServicesReason() {
        const ApiCredentials admin = m_service.createKey(QStringLiteral("results"), QStringLiteral("admin"));
        QVERIFY2(admin.isValid(), qPrintable(m_service.lastError()));
        const auto asAdmin = [&](const QString& text) { return statementSucceeds(m_service, admin, text); };
        QVERIFY(asAdmin("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4"));
        QVERIFY(statement("CREATE JOB narrowed TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--sleep', '120' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 3"));
        QVERIFY(asAdmin("ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 1"));
        auto window = openWindow();
        QVERIFY(window);
        ApiClient* client = window->client();
        const auto job = awaitReply(client->describeJob(QStringLiteral("narrowed")));
        QVERIFY(job);
        const auto submit = [&](QString* error, QString* shown) -> bool {
            RunDialog dialog(client, *job);
            dialog.show();
            QSignalSpy finished(&dialog, &RunDialog::submitFinished);
            dialog.submit();
            if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 30000)) {
                *error = QStringLiteral("no answer to RUN JOB within 30 s");
                return false;
            }
            *error = dialog.lastError();
            *shown = dialog.findChild<QLabel*>(QStringLiteral("resultLabel"))->text();
            return finished[0][0].toBool();
        };
        QString error;
        QString shown;
        QVERIFY2(submit(&error, &shown), qPrintable(error));
        QVERIFY(!submit(&error, &shown));
        const QString id = QString::fromStdString(job->jobId);
        QCOMPARE(error, QStringLiteral("Spark Job %1 already has 1 active run(s) (max 1)").arg(id));
        QCOMPARE(shown, QStringLiteral("Spark Job %1 ('narrowed') already has 1 active run(s) (max 1)\n"
                                       "this project's MAX_CONCURRENT_RUNS_LIMIT of 1 is below the Job's "
                                       "MAX_CONCURRENT_RUNS of 3")
                            .arg(id));
        for (const SparkJobRun& run : awaitReply(client->showJobRuns([] {
                                          ShowJobRunsStatement s;
                                          s.jobName = "narrowed";
                                          s.activeOnly = true;
                                          return s;
                                      }()))
                                          .value_or(std::vector<SparkJobRun>{}))
            awaitReply(
                client->cancelJobRun(QString::fromStdString(run.jobRunId), QStringLiteral("narrowed")));
    }
};

JOBDECK_TEST_MAIN(TestEveryResult)
#include "tst_everyresult.moc"
