// The main window's job actions against a real jobdeckd, per role: what the key's role may not send is
// disabled before anything is sent, with core's refusal (the service's own text) as tooltip and status tip.
#include "core/policy/RolePolicy.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QDialog>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

class TestMainWindowRoles final : public QObject {
    Q_OBJECT

    TestService m_service;
    ConsoleHome m_home;

    // A window on `profile`, its job list loaded and a job selected.
    std::unique_ptr<MainWindow> open(const QString& profile) {
        auto window = std::make_unique<MainWindow>(m_home.options(profile));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->show();
        if (!loaded.wait(20000))
            qWarning("the jobs did not load");
        window->jobsView()->selectJob("roles_job");
        return window;
    }

    static QList<QAction*> jobActions(const MainWindow& w) {
        return {w.newAction(), w.editAction(), w.runAction(), w.deleteAction()};
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QString error;
        for (const char* role : {"viewer", "operator"}) {
            const ApiCredentials key =
                m_service.createKey(QStringLiteral("roles"), QString::fromLatin1(role));
            QVERIFY2(key.isValid(), qPrintable(m_service.lastError()));
            QVERIFY2(m_home.saveProfile(QString::fromLatin1(role), m_service, key, &error),
                     qPrintable(error));
            if (QLatin1String(role) == QLatin1String("operator")) {
                QVERIFY(statementSucceeds(
                    m_service, key, "CREATE CLUSTER roles_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
                QVERIFY(
                    statementSucceeds(m_service, key,
                                      "CREATE JOB roles_job TYPE = 'JAR' PARAMETERS = ( 's3://b/app.jar' ) "
                                      "CLUSTER = 'roles_cluster'"));
            }
        }
    }

    void aViewerSeesWhyBeforeSending() {
        const auto window = open(QStringLiteral("viewer"));
        QVERIFY(window->jobsView()->currentJobName().has_value());
        const QStringList expected{
            QStringLiteral("Permission denied: viewer cannot CREATE JOB"),
            QStringLiteral("Permission denied: viewer cannot ALTER JOB"),
            QStringLiteral("Permission denied: viewer cannot RUN JOB"),
            QStringLiteral("Permission denied: viewer cannot DELETE JOB"),
        };
        const QList<QAction*> actions = jobActions(*window);
        for (int i = 0; i < actions.size(); ++i) {
            QTRY_COMPARE_WITH_TIMEOUT(actions[i]->toolTip(), expected[i], 20000);
            QVERIFY(!actions[i]->isEnabled());
            QCOMPARE(actions[i]->statusTip(), expected[i]);
        }
        // The text is core's, the one the service refuses with.
        QCOMPARE(window->newAction()->toolTip().toStdString(),
                 *RolePolicy::refusal(Role::Viewer, CreateJobStatement{}));
        // A selection change does not enable them again; describing is still allowed.
        window->jobsView()->selectJob("roles_job");
        QVERIFY(!window->editAction()->isEnabled());
        QVERIFY(window->describeAction()->isEnabled());
        // The runs monitor's Cancel button too, whatever its selection says.
        auto* cancel = window->findChild<QAbstractButton*>(QStringLiteral("cancelButton"));
        QVERIFY(cancel);
        cancel->setEnabled(true); // what a selected run does
        QVERIFY(!cancel->isEnabled());
        QCOMPARE(cancel->toolTip(), QStringLiteral("Permission denied: viewer cannot CANCEL JOB_RUN"));
        // Triggering a disabled action (a double-click on the row triggers Edit) sends nothing.
        window->editAction()->trigger();
        QVERIFY(!window->findChild<QDialog*>(QStringLiteral("jobEditorDialog")));
    }

    void anOperatorMayChangeJobs() {
        const auto window = open(QStringLiteral("operator"));
        QVERIFY(window->jobsView()->currentJobName().has_value());
        for (QAction* a : jobActions(*window)) {
            QTRY_VERIFY_WITH_TIMEOUT(a->isEnabled(), 20000);
            QVERIFY2(!a->toolTip().contains(QStringLiteral("Permission denied")), qPrintable(a->toolTip()));
        }
        auto* cancel = window->findChild<QAbstractButton*>(QStringLiteral("cancelButton"));
        QVERIFY(cancel);
        cancel->setEnabled(true);
        QVERIFY(cancel->isEnabled());
    }
};

JOBDECK_TEST_MAIN(TestMainWindowRoles)
#include "tst_mainwindowroles.moc"
