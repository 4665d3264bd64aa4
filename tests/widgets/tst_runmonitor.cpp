// The concurrent runs monitor against a real jobdeckd running the Python test application: a run moves
// QUEUED -> RUNNING -> COMPLETED live (events, no reload) within a second of the service, cancel with
// confirmation, the gauge never above the limit, the log tail following a growing log, the timeline.
#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/policy/RunEndMessages.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "widgets/LogView.h"
#include "widgets/RunDialog.h"
#include "widgets/RunGauge.h"
#include "widgets/RunMonitor.h"
#include "widgets/RunTimeline.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace jobdeck;
using namespace std::chrono_literals;

using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

// The status of a run in the monitor's model, or -1 when it is not there.
int statusIn(const RunsTableModel& model, const QString& runId) {
    const int row = model.rowOf(runId.toStdString());
    return row < 0 ? -1 : static_cast<int>(model.run(row).status);
}

} // namespace

class TestRunMonitor final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiClient* m_client = nullptr;

    bool statement(const ApiCredentials& who, const QString& text) {
        return statementSucceeds(m_service, who, text);
    }

    QString run(const QString& job, const QString& key,
                const std::vector<std::pair<std::string, std::string>>& o = {}) {
        QString error;
        const auto id = awaitReply(m_client->runJob(job, o, key), &error);
        if (!id)
            qWarning("RUN JOB %s: %s", qPrintable(job), qPrintable(error));
        return id.value_or(QString());
    }

    // A monitor with a model tester attached from the start, loaded.
    std::unique_ptr<RunMonitor> monitorFor(const QString& job,
                                           std::unique_ptr<QAbstractItemModelTester>& tester) {
        auto monitor = std::make_unique<RunMonitor>(m_client);
        tester = std::make_unique<QAbstractItemModelTester>(
            monitor->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        monitor->events()->setWaitSeconds(5);
        monitor->resize(1000, 700);
        monitor->show();
        QSignalSpy loaded(monitor.get(), &RunMonitor::loaded);
        monitor->setJob(job);
        if (!loaded.wait(20000))
            qWarning("monitor did not load");
        return monitor;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("monitoring", "admin");
        m_operator = m_service.createKey("monitoring", "operator");
        QVERIFY2(m_admin.isValid() && m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(
            statement(m_admin, "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 5"));
        QVERIFY(statement(m_operator, "CREATE CLUSTER one TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
        QVERIFY(statement(m_operator, "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 20 MIN_OCU = 1"));
        QVERIFY(statement(m_operator, "CREATE JOB blocker TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--sleep', '3' ) CLUSTER = 'one'"));
        QVERIFY(statement(m_operator, "CREATE JOB watched TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--lines', '3', '--sleep', '1' ) CLUSTER = 'one'"));
        QVERIFY(statement(m_operator, "CREATE JOB sleeper TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--sleep', '60' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 3"));
        QVERIFY(statement(m_operator, "CREATE JOB talker TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--lines', '60', '--interval-ms', '60' ) CLUSTER = 'main'"));
        m_client = new ApiClient(this);
        m_client->setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
    }

    void runMovesQueuedRunningCompletedLive() {
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor({}, tester); // every Job
        RunsTableModel* model = monitor->model();
        QSignalSpy resets(model, &QAbstractItemModel::modelReset);

        // The blocker holds the cluster's only driver slot, so the watched run has to wait in QUEUED.
        const QString blocker = run("blocker", "blocker-1");
        QVERIFY(!blocker.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, blocker), int(JobRunStatus::Running), 10000);

        // Every status the model shows for the run, with when it showed it.
        QString watched;
        std::vector<std::pair<int, TimePoint>> seen;
        QString queueReason;
        const auto record = [&] {
            const int status = statusIn(*model, watched);
            if (status >= 0 && (seen.empty() || seen.back().first != status)) {
                seen.emplace_back(status, timestampNow());
                if (status == int(JobRunStatus::Queued))
                    queueReason = model->index(model->rowOf(watched.toStdString()), RunsTableModel::Detail)
                                      .data()
                                      .toString();
            }
        };
        connect(model, &QAbstractItemModel::dataChanged, this, record);
        connect(model, &QAbstractItemModel::rowsInserted, this, record);

        // Triggered from the run dialog, which opens the run in the monitor.
        SparkJob job = awaitReply(m_client->describeJob("watched")).value_or(SparkJob{});
        RunDialog dialog(m_client, job);
        connect(&dialog, &RunDialog::runStarted, monitor.get(), &RunMonitor::showRun);
        QSignalSpy started(&dialog, &RunDialog::runStarted);
        dialog.submit();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000);
        watched = started[0][1].toString();
        record();
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, watched), int(JobRunStatus::Completed), 30000);
        QCOMPARE(resets.count(), 0); // updated in place, never reloaded

        QCOMPARE(seen.size(), std::size_t{3});
        QCOMPARE(seen[0].first, int(JobRunStatus::Queued));
        QCOMPARE(seen[1].first, int(JobRunStatus::Running));
        QCOMPARE(seen[2].first, int(JobRunStatus::Completed));
        QVERIFY2(!queueReason.isEmpty(), "a queued run shows why it waits");
        // Shown as the events said, not at a later poll: well within the subscription's 5 s wait of the
        // service's own times (typically milliseconds; a loaded machine is given room).
        const SparkJobRun final = model->run(model->rowOf(watched.toStdString()));
        const auto lag = [](TimePoint shown, TimePoint at) {
            return std::chrono::duration_cast<std::chrono::milliseconds>(shown - at).count();
        };
        QVERIFY2(lag(seen[1].second, *final.startedAt) < 4000,
                 qPrintable(QString::number(lag(seen[1].second, *final.startedAt))));
        QVERIFY2(lag(seen[2].second, *final.endedAt) < 4000,
                 qPrintable(QString::number(lag(seen[2].second, *final.endedAt))));

        // The run was selected and its log followed; in the history it is a completed run.
        QCOMPARE(monitor->logView()->runId(), watched);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->logView()->text().contains("done"), 10000);
        QTRY_VERIFY(monitor->timeline()->runs().size() >= 2);
        QCOMPARE(monitor->timeline()->limit(), 0); // every Job: no single limit line
    }

    void cancelSelectedRunsWithConfirmation() {
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor("sleeper", tester);
        RunsTableModel* model = monitor->model();
        const QString a = run("sleeper", "cancel-a");
        const QString b = run("sleeper", "cancel-b");
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, a), int(JobRunStatus::Running), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, b), int(JobRunStatus::Running), 15000);
        QCOMPARE(monitor->activeProxy()->rowCount(), 2);

        auto* view = monitor->findChild<QTableView*>("activeRunsView");
        auto* cancel = monitor->findChild<QPushButton*>("cancelButton");
        QVERIFY(view && cancel);
        QVERIFY(!cancel->isEnabled());
        view->selectAll();
        QVERIFY(cancel->isEnabled());
        cancel->click();
        auto* box = monitor->findChild<QMessageBox*>("cancelConfirmation");
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY(box->text().contains("Cancel 2 run(s)?"));
        QVERIFY(box->informativeText().contains(a) && box->informativeText().contains(b));
        box->findChild<QPushButton*>(QStringLiteral("confirmCancelRuns"))->click();

        // Shown as requested at once, until the final state arrives.
        QVERIFY(model->isCancelRequested(a.toStdString()));
        QCOMPARE(model->index(model->rowOf(a.toStdString()), RunsTableModel::Status).data().toString(),
                 QStringLiteral("Running, cancel requested"));
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, a), int(JobRunStatus::Canceled), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, b), int(JobRunStatus::Canceled), 15000);
        QVERIFY(!model->isCancelRequested(a.toStdString()));
        QCOMPARE(model->index(model->rowOf(a.toStdString()), RunsTableModel::Status).data().toString(),
                 QStringLiteral("Canceled"));
        // The runs view keeps the canceled runs with their outcome until finished runs are hidden.
        QCOMPARE(monitor->activeProxy()->rowCount(), 2);
        monitor->setShowFinished(false);
        QCOMPARE(monitor->activeProxy()->rowCount(), 0);
        monitor->setShowFinished(true);

        // Declining cancels nothing; cancelling a finished run shows the service's refusal.
        const QString c = run("sleeper", "cancel-c");
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, c), int(JobRunStatus::Running), 15000);
        view->selectAll();
        cancel->click();
        box = monitor->findChild<QMessageBox*>("cancelConfirmation");
        QVERIFY(box);
        box->findChild<QPushButton*>(QStringLiteral("keepRunning"))->click();
        QVERIFY(!model->isCancelRequested(c.toStdString()));
        QTest::qWait(300);
        QCOMPARE(statusIn(*model, c), int(JobRunStatus::Running));
        monitor->cancelRuns({{"sleeper", c}});
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, c), int(JobRunStatus::Canceled), 15000);
        monitor->cancelRuns({{"sleeper", a}});
        QTRY_VERIFY_WITH_TIMEOUT(monitor->message().contains("Job run " + a + " is already"), 10000);
        QVERIFY(!model->isCancelRequested(a.toStdString()));
    }

    void gaugeNeverAboveTheLimit() {
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor("sleeper", tester);
        RunGauge* gauge = monitor->findChild<RunGauge*>("gauge");
        QVERIFY(gauge);
        int violations = 0;
        int checks = 0;
        const auto check = [&] {
            ++checks;
            if (gauge->shownActive() > gauge->limit())
                ++violations;
        };
        connect(monitor->model(), &QAbstractItemModel::dataChanged, this, check);
        connect(monitor->model(), &QAbstractItemModel::rowsInserted, this, check);
        QTRY_COMPARE(gauge->limit(), 3);
        QStringList ids;
        for (int i = 0; i < 3; ++i)
            ids << run("sleeper", QStringLiteral("gauge-%1").arg(i));
        QTRY_COMPARE_WITH_TIMEOUT(gauge->active(), 3, 15000);
        QCOMPARE(gauge->shownActive(), 3);
        QCOMPARE(gauge->text(), QStringLiteral("3 of 3 active (at the limit)"));

        // Lowering the limit cancels nothing: three stay active, the bar stays at the limit.
        QVERIFY(statement(m_operator, "ALTER JOB sleeper SET MAX_CONCURRENT_RUNS = 1"));
        QTRY_COMPARE_WITH_TIMEOUT(gauge->limit(), 1, 10000);
        QCOMPARE(gauge->active(), 3);
        QCOMPARE(gauge->shownActive(), 1);
        QCOMPARE(gauge->text(),
                 QStringLiteral("1 of 1 active (2 more started before the limit was lowered)"));
        QString error;
        QVERIFY(!awaitReply(m_client->runJob("sleeper", {}, "gauge-4"), &error));
        const QString jobId =
            QString::fromStdString(awaitReply(m_client->describeJob("sleeper")).value_or(SparkJob{}).jobId);
        QCOMPARE(error, QStringLiteral("Spark Job %1 already has 3 active run(s) (max 1)").arg(jobId));

        const QString path = artifactsDir() + QStringLiteral("/run-monitor.png");
        QVERIFY2(monitor->grab().save(path), qPrintable(path));

        QList<QPair<QString, QString>> all;
        for (const QString& id : ids)
            all.append({QStringLiteral("sleeper"), id});
        monitor->cancelRuns(all);
        QTRY_COMPARE_WITH_TIMEOUT(gauge->active(), 0, 20000);
        QVERIFY(checks > 0);
        QCOMPARE(violations, 0);

        // The timeline saw three at once, at (above) the lowered cap. It is redrawn a moment after a
        // change (coalesced), so the lowered limit may reach it after the runs ended.
        QTRY_VERIFY(monitor->timeline()->layoutData().peak >= 3);
        QTRY_COMPARE(monitor->timeline()->limit(), 1);
        QVERIFY(!monitor->timeline()->layoutData().atCap.empty());
        QVERIFY(monitor->timeline()->layoutData().laneCount >= 3);
        QVERIFY(statement(m_operator, "ALTER JOB sleeper SET MAX_CONCURRENT_RUNS = 3"));
    }

    // A load the service refuses (here a wrong secret, until the right one is set) is tried again by
    // the monitor itself, saying so; live updates are stopped, so nothing else reloads it.
    void aFailedLoadIsTriedAgainByItself() {
        ApiClient client; // outlives the monitor
        client.setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, QStringLiteral("0")});
        RunMonitor monitor(&client);
        QAbstractItemModelTester tester(monitor.model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        monitor.resize(1000, 700);
        monitor.show();
        QSignalSpy loaded(&monitor, &RunMonitor::loaded);
        monitor.setJob("watched");
        monitor.events()->stop();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.message().contains("Cannot load the runs"), 20000);
        QVERIFY2(monitor.message().contains("retrying in"), qPrintable(monitor.message()));
        QCOMPARE(loaded.count(), 0);
        client.setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
        // Hang guard: the retries wait 1, 2, 4 ... s.
        QTRY_VERIFY2_WITH_TIMEOUT(loaded.count() > 0, qPrintable(monitor.message()), 60000);
        QVERIFY2(!monitor.message().contains("Cannot load"), qPrintable(monitor.message()));
    }

    // A queued run's reason changes with no event (the scheduler replaces the admission's "Waiting for
    // the scheduler" when it next looks): the runs view shows the reason the service gives now.
    void aQueuedRunsReasonIsTheServicesNow() {
        QVERIFY(statement(m_operator, "CREATE CLUSTER single_slot TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1"));
        QVERIFY(statement(m_operator, "CREATE JOB holder TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--sleep', '120' ) CLUSTER = 'single_slot'"));
        QVERIFY(statement(m_operator, "CREATE JOB waiter TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--sleep', '1' ) CLUSTER = 'single_slot'"));
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor({}, tester);
        RunsTableModel* model = monitor->model();
        const QString holder = run("holder", "holder-1");
        QVERIFY(!holder.isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(statusIn(*model, holder), int(JobRunStatus::Running), 15000);
        const QString waiter = run("waiter", "waiter-1");
        QVERIFY(!waiter.isEmpty());
        const auto detail = [&] {
            const int row = model->rowOf(waiter.toStdString());
            return row < 0 ? QString() : model->index(row, RunsTableModel::Detail).data().toString();
        };
        const QString slotReason = QString::fromStdString(waitingForDriverSlotReason("single_slot", 1, 1));
        QTRY_COMPARE_WITH_TIMEOUT(detail(), slotReason, 15000);
        QCOMPARE(statusIn(*model, waiter), int(JobRunStatus::Queued));
        // Read before the scheduler looked (the console's DESCRIBE follows the admission's event within
        // milliseconds), the run showed the admission's reason; no event comes when it changes.
        SparkJobRun early = model->run(model->rowOf(waiter.toStdString()));
        early.queueReason = waitingForSchedulerReason();
        model->upsertRuns({early});
        QCOMPARE(detail(), QString::fromStdString(waitingForSchedulerReason()));
        QTRY_COMPARE_WITH_TIMEOUT(detail(), slotReason, 15000);
        // Its log, followed, says it has no output yet (not "select a run").
        monitor->showRun(QStringLiteral("waiter"), waiter);
        QTRY_COMPARE(monitor->logView()->runId(), waiter);
        QVERIFY2(
            monitor->logView()->textEdit()->placeholderText().startsWith(QStringLiteral("No output yet")),
            qPrintable(monitor->logView()->textEdit()->placeholderText()));
        awaitReply(m_client->cancelJobRun(waiter, QStringLiteral("waiter")));
        awaitReply(m_client->cancelJobRun(holder, QStringLiteral("holder")));
    }

    // The runs and the log below them share the dock's height: concurrent runs are not scrolled out of a
    // table squeezed to a couple of rows beside an empty log.
    void theRunsAndTheLogShareTheHeight() {
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor({}, tester);
        monitor->resize(1000, 420); // the runs dock under the jobs in a 1280×800 window
        QTest::qWait(50);
        const QTableView* runs = monitor->activeView();
        const int rows = runs->viewport()->height() / runs->verticalHeader()->defaultSectionSize();
        const QPlainTextEdit* log = monitor->logView()->textEdit();
        const int lines = log->viewport()->height() / log->fontMetrics().lineSpacing();
        QVERIFY2(rows >= 4 && lines >= 4,
                 qPrintable(QStringLiteral("%1 rows, %2 lines").arg(rows).arg(lines)));
    }

    void logTailFollowsAGrowingLog() {
        std::unique_ptr<QAbstractItemModelTester> tester;
        auto monitor = monitorFor("talker", tester);
        monitor->resize(900, 500); // the log does not fit: it has to scroll
        const QString id = run("talker", "talk-1");
        QVERIFY(!id.isEmpty());
        monitor->showRun("talker", id);
        LogView* log = monitor->findChild<LogView*>("logView");
        QVERIFY(log);
        QTRY_COMPARE_WITH_TIMEOUT(log->runId(), id, 10000);
        // Seen part way: the log grows while the run goes on.
        QTRY_VERIFY_WITH_TIMEOUT(log->text().contains("line 5\n"), 15000);
        QVERIFY2(!log->text().contains("done"), "the tail shows output before the run ends");
        QTRY_VERIFY_WITH_TIMEOUT(log->text().contains("line 20\n"), 15000);
        QVERIFY(log->isFollowingTail());
        QScrollBar* bar = log->textEdit()->verticalScrollBar();
        QVERIFY(bar->maximum() > 0);
        QCOMPARE(bar->value(), bar->maximum()); // scrolled with the output

        // Scrolled up, it stays where the user is while the output grows.
        bar->setValue(0);
        QVERIFY(!log->isFollowingTail());
        const int lengthBefore = static_cast<int>(log->text().size());
        QTRY_VERIFY_WITH_TIMEOUT(log->text().size() > lengthBefore, 10000);
        QCOMPARE(bar->value(), 0);
        bar->setValue(bar->maximum());
        QVERIFY(log->isFollowingTail());
        QTRY_VERIFY_WITH_TIMEOUT(log->isComplete(), 20000);
        QVERIFY(log->text().contains("line 60\ndone\n"));
        QVERIFY(log->text().contains("run-id: " + id));

        // Ctrl+F opens the search; matches are selected.
        QApplication::setActiveWindow(monitor.get());
        QVERIFY(QTest::qWaitForWindowActive(monitor.get()));
        log->textEdit()->setFocus();
        QTest::keyClick(log->textEdit(), Qt::Key_F, Qt::ControlModifier);
        auto* search = log->findChild<QLineEdit*>("logSearch");
        QVERIFY(search);
        QTRY_VERIFY(search->isVisible());
        QVERIFY(log->find("line 42"));
        QCOMPARE(log->textEdit()->textCursor().selectedText(), QStringLiteral("line 42"));
        QVERIFY(!log->find("no such text"));

        // Saved to a file as shown.
        const QString path = artifactsDir() + QStringLiteral("/talker.log");
        QString error;
        QVERIFY2(log->saveTo(path, &error), qPrintable(error));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(saved.readAll()), log->text());
        QVERIFY(!log->saveTo(artifactsDir() + QStringLiteral("/no/such/dir/x.log"), &error));
        QVERIFY(!error.isEmpty());
    }
};

JOBDECK_TEST_MAIN(TestRunMonitor)
#include "tst_runmonitor.moc"
