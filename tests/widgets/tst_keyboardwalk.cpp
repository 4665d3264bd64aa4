// The console with the keyboard only, against a real jobdeckd (issue "the console in daily use", §4):
// create a job, let the editor's quick fix move a misplaced --hudi-conf, save, find it with the filter,
// edit it, run it and cancel the run. Every step is a key event sent to the widget that has the focus;
// the test only reads state, so a keyboard trap, a popup opening on no item or a dialog closing to no
// focus fails here.
#include "core/parameters/Diagnostic.h"
#include "models/JobsTableModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/RunDialog.h"
#include "widgets/RunMonitor.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;
using nlohmann::json;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
const QString kPair = QStringLiteral("hoodie.datasource.meta.sync.database=orders");

// One key to whatever has the keyboard; false when nothing has it (a keyboard trap of its own kind).
bool press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QWidget* focused = QApplication::focusWidget();
    if (!focused)
        return false;
    QTest::keyClick(focused, key, modifiers);
    return true;
}

bool typeText(const QString& text) {
    for (const QChar c : text) {
        QWidget* focused = QApplication::focusWidget();
        if (!focused)
            return false;
        QTest::keyClicks(focused, QString(c));
    }
    return true;
}

// Tab until `target` has the keyboard, as a user would; at most 20 presses.
bool tabTo(const QWidget* target) {
    for (int presses = 0; presses < 20; ++presses) {
        if (target->hasFocus())
            return true;
        if (!press(Qt::Key_Tab))
            return false;
    }
    return target->hasFocus();
}

QMenu* visibleMenu(const QString& name) {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* menu = qobject_cast<QMenu*>(w); menu && menu->isVisible() && menu->objectName() == name)
            return menu;
    return nullptr;
}

bool hasWarning(const ParameterEditor* editor, std::string_view code) {
    for (const Diagnostic& d : editor->diagnostics())
        if (d.code == code)
            return true;
    return false;
}

template <class Dialog> Dialog* visibleChild(QWidget* parent, const QString& name) {
    for (Dialog* d : parent->findChildren<Dialog*>(name))
        if (d->isVisible())
            return d;
    return nullptr;
}

} // namespace

class TestKeyboardWalk final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ConsoleHome m_home;

    json describeJob(const QString& name) {
        return runStatement(m_service, m_admin, QStringLiteral("DESCRIBE JOB %1").arg(name));
    }

    static QStringList parametersOf(const json& described) {
        QStringList parameters;
        const json job = described.value("apiResponse", json::object())
                             .value("describeJobApiResponse", json::object())
                             .value("sparkJob", json::object());
        for (const json& p : job.value("parameters", json::array()))
            parameters << QString::fromStdString(p.get<std::string>());
        return parameters;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("keys"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statementSucceeds(m_service, m_admin,
                                  "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(statementSucceeds(m_service, m_admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statementSucceeds(
            m_service, m_admin, "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')"));
        QVERIFY(statementSucceeds(m_service, m_admin,
                                  "CREATE JOB first_job TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                      "' ) CLUSTER = 'main'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("keys"), m_service, m_admin, &error), qPrintable(error));
    }

    void createEditRunCancelWithKeysOnly() {
        MainWindow window(m_home.options(QStringLiteral("keys")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(loaded.wait(20000));
        QTRY_VERIFY(window.isActiveWindow());
        QTRY_VERIFY(QApplication::focusWidget() != nullptr);

        // Create: Ctrl+N, the name, Tab to the type and the cluster, Tab to the parameters.
        QVERIFY(press(Qt::Key_N, Qt::ControlModifier));
        JobEditorDialog* form = nullptr;
        QTRY_VERIFY((form = visibleChild<JobEditorDialog>(&window, QStringLiteral("jobEditorDialog"))) !=
                    nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!form->isLoading(), 15000);
        auto* name = form->findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QTRY_VERIFY(name->hasFocus());
        QVERIFY(typeText(QStringLiteral("kb_job")));
        auto* type = form->findChild<QComboBox*>(QStringLiteral("typeCombo"));
        QVERIFY(tabTo(type));
        QVERIFY(typeText(QStringLiteral("P")));
        QCOMPARE(type->currentText(), QStringLiteral("PYTHON"));
        auto* cluster = form->findChild<QComboBox*>(QStringLiteral("clusterCombo"));
        QVERIFY(tabTo(cluster));
        QVERIFY(press(Qt::Key_A, Qt::ControlModifier));
        QVERIFY(typeText(QStringLiteral("main")));
        QCOMPARE(cluster->currentText(), QStringLiteral("main"));
        ParameterEditor* editor = form->editor();
        QVERIFY(tabTo(editor));
        // The application path, its arguments, then a --hudi-conf after the path: a misplaced pair.
        for (const QString& line :
             {kApp, QStringLiteral("--sleep"), QStringLiteral("60"), QStringLiteral("--hudi-conf")}) {
            QVERIFY(typeText(line));
            QVERIFY(press(Qt::Key_Return));
        }
        QVERIFY(typeText(kPair));
        QCOMPARE(editor->toPlainText(), QStringList({kApp, QStringLiteral("--sleep"), QStringLiteral("60"),
                                                     QStringLiteral("--hudi-conf"), kPair})
                                            .join(QLatin1Char('\n')));
        QTRY_VERIFY_WITH_TIMEOUT(hasWarning(editor, "hudi-conf.after-path"), 10000);

        // Fix: Ctrl+. opens the fixes on their first item; Down to the move, Return applies it.
        QVERIFY(press(Qt::Key_Period, Qt::ControlModifier));
        QMenu* fixes = nullptr;
        QTRY_VERIFY((fixes = visibleMenu(QStringLiteral("fixMenu"))) != nullptr);
        QVERIFY(fixes->activeAction() != nullptr);
        for (int down = 0; down < fixes->actions().size() &&
                           !fixes->activeAction()->text().startsWith(QStringLiteral("Move --hudi-conf"));
             ++down)
            QTest::keyClick(fixes, Qt::Key_Down);
        QVERIFY2(fixes->activeAction()->text().startsWith(QStringLiteral("Move --hudi-conf")),
                 qPrintable(fixes->activeAction()->text()));
        QTest::keyClick(fixes, Qt::Key_Return);
        QTRY_VERIFY(!fixes->isVisible());
        QTRY_VERIFY(editor->hasFocus());
        QTRY_VERIFY_WITH_TIMEOUT(!hasWarning(editor, "hudi-conf.after-path"), 10000);

        // Save: Ctrl+S, the form closes and the keyboard is back on the jobs list.
        QVERIFY(press(Qt::Key_S, Qt::ControlModifier));
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("kb_job") >= 0, 15000);
        QTRY_VERIFY(visibleChild<JobEditorDialog>(&window, QStringLiteral("jobEditorDialog")) == nullptr);
        QTRY_VERIFY(window.jobsView()->table()->hasFocus());
        QCOMPARE(parametersOf(describeJob(QStringLiteral("kb_job"))),
                 QStringList({QStringLiteral("--hudi-conf"), kPair, kApp, QStringLiteral("--sleep"),
                              QStringLiteral("60")}));

        // Find it: Ctrl+L, the name, Down into the list.
        QVERIFY(press(Qt::Key_L, Qt::ControlModifier));
        QTRY_VERIFY(window.jobsView()->filterEdit()->hasFocus());
        QVERIFY(typeText(QStringLiteral("kb_")));
        QVERIFY(press(Qt::Key_Down));
        QTRY_VERIFY(window.jobsView()->table()->hasFocus());
        QCOMPARE(window.jobsView()->currentJobName(), std::optional<std::string>("kb_job"));

        // Edit: Ctrl+E opens it on the parameters; two more arguments at the end, Ctrl+S.
        QVERIFY(press(Qt::Key_E, Qt::ControlModifier));
        QTRY_VERIFY((form = visibleChild<JobEditorDialog>(&window, QStringLiteral("jobEditorDialog"))) !=
                    nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!form->isLoading(), 15000);
        QTRY_VERIFY(form->editor()->hasFocus());
        QVERIFY(press(Qt::Key_End, Qt::ControlModifier));
        QVERIFY(press(Qt::Key_Return));
        QVERIFY(typeText(QStringLiteral("--lines")));
        QVERIFY(press(Qt::Key_Return));
        QVERIFY(typeText(QStringLiteral("2")));
        QVERIFY(press(Qt::Key_S, Qt::ControlModifier));
        QTRY_VERIFY_WITH_TIMEOUT(
            parametersOf(describeJob(QStringLiteral("kb_job"))).endsWith(QStringLiteral("2")), 15000);
        QTRY_VERIFY(visibleChild<JobEditorDialog>(&window, QStringLiteral("jobEditorDialog")) == nullptr);
        QTRY_VERIFY(window.jobsView()->table()->hasFocus());

        // Run: Ctrl+R, Return runs it, Escape closes the dialog back to the list.
        QVERIFY(press(Qt::Key_R, Qt::ControlModifier));
        RunDialog* runDialog = nullptr;
        QTRY_VERIFY((runDialog = visibleChild<RunDialog>(&window, QStringLiteral("runDialog"))) != nullptr);
        QTRY_VERIFY(runDialog->isAncestorOf(QApplication::focusWidget()));
        QSignalSpy started(runDialog, &RunDialog::runStarted);
        QVERIFY(press(Qt::Key_Return));
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 20000);
        const std::string runId = started[0][1].toString().toStdString();
        QVERIFY(press(Qt::Key_Escape));
        QTRY_VERIFY(visibleChild<RunDialog>(&window, QStringLiteral("runDialog")) == nullptr);
        QTRY_VERIFY(window.jobsView()->table()->hasFocus());

        // Cancel: Ctrl+Shift+M to the runs, Delete, Tab to "Cancel run", Space.
        RunMonitor* monitor = window.runMonitor();
        QTRY_VERIFY_WITH_TIMEOUT(monitor->model()->rowOf(runId) >= 0, 15000);
        QVERIFY(press(Qt::Key_M, Qt::ControlModifier | Qt::ShiftModifier));
        QTRY_VERIFY(monitor->activeView()->hasFocus());
        QCOMPARE(monitor->currentRun() ? monitor->currentRun()->jobRunId : std::string(), runId);
        QVERIFY(press(Qt::Key_Delete));
        QMessageBox* confirm = nullptr;
        QTRY_VERIFY((confirm = visibleChild<QMessageBox>(monitor, QStringLiteral("cancelConfirmation"))) !=
                    nullptr);
        auto* cancelRun = confirm->findChild<QPushButton*>(QStringLiteral("confirmCancelRuns"));
        QVERIFY(cancelRun);
        QTRY_VERIFY(confirm->isAncestorOf(QApplication::focusWidget()));
        QVERIFY(tabTo(cancelRun));
        QVERIFY(press(Qt::Key_Space));
        QTRY_COMPARE_WITH_TIMEOUT(int(monitor->model()->run(monitor->model()->rowOf(runId)).status),
                                  int(JobRunStatus::Canceled), 30000);
        QTRY_VERIFY(QApplication::focusWidget() != nullptr &&
                    window.isAncestorOf(QApplication::focusWidget()));
    }
};

JOBDECK_TEST_MAIN(TestKeyboardWalk)
#include "tst_keyboardwalk.moc"
