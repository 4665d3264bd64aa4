// The run wiring of the main window against a real jobdeckd: Run opens the run dialog, a started run
// shows in the docked runs monitor (selected, its log followed), the dock toggles from the View menu,
// and "Monitor runs of this job" narrows the monitor to the selected job and back to every job.
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/JobsView.h"
#include "widgets/LogView.h"
#include "widgets/MainWindow.h"
#include "widgets/RunDialog.h"
#include "widgets/RunMonitor.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

} // namespace

class TestMainWindowRuns final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ConsoleHome m_home;

    bool statement(const QString& text) { return statementSucceeds(m_service, m_operator, text); }

    MainWindow::Options options() const { return m_home.options(QStringLiteral("runs")); }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("runs"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statement("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB hello TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--lines', '3' ) CLUSTER = 'main'"));
        QVERIFY(statement("CREATE JOB other TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--lines', '1' ) CLUSTER = 'main'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("runs"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    void runShowsInTheDockedMonitor() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));

        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("runMonitorDock"));
        QVERIFY(dock);
        QCOMPARE(dock, window.runMonitorDock());
        QCOMPARE(dock->widget(), window.runMonitor());
        QVERIFY(!dock->isVisible());
        RunMonitor* monitor = window.runMonitor();
        QCOMPARE(monitor->jobName(), QString()); // every job by default

        // The dock toggles from the View menu; its shortcut goes to the runs and, pressed there, back.
        auto* toggle = window.findChild<QAction*>(QStringLiteral("actionRunMonitor"));
        QVERIFY(toggle);
        auto* goToRuns = window.findChild<QAction*>(QStringLiteral("actionGoToRuns"));
        QVERIFY(goToRuns);
        QCOMPARE(goToRuns->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
        goToRuns->trigger();
        QTRY_VERIFY(dock->isVisible());
        QTRY_VERIFY(monitor->activeView()->hasFocus());
        goToRuns->trigger();
        QTRY_VERIFY(!dock->isVisible());
        QTRY_VERIFY(window.jobsView()->table()->hasFocus());
        bool inViewMenu = false;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->text() == QStringLiteral("&View") && menu->menu())
                inViewMenu = menu->menu()->actions().contains(toggle);
        QVERIFY(inViewMenu);
        toggle->trigger();
        QTRY_VERIFY(dock->isVisible());
        toggle->trigger();
        QTRY_VERIFY(!dock->isVisible());

        // Run opens the run dialog (no plain confirmation); its started run shows in the monitor.
        QVERIFY(window.jobsView()->selectJob("hello"));
        window.runAction()->trigger();
        RunDialog* dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = window.findChild<RunDialog*>(QStringLiteral("runDialog"))) != nullptr, 10000);
        QSignalSpy started(dialog, &RunDialog::runStarted);
        dialog->submit();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000);
        QCOMPARE(started[0][0].toString(), QStringLiteral("hello"));
        const QString runId = started[0][1].toString();
        QVERIFY(!runId.isEmpty());
        QTRY_VERIFY(dock->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(monitor->model()->rowOf(runId.toStdString()) >= 0, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->logView()->runId(), runId, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(
            int(monitor->model()->run(monitor->model()->rowOf(runId.toStdString())).status),
            int(JobRunStatus::Completed), 30000);
        dialog->close();

        // Following the selected job narrows the monitor; unchecked, it shows every job again.
        QAction* follow = window.monitorJobRunsAction();
        QVERIFY(follow && follow->isCheckable() && !follow->isChecked());
        QCOMPARE(follow->objectName(), QStringLiteral("actionMonitorJobRuns"));
        follow->setChecked(true);
        QCOMPARE(monitor->jobName(), QStringLiteral("hello"));
        QVERIFY(window.jobsView()->selectJob("other"));
        QTRY_COMPARE(monitor->jobName(), QStringLiteral("other"));
        follow->setChecked(false);
        QCOMPARE(monitor->jobName(), QString());
    }
};

JOBDECK_TEST_MAIN(TestMainWindowRuns)
#include "tst_mainwindowruns.moc"
