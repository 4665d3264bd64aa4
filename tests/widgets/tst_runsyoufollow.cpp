// Runs you can follow (issue "the console in daily use", §5), against a real jobdeckd: the run dialog
// prefills a key per run attempt, so Run three times starts three runs (the README's "start three
// runs"), while a retry of one attempt keeps its key; the gauges show drivers in use per cluster and a
// job's runs against its limit; finished runs stay in the runs view with their outcome; the log marks
// the outcome and error lines and follows or pauses; a finished run is run again with its overrides and
// a job is cloned. With JOBDECK_UPDATE_SCREENSHOTS=1 the screenshot is written to docs/images as well.
#include "client/ApiClient.h"
#include "models/ArgumentOverridesModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "tests/widgets/Screenshots.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/LogView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/RunDialog.h"
#include "widgets/RunGauge.h"
#include "widgets/RunMonitor.h"

#include <QAbstractButton>
#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

using namespace jobdeck;
using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;
using jobdeck::test::ConsoleHome;
using jobdeck::test::saveScreenshot;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
const QString kErrorLine = QStringLiteral("ERROR: table orders not found");

template <class W> W* child(QObject* parent, const QString& name) {
    return parent->findChild<W*>(name);
}

// The column of `view` whose header reads `title`, or -1.
int columnTitled(QTableView* view, const QString& title) {
    for (int c = 0; c < view->model()->columnCount(); ++c)
        if (view->model()->headerData(c, Qt::Horizontal).toString() == title)
            return c;
    return -1;
}

// The row of `view` showing run `runId`, or -1.
int rowOfRun(QTableView* view, const QString& runId) {
    const int column = columnTitled(view, QStringLiteral("Run id"));
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, column).data().toString() == runId)
            return r;
    return -1;
}

QString cell(QTableView* view, const QString& runId, const QString& column) {
    const int row = rowOfRun(view, runId);
    const int c = columnTitled(view, column);
    return row < 0 || c < 0 ? QStringLiteral("<no cell>") : view->model()->index(row, c).data().toString();
}

// Why column `title` is clipped in `view`, or empty when its content fits and it is inside the viewport.
QString clipped(QTableView* view, const QString& title) {
    const int c = columnTitled(view, title);
    if (c < 0 || view->isColumnHidden(c))
        return title + QStringLiteral(": not shown");
    const int right = view->columnViewportPosition(c) + view->columnWidth(c);
    if (view->columnViewportPosition(c) < 0 || right > view->viewport()->width())
        return title +
               QStringLiteral(": outside the view (%1 > %2)").arg(right).arg(view->viewport()->width());
    if (view->columnWidth(c) < static_cast<QAbstractItemView*>(view)->sizeHintForColumn(c))
        return title + QStringLiteral(": %1 px of the %2 its content needs")
                           .arg(view->columnWidth(c))
                           .arg(static_cast<QAbstractItemView*>(view)->sizeHintForColumn(c));
    return {};
}

// The log block holding `text` has a highlight (formats the highlighter added), or not.
bool highlighted(LogView* log, const QString& text) {
    for (QTextBlock b = log->textEdit()->document()->begin(); b.isValid(); b = b.next())
        if (b.text().contains(text))
            return b.layout() && !b.layout()->formats().isEmpty();
    return false;
}

QString lastLine(LogView* log) {
    const QStringList lines = log->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last();
}

} // namespace

class TestRunsYouFollow final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_admin;
    ApiClient* m_client = nullptr;
    QSet<QString> m_started; // the runs started so far, all canceled at the end of their test
    ConsoleHome m_home;

    bool statement(const QString& text) { return statementSucceeds(m_service, m_admin, text); }

    QString run(const QString& job, const QString& key,
                const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
        QString error;
        const auto id = awaitReply(m_client->runJob(job, overrides, key), &error);
        if (!id)
            qWarning("RUN JOB %s: %s", qPrintable(job), qPrintable(error));
        return id.value_or(QString());
    }

    bool ended(const QString& job, const QString& runId) {
        const auto r = awaitReply(m_client->describeJobRun(runId, job));
        return r && !r->isActive();
    }

    void cancelAll(const QString& job, const QStringList& runs) {
        for (const QString& id : runs)
            awaitReply(m_client->cancelJobRun(id, job));
        for (const QString& id : runs)
            QTRY_VERIFY_WITH_TIMEOUT(ended(job, id), 30000);
    }

    // A monitor of every job at the width of a 1280×800 window, loaded.
    std::unique_ptr<RunMonitor> openMonitor(const QString& job = {}) {
        auto monitor = std::make_unique<RunMonitor>(m_client);
        monitor->resize(1280, 460);
        monitor->show();
        QSignalSpy loaded(monitor.get(), &RunMonitor::loaded);
        monitor->setJob(job);
        if (!loaded.wait(20000))
            qWarning("monitor did not load");
        return monitor;
    }

    std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>(m_home.options(QStringLiteral("follow")));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->resize(1280, 800);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000) || loaded.count() > 0, qPrintable(window->statusWidget()->text()));
            window->runMonitorDock()->show();
            window->resizeDocks({window->runMonitorDock()}, {420}, Qt::Vertical);
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("follow"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        m_client = new ApiClient(this);
        m_client->setConnection({m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret});
        QVERIFY(statement("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4"));
        QVERIFY(statement("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB count_transactions TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--sleep', '60' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 3"));
        QVERIFY(statement("CREATE CLUSTER side TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB side_job TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--sleep', '60' ) CLUSTER = 'side'"));
        QVERIFY(statement("CREATE JOB failing TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--exit-code', '3', '" + kErrorLine + "' ) CLUSTER = 'main'"));
        QVERIFY(statement(
            "CREATE JOB quick TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
            "', '--lines', '2', '--date', '2026-11-30' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 2"));
        QVERIFY(statement("CREATE JOB talker TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--lines', '600', '--interval-ms', '25' ) CLUSTER = 'side'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("follow"), m_service, m_admin, &error), qPrintable(error));
    }

    void runThreeTimesStartsThreeRuns() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(job);
        RunDialog dialog(m_client, *job);
        dialog.show();
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        QSet<QString> runs, keys;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            const QString key = dialog.idempotencyKey();
            QVERIFY2(!key.isEmpty() && !keys.contains(key), qPrintable(key));
            keys.insert(key);
            dialog.submit();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), attempt, 30000);
            QVERIFY2(finished.last().at(0).toBool(), qPrintable(dialog.lastError()));
            runs.insert(dialog.lastRunId());
        }
        QCOMPARE(runs.size(), 3);

        // A retry of an attempt is that attempt's key sent again: its run, not a fourth.
        const QString first = *runs.begin();
        const auto firstRun =
            awaitReply(m_client->describeJobRun(first, QStringLiteral("count_transactions")));
        QVERIFY(firstRun && firstRun->idempotencyKey);
        dialog.setIdempotencyKey(QString::fromStdString(*firstRun->idempotencyKey));
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, 30000);
        QCOMPARE(dialog.lastRunId(), first);
        for (const QString& id : runs)
            awaitReply(m_client->cancelJobRun(id, QStringLiteral("count_transactions")));
        for (const QString& id : runs)
            QTRY_VERIFY_WITH_TIMEOUT(ended(QStringLiteral("count_transactions"), id), 30000);
        m_started.unite(runs);
    }

    // Every job: one gauge per cluster, drivers in use against its MAX_OCU (not a sum of job limits);
    // one job: its active runs against its limit, and its cluster's drivers.
    void gaugesShowDriversPerClusterAndAJobsRunsAgainstItsLimit() {
        auto monitor = openMonitor();
        const QStringList mainRuns{run("count_transactions", "gauge-1"),
                                   run("count_transactions", "gauge-2")};
        const QString sideRun = run("side_job", "gauge-side");
        QVERIFY(!mainRuns.contains(QString()) && !sideRun.isEmpty());

        auto* mainGauge = child<RunGauge>(monitor.get(), "clusterGauge_main");
        auto* sideGauge = child<RunGauge>(monitor.get(), "clusterGauge_side");
        QVERIFY2(mainGauge && sideGauge, "no gauge per cluster");
        QTRY_COMPARE_WITH_TIMEOUT(mainGauge->text(), QStringLiteral("main: 2 of 4 drivers in use"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(sideGauge->text(), QStringLiteral("side: 1 of 2 drivers in use"), 30000);
        QVERIFY(mainGauge->isVisible() && sideGauge->isVisible());
        QVERIFY(!monitor->gauge()->isVisible()); // no limit summed over jobs

        QSignalSpy loaded(monitor.get(), &RunMonitor::loaded);
        monitor->setJob(QStringLiteral("count_transactions"));
        QVERIFY(loaded.wait(20000));
        QTRY_COMPARE_WITH_TIMEOUT(monitor->gauge()->text(), QStringLiteral("2 of 3 active"), 20000);
        QVERIFY(monitor->gauge()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(mainGauge->isVisible() && !sideGauge->isVisible(), 20000);

        cancelAll(QStringLiteral("count_transactions"), mainRuns);
        cancelAll(QStringLiteral("side_job"), {sideRun});
        QTRY_COMPARE_WITH_TIMEOUT(mainGauge->text(), QStringLiteral("main: 0 of 4 drivers in use"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->gauge()->text(), QStringLiteral("0 of 3 active"), 30000);
    }

    // Finished runs stay in the runs view with their final state, exit code and error line; "Hide
    // finished" hides them; Status, Started and Detail are not clipped at the width of 1280×800.
    void finishedRunsStayWithTheirOutcome() {
        auto monitor = openMonitor();
        QTableView* view = monitor->activeView();
        QAbstractItemModelTester tester(view->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QString failed = run("failing", "outcome-failing");
        const QString completed = run("quick", "outcome-quick");
        QVERIFY(!failed.isEmpty() && !completed.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(ended("failing", failed) && ended("quick", completed), 30000);

        QTRY_COMPARE_WITH_TIMEOUT(cell(view, failed, "Status"), QStringLiteral("Failed"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(view, completed, "Status"), QStringLiteral("Completed"), 30000);
        QCOMPARE(cell(view, failed, "Exit code"), QStringLiteral("3"));
        QCOMPARE(cell(view, completed, "Exit code"), QStringLiteral("0"));
        QCOMPARE(cell(view, failed, "Detail"), QStringLiteral("The driver exited with code 3"));
        QVERIFY(!cell(view, failed, "Started").isEmpty());

        auto* hide = child<QCheckBox>(monitor.get(), "hideFinishedCheck");
        QVERIFY2(hide, "no Hide finished toggle");
        QVERIFY(!hide->isChecked());
        hide->click();
        QCOMPARE(rowOfRun(view, failed), -1);
        QCOMPARE(rowOfRun(view, completed), -1);
        hide->click();
        QVERIFY(rowOfRun(view, failed) >= 0);

        for (const QString& title :
             {QStringLiteral("Status"), QStringLiteral("Started"), QStringLiteral("Detail")})
            QTRY_COMPARE_WITH_TIMEOUT(clipped(view, title), QString(), 10000);
    }

    // The log marks the run's outcome (a last line) and its error lines; Pause keeps the position while
    // lines arrive, Follow scrolls to the end.
    void theLogMarksOutcomeAndErrorsAndFollowsOrPauses() {
        auto monitor = openMonitor();
        LogView* log = monitor->logView();
        const QString failed = run("failing", "log-failing");
        QVERIFY(!failed.isEmpty());
        monitor->showRun(QStringLiteral("failing"), failed);
        QTRY_VERIFY_WITH_TIMEOUT(log->text().contains(kErrorLine), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(lastLine(log).contains(QStringLiteral("FAILED")), 30000);
        QVERIFY2(lastLine(log).contains(QStringLiteral("exit code 3")), qPrintable(lastLine(log)));
        QVERIFY(highlighted(log, lastLine(log)));
        QVERIFY(highlighted(log, kErrorLine));
        QVERIFY(!highlighted(log, QStringLiteral("run-id: ")));

        auto* follow = child<QAbstractButton>(log, "followButton");
        QVERIFY2(follow, "no Follow/Pause toggle");
        QVERIFY(follow->isCheckable() && follow->isChecked());
        const QString talker = run("talker", "log-talker");
        QVERIFY(!talker.isEmpty());
        monitor->showRun(QStringLiteral("talker"), talker);
        QScrollBar* bar = log->textEdit()->verticalScrollBar();
        QTRY_VERIFY_WITH_TIMEOUT(bar->maximum() > 20 && bar->value() == bar->maximum(), 30000);

        follow->click(); // pause
        QVERIFY(!follow->isChecked());
        const int kept = bar->value();
        const int length = log->text().size();
        QTRY_VERIFY_WITH_TIMEOUT(log->text().size() > length + 200, 30000);
        QCOMPARE(bar->value(), kept);
        QVERIFY(bar->value() < bar->maximum());

        follow->click(); // follow again
        QVERIFY(follow->isChecked());
        QTRY_COMPARE_WITH_TIMEOUT(bar->value(), bar->maximum(), 10000);
        const int grown = log->text().size();
        QTRY_VERIFY_WITH_TIMEOUT(log->text().size() > grown + 200, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(bar->value(), bar->maximum(), 10000);
        cancelAll(QStringLiteral("talker"), {talker});
    }

    // Run again: the run dialog opens with that run's overrides and a new key, and starts a new run. A
    // secret override is not repeated as the **** DESCRIBE JOB_RUN shows (the service refuses that, as
    // the driver would get "****"): the dialog says to type it again.
    void aFinishedRunRunsAgainWithItsOverrides() {
        auto window = openWindow();
        QVERIFY(window);
        QString refusal;
        QVERIFY(!awaitReply(m_client->runJob(QStringLiteral("quick"), {{"--db-password", "****"}}, "again-0"),
                            &refusal));
        QVERIFY2(refusal.contains(QStringLiteral("Argument override --db-password is masked (****)")),
                 qPrintable(refusal));
        const QString first =
            run("quick", "again-1", {{"--date", "2026-12-01"}, {"--db-password", "hunter2"}});
        QVERIFY(!first.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(ended("quick", first), 30000);
        window->runMonitor()->showRun(QStringLiteral("quick"), first);
        auto* again = child<QAction>(window.get(), "actionRunAgain");
        QVERIFY2(again, "no Run again action");
        QTRY_VERIFY_WITH_TIMEOUT(again->isEnabled(), 20000);
        QTest::keyClick(window.get(), Qt::Key_A, Qt::ControlModifier | Qt::ShiftModifier); // its key
        RunDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = window->findChild<RunDialog*>()) != nullptr, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->isVisible(), 10000);
        QCOMPARE(dialog->job().name, std::string("quick"));
        const std::vector<std::pair<std::string, std::string>> overrides{{"--date", "2026-12-01"}};
        QCOMPARE(dialog->overridesModel()->overrides(), overrides);
        const QString note = dialog->findChild<QLabel*>(QStringLiteral("overridesNote"))->text();
        QVERIFY2(note.contains(QStringLiteral("Not repeated: --db-password")), qPrintable(note));
        QVERIFY(!dialog->idempotencyKey().isEmpty());
        QVERIFY(dialog->idempotencyKey() != QStringLiteral("again-1"));

        QSignalSpy finished(dialog, &RunDialog::submitFinished);
        dialog->submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(dialog->lastError()));
        QVERIFY(dialog->lastRunId() != first);
        const auto second =
            awaitReply(m_client->describeJobRun(dialog->lastRunId(), QStringLiteral("quick")));
        QVERIFY(second);
        QCOMPARE(second->argumentOverrides, overrides);
        dialog->close();
    }

    // Clone: the job editor opens with a copy of the selected job under a new name; Save creates it.
    void aJobIsCloned() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->jobsView()->selectJob("quick"));
        auto* clone = child<QAction>(window.get(), "actionCloneJob");
        QVERIFY2(clone, "no Clone job action");
        QTRY_VERIFY(clone->isEnabled());
        clone->trigger();
        JobEditorDialog* editor = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((editor = window->findChild<JobEditorDialog*>()) != nullptr, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isLoading(), 20000);
        const auto original = awaitReply(m_client->describeJob(QStringLiteral("quick")));
        QVERIFY(original);
        QCOMPARE(child<QLineEdit>(editor, "nameEdit")->text(), QStringLiteral("quick_copy"));
        QVERIFY(!child<QLineEdit>(editor, "nameEdit")->isReadOnly());
        QCOMPARE(child<QComboBox>(editor, "clusterCombo")->currentText(), QStringLiteral("main"));
        QCOMPARE(editor->editor()->parameters(), original->parameters);
        QSignalSpy saved(editor, &JobEditorDialog::saved);
        editor->save();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 20000);
        const auto copy = awaitReply(m_client->describeJob(QStringLiteral("quick_copy")));
        QVERIFY(copy);
        QCOMPARE(copy->parameters, original->parameters);
        QCOMPARE(copy->maxConcurrentRuns, original->maxConcurrentRuns);
        QVERIFY(copy->jobId != original->jobId);
    }

    // docs/images/runs-finished.png: the runs view with finished runs at 1280×800.
    void screenshotOfTheRunsViewWithFinishedRuns() {
        auto window = openWindow();
        QVERIFY(window);
        const QString failed = run("failing", "shot-failing");
        const QString completed = run("quick", "shot-quick", {{"--date", "2026-12-02"}});
        const QString running = run("count_transactions", "shot-running");
        QVERIFY(!failed.isEmpty() && !completed.isEmpty() && !running.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(ended("failing", failed) && ended("quick", completed), 30000);
        QTableView* view = window->runMonitor()->activeView();
        QTRY_COMPARE_WITH_TIMEOUT(cell(view, failed, "Status"), QStringLiteral("Failed"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(view, running, "Status"), QStringLiteral("Running"), 30000);
        window->runMonitor()->showRun(QStringLiteral("failing"), failed);
        QTRY_VERIFY_WITH_TIMEOUT(lastLine(window->runMonitor()->logView()).contains(QStringLiteral("FAILED")),
                                 30000);
        QVERIFY2(window->width() <= 1280 && window->height() <= 800, "the window grew beyond 1280×800");
        for (const QString& title :
             {QStringLiteral("Status"), QStringLiteral("Started"), QStringLiteral("Detail")})
            QTRY_COMPARE_WITH_TIMEOUT(clipped(view, title), QString(), 10000);
        saveScreenshot(window.get(), QStringLiteral("runs-finished.png"));
        cancelAll(QStringLiteral("count_transactions"), {running});
    }

    // A submission that got no answer (the service away) keeps its key and offers Retry; the retry sends
    // that key, so the run it starts is the attempt's, and the attempt after it gets a new key.
    void retryOfAFailedSubmissionReusesItsKey() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(job);
        // The earlier runs have ended, so the job's limit admits the run retried here.
        for (const QString& id : std::as_const(m_started))
            QTRY_VERIFY_WITH_TIMEOUT(
                [&] {
                    const auto r =
                        awaitReply(m_client->describeJobRun(id, QStringLiteral("count_transactions")));
                    return r && !r->isActive();
                }(),
                60000);
        RunDialog dialog(m_client, *job);
        dialog.show();
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        const QString key = dialog.idempotencyKey();
        auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(run);

        m_service.stop();
        QVERIFY(!m_service.isRunning());
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(!finished.last().at(0).toBool());
        QCOMPARE(dialog.idempotencyKey(), key);
        QCOMPARE(run->text(), QStringLiteral("Retry"));
        QVERIFY2(run->isEnabled(), qPrintable(dialog.blockedReason()));

        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        run->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 60000);
        QVERIFY2(finished.last().at(0).toBool(), qPrintable(dialog.lastError()));
        const auto started =
            awaitReply(m_client->describeJobRun(dialog.lastRunId(), QStringLiteral("count_transactions")));
        QVERIFY(started && started->idempotencyKey);
        QCOMPARE(QString::fromStdString(*started->idempotencyKey), key);
        QVERIFY(dialog.idempotencyKey() != key);
        QCOMPARE(run->text(), QStringLiteral("Run"));
        awaitReply(m_client->cancelJobRun(dialog.lastRunId(), QStringLiteral("count_transactions")));
    }
};

JOBDECK_TEST_MAIN(TestRunsYouFollow)
#include "tst_runsyoufollow.moc"
