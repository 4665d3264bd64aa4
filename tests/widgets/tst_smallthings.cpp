// Smaller things met in daily use (issue "the console in daily use", §6), against a real jobdeckd:
// File → Connect → New profile → Connect saves the typed profile and connects with it; the keyboard
// reaches the jobs list from the filter and comes back to it when the job editor closes.
#include "client/ConnectionMonitor.h"
#include "client/ConnectionProfiles.h"
#include "models/JobsTableModel.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionDialog.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/MainWindow.h"

#include <QApplication>
#include <QDialog>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

class TestSmallThings final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ConsoleHome m_home;

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("small"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("first"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    void connectSavesTheNewProfile() {
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));

        window.openConnectionDialog();
        ConnectionDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<ConnectionDialog*>(QStringLiteral("connectionDialog"))) !=
                    nullptr);
        dialog->findChild<QPushButton*>(QStringLiteral("newProfile"))->click();
        const auto fill = [dialog](const char* name, const QString& text) {
            auto* edit = dialog->findChild<QLineEdit*>(QString::fromLatin1(name));
            QVERIFY(edit);
            QTest::keyClicks(edit, text);
        };
        fill("profileName", QStringLiteral("second"));
        fill("profileUrl", m_service.baseUrl().toString());
        fill("profileProject", m_operator.projectUid);
        fill("profileApiKey", m_operator.apiKey);
        fill("profileSecret", m_operator.apiSecret);
        QSignalSpy reloaded(&window, &MainWindow::jobsLoaded);
        dialog->findChild<QPushButton*>(QStringLiteral("connectProfile"))->click();

        QTRY_VERIFY(window.profiles()->profile(QStringLiteral("second")).has_value());
        QTRY_COMPARE(window.currentProfile(), QStringLiteral("second"));
        QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() > 0, 20000);
        QCOMPARE(window.monitor()->state(), ConnectionMonitor::State::Connected);
    }

    // Keys only: Down in the filter reaches the list; closing the job editor gives the keyboard back to
    // the main window's list (editor §4's keyboard bullet).
    void theKeyboardReachesTheListAndComesBack() {
        QVERIFY(statementSucceeds(m_service, m_operator,
                                  "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(
            statementSucceeds(m_service, m_operator,
                              "CREATE JOB keyed TYPE = 'PYTHON' PARAMETERS = ( 'app.py' ) CLUSTER = 'main'"));
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        QTRY_VERIFY(window.jobsModel()->rowOf("keyed") >= 0);

        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
        auto* table = window.findChild<QTableView*>(QStringLiteral("jobsTable"));
        QVERIFY(filter && table);
        filter->setFocus();
        QTRY_VERIFY(filter->hasFocus());
        QTest::keyClicks(filter, QStringLiteral("keyed"));
        QTest::keyClick(filter, Qt::Key_Down);
        QTRY_VERIFY(table->hasFocus());
        QCOMPARE(window.currentJob().value_or(SparkJobSummary{}).name, std::string("keyed"));

        // Ctrl+N opens the editor; Escape closes it (nothing typed); the list has the keyboard again.
        QTest::keyClick(table, Qt::Key_N, Qt::ControlModifier);
        QDialog* editor = nullptr;
        QTRY_VERIFY((editor = window.findChild<QDialog*>(QStringLiteral("jobEditorDialog"))) != nullptr &&
                    editor->isVisible());
        QTRY_VERIFY(QApplication::activeWindow() == editor);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!editor->isVisible());
        QTRY_VERIFY(QApplication::activeWindow() == &window);
        QTRY_VERIFY(table->hasFocus());

        // Edit (Return on the row): the Name cannot change, and looks so.
        QTest::keyClick(table, Qt::Key_Return);
        QTRY_VERIFY((editor = window.findChild<QDialog*>(QStringLiteral("jobEditorDialog"))) != nullptr &&
                    editor->isVisible());
        auto* name = editor->findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QVERIFY(name && name->isReadOnly());
        QCOMPARE(name->text(), QStringLiteral("keyed"));
        QCOMPARE(name->palette().color(QPalette::Base), name->palette().color(QPalette::Window));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(table->hasFocus());
    }
};

QTEST_MAIN(TestSmallThings)
#include "tst_smallthings.moc"
