// Every view shows what is true now (issue "the console in daily use", §1), against a real jobdeckd: a
// filter that hides the selected job clears its DESCRIBE and disables the job actions; a DESCRIBE that is
// not the job's (the project's) stays; a job the filter keeps stays selected and described.
#include "models/JsonTreeModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"

#include <QAction>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

class TestFilterHidesSelection final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ConsoleHome m_home;

    std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>(m_home.options(QStringLiteral("filter")));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->resize(1280, 800);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

    static QLineEdit* filter(MainWindow& window) {
        return window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
    }

    static void typeFilter(MainWindow& window, const QString& text) {
        QLineEdit* edit = filter(window);
        QVERIFY(edit);
        edit->setFocus();
        edit->selectAll();
        QTest::keyClick(edit, Qt::Key_Backspace);
        QTest::keyClicks(edit, text);
    }

    static QStringList enabledJobActions(const MainWindow& window) {
        QStringList enabled;
        for (QAction* a :
             {window.editAction(), window.runAction(), window.describeAction(), window.deleteAction()})
            if (a->isEnabled())
                enabled << a->text();
        return enabled;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("filter"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        const auto ok = [this](const QString& s) { return statementSucceeds(m_service, m_operator, s); };
        QVERIFY(ok("CREATE CLUSTER demo_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(
            ok("CREATE JOB alpha TYPE = 'PYTHON' PARAMETERS = ( 's3://b/a.py' ) CLUSTER = 'demo_cluster'"));
        QVERIFY(
            ok("CREATE JOB beta TYPE = 'PYTHON' PARAMETERS = ( 's3://b/b.py' ) CLUSTER = 'demo_cluster'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("filter"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    void aFilterThatHidesTheSelectedJobClearsIt() {
        auto window = openWindow();
        QVERIFY(window);
        DescribeViewer* viewer = window->describeViewer();
        QVERIFY(window->jobsView()->selectJob("alpha"));
        QTRY_COMPARE_WITH_TIMEOUT(viewer->title(), QStringLiteral("DESCRIBE JOB alpha"), 20000);
        QCOMPARE(enabledJobActions(*window).size(), 4);

        typeFilter(*window, QStringLiteral("beta"));
        QTRY_COMPARE_WITH_TIMEOUT(window->jobsView()->countText(), QStringLiteral("1 of 2 jobs"), 10000);
        QTRY_COMPARE(enabledJobActions(*window), QStringList());
        QVERIFY(!window->currentJob());
        QTRY_VERIFY(!viewer->title().contains(QStringLiteral("alpha")));
        QCOMPARE(viewer->treeModel()->rowCount(), 0);
        QVERIFY(!viewer->rawText().contains(QStringLiteral("alpha")));
        QVERIFY(window->jobsView()->table()->selectionModel()->selectedRows().isEmpty());

        // Clearing the filter shows alpha again, not selected: nothing is described or enabled for it.
        typeFilter(*window, QString());
        QTRY_COMPARE_WITH_TIMEOUT(window->jobsView()->countText(), QStringLiteral("2 jobs"), 10000);
        QCOMPARE(enabledJobActions(*window), QStringList());
        QVERIFY(!viewer->title().contains(QStringLiteral("alpha")));
    }

    void aFilterThatKeepsTheSelectedJobKeepsIt() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->jobsView()->selectJob("beta"));
        QTRY_COMPARE_WITH_TIMEOUT(window->describeViewer()->title(), QStringLiteral("DESCRIBE JOB beta"),
                                  20000);
        typeFilter(*window, QStringLiteral("bet"));
        QTRY_COMPARE_WITH_TIMEOUT(window->jobsView()->countText(), QStringLiteral("1 of 2 jobs"), 10000);
        QCOMPARE(window->jobsView()->currentJobName(), std::optional<std::string>("beta"));
        QCOMPARE(enabledJobActions(*window).size(), 4);
        QCOMPARE(window->describeViewer()->title(), QStringLiteral("DESCRIBE JOB beta"));
    }

    // The project's DESCRIBE is not the hidden job's: it stays.
    void aDescribeOfTheProjectStays() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->jobsView()->selectJob("alpha"));
        QTRY_COMPARE_WITH_TIMEOUT(window->describeViewer()->title(), QStringLiteral("DESCRIBE JOB alpha"),
                                  20000);
        window->describeProject();
        QTRY_VERIFY_WITH_TIMEOUT(
            window->describeViewer()->title().startsWith(QStringLiteral("DESCRIBE PROJECT")), 20000);
        const QString title = window->describeViewer()->title();
        typeFilter(*window, QStringLiteral("beta"));
        QTRY_COMPARE(enabledJobActions(*window), QStringList());
        QCOMPARE(window->describeViewer()->title(), title);
        QVERIFY(window->describeViewer()->treeModel()->rowCount() > 0);
    }
};

JOBDECK_TEST_MAIN(TestFilterHidesSelection)
#include "tst_filterhidesselection.moc"
