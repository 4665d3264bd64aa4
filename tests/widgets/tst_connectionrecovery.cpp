// The console losing its service and getting it back, end to end against a real jobdeckd: the status
// bar shows the loss at once; when the service returns on the same port with the same data the console
// reconnects by itself, reloads what changed meanwhile, resumes its events subscription, and keeps
// everything the user typed (the filter, the selection, a job half written in the editor).
#include "client/ApiClient.h"
#include "client/ConnectionMonitor.h"
#include "client/EventsSubscription.h"
#include "core/statements/StatementPrinter.h"
#include "models/AuditLogModel.h"
#include "models/ClustersModel.h"
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/AdminViews.h"
#include "widgets/AuditView.h"
#include "widgets/ClustersView.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/ProjectView.h"
#include "widgets/RunDialog.h"
#include "widgets/RunMonitor.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <cstring>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

CreateJobStatement jarJob(const std::string& name) {
    return CreateJobStatement{name,
                              JobType::Jar,
                              {"--class", "com.example.App", "s3://bucket/" + name + ".jar"},
                              "demo_cluster",
                              std::nullopt};
}

// The connection state as the status bar shows it, on its own: a client, its monitor (health every
// 300 ms, the given back-off) and the widget.
struct StatusBarPart final {
    ApiClient client;
    ConnectionMonitor monitor{&client};
    ConnectionStatusWidget widget;

    StatusBarPart(const ConnectionInfo& connection, std::chrono::milliseconds backoff,
                  std::chrono::milliseconds backoffCap) {
        client.setConnection(connection);
        monitor.setHealthInterval(300ms);
        monitor.setBackoff(backoff, backoffCap);
        widget.setMonitor(&monitor, &client);
    }
};

} // namespace

class TestConnectionRecovery final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ConsoleHome m_home;

    void run(const Statement& s) {
        const json status = runStatement(m_service, m_admin, QString::fromStdString(printStatement(s)));
        QVERIFY2(status.value("apiStatus", "") == "API_OPERATION_STATUS_SUCCESS", status.dump().c_str());
    }

    MainWindow::Options options() const { return m_home.options(QStringLiteral("e2e")); }

    ConnectionInfo connection() const {
        return {m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret};
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("e2e"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        run(CreateClusterStatement{"demo_cluster", "Spark", 2, 1, {}});
        run(jarJob("count_transactions"));
        run(CreateJobStatement{
            "daily_report", JobType::Python, {"s3://bucket/report.py"}, "demo_cluster", std::nullopt});
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("e2e"), m_service, m_admin, &error), qPrintable(error));
    }

    // kill -9 while the user is typing; the service comes back on the same port after another client
    // changed the project meanwhile.
    void killedServiceComesBack() {
        MainWindow window(options());
        // Shorter than a user's defaults so the test stays short; the policy is the same.
        window.monitor()->setHealthInterval(500ms);
        window.monitor()->setBackoff(200ms, 1000ms);
        window.events()->setBackoff(200ms, 1000ms);
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        auto* status = window.findChild<QLabel*>(QStringLiteral("connectionStatusText"));
        QVERIFY(status);
        const QString connectedText = QStringLiteral("Connected to %1").arg(m_service.baseUrl().toString());
        QVERIFY2(status->text().contains(connectedText), qPrintable(status->text()));
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->isRunning(), 5000);

        // What the user is in the middle of: a filter, a selected job, a new job half written.
        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
        QVERIFY(filter);
        QTest::keyClicks(filter, QStringLiteral("type:jar"));
        QCOMPARE(window.jobsProxy()->rowCount(), 1);
        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        window.newAction()->trigger();
        JobEditorDialog* editor = nullptr;
        QTRY_VERIFY((editor = window.findChild<JobEditorDialog*>(QStringLiteral("jobEditorDialog"))) !=
                    nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isLoading(), 15000);
        auto* name = editor->findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QVERIFY(name);
        QTest::keyClicks(name, QStringLiteral("typed_during"));

        const quint16 port = m_service.port();
        m_service.kill9();
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->state() == ConnectionMonitor::State::Reconnecting, 10000);
        QVERIFY2(status->text().contains(QStringLiteral("Disconnected (")) &&
                     status->text().contains(QStringLiteral("reconnecting")),
                 qPrintable(status->text()));
        QVERIFY(!window.events()->isRunning());
        // What needs the service says why it cannot be used, instead of failing once pressed.
        for (QAction* action : {window.runAction(), window.editAction(), window.newAction()}) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->objectName()));
            QVERIFY2(action->toolTip().startsWith(QStringLiteral("Not connected to the service: ")),
                     qPrintable(action->toolTip()));
        }
        QVERIFY(window.findChild<QAbstractButton*>(QStringLiteral("retryNowButton"))->isVisible());
        saveScreenshot(&window, QStringLiteral("connection-lost.png"));

        // Typing goes on while the service is away.
        QTest::keyClicks(name, QStringLiteral("_outage"));
        editor->editor()->setFocus();
        for (const char* line : {"--class", "com.example.Typed", "s3://bucket/typed.jar"}) {
            if (std::strcmp(line, "--class") != 0)
                QTest::keyClick(editor->editor(), Qt::Key_Return);
            QTest::keyClicks(editor->editor(), QString::fromLatin1(line));
        }
        editor->editor()->recheckNow();

        // Meanwhile another client changes the project through the same data, on a port the console
        // does not know about.
        QVERIFY2(m_service.startOnNewPort(), qPrintable(m_service.lastError()));
        QVERIFY(m_service.port() != port);
        run(jarJob("created_while_down"));
        QCOMPARE(m_service.stop(), 0);
        QCOMPARE(window.monitor()->state(), ConnectionMonitor::State::Reconnecting);
        QCOMPARE(window.jobsModel()->rowOf("created_while_down"), -1);

        // Back on the console's port: it reconnects by itself and reloads.
        const qsizetype loadsBefore = loaded.count();
        QVERIFY2(m_service.startOn(port), qPrintable(m_service.lastError()));
        QCOMPARE(m_service.port(), port);
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->state() == ConnectionMonitor::State::Connected, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() > loadsBefore, 15000);
        QVERIFY2(status->text().contains(connectedText), qPrintable(status->text()));
        QVERIFY(window.jobsModel()->rowOf("created_while_down") >= 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.events()->isRunning(), 5000);

        // Nothing typed was lost.
        QCOMPARE(filter->text(), QStringLiteral("type:jar"));
        QCOMPARE(window.jobsProxy()->rowCount(), 2); // count_transactions, created_while_down
        QCOMPARE(window.jobsView()->currentJobName().value_or(""), std::string("count_transactions"));
        QVERIFY(window.runAction()->isEnabled());
        QVERIFY2(window.runAction()->toolTip().startsWith(QStringLiteral("Run job")),
                 qPrintable(window.runAction()->toolTip()));
        QVERIFY(editor->isVisible());
        QCOMPARE(name->text(), QStringLiteral("typed_during_outage"));
        QCOMPARE(editor->editor()->parameters(),
                 (std::vector<std::string>{"--class", "com.example.Typed", "s3://bucket/typed.jar"}));

        // The events subscription resumed: a job created now arrives as one row, without a reload.
        QSignalSpy reset(window.jobsModel(), &QAbstractItemModel::modelReset);
        run(jarJob("created_after_reconnect"));
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("created_after_reconnect") >= 0, 15000);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(window.jobsProxy()->rowCount(), 3);

        // And what was typed during the outage is saved as it was typed.
        auto* cluster = editor->findChild<QComboBox*>(QStringLiteral("clusterCombo"));
        QVERIFY(cluster);
        cluster->setCurrentIndex(cluster->findText(QStringLiteral("demo_cluster")));
        QVERIFY(cluster->currentIndex() >= 0);
        editor->save();
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("typed_during_outage") >= 0, 15000);
        const auto typed =
            test::awaitReply(window.client()->describeJob(QStringLiteral("typed_during_outage")));
        QVERIFY(typed);
        QCOMPARE(typed->parameters,
                 (std::vector<std::string>{"--class", "com.example.Typed", "s3://bucket/typed.jar"}));
        QCOMPARE(reset.count(), 0);
        saveScreenshot(&window, QStringLiteral("connection-recovered.png"));
    }

    // A clean stop (SIGTERM) and restart(): the monitor and the status widget on their own, as the
    // status bar shows them, including the countdown to the next attempt.
    void stoppedServiceComesBack() {
        StatusBarPart part(connection(), 1500ms, 3000ms);
        ConnectionMonitor& monitor = part.monitor;
        ConnectionStatusWidget& widget = part.widget;
        widget.setProfileName(QStringLiteral("e2e"));
        widget.resize(700, 24);
        widget.show();
        QSignalSpy connected(&monitor, &ConnectionMonitor::connected);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Connected, 15000);
        QCOMPARE(connected.count(), 1);
        QVERIFY2(widget.text().startsWith(QStringLiteral("e2e — Connected to ")), qPrintable(widget.text()));

        QCOMPARE(m_service.stop(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Reconnecting, 10000);
        QVERIFY(!monitor.reason().isEmpty());
        QVERIFY2(widget.text().contains(QStringLiteral("reconnecting in ")), qPrintable(widget.text()));
        saveScreenshot(&widget, QStringLiteral("connection-status-reconnecting.png"));

        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Connected, 15000);
        QCOMPARE(connected.count(), 2);
        QVERIFY2(
            widget.text().contains(QStringLiteral("Connected to %1").arg(m_service.baseUrl().toString())),
            qPrintable(widget.text()));
        // The data survived: the service behind the same URL is the same project.
        const json status =
            runStatement(m_service, m_admin,
                         QString::fromStdString(printStatement(DescribeJobStatement{"count_transactions"})));
        QCOMPARE(status.value("apiStatus", ""), std::string("API_OPERATION_STATUS_SUCCESS"));
    }

    // While the monitor waits before its next attempt, "Retry now" asks at once: with a minute of
    // back-off the service that came back is seen connected well before the next attempt was due.
    // `jobdeckd keys revoke` while the console is connected with that key: the first request refused
    // for it says so in the status bar, instead of "Connected" over failing views, and nothing retries.
    void aRevokedKeyDisconnectsAtItsFirstRefusal() {
        const ApiCredentials key = m_service.createKey(QStringLiteral("e2e"), QStringLiteral("viewer"));
        QVERIFY2(key.isValid(), qPrintable(m_service.lastError()));
        StatusBarPart part({m_service.baseUrl(), key.projectUid, key.apiKey, key.apiSecret}, 300ms, 600ms);
        part.widget.show();
        part.monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(part.monitor.state() == ConnectionMonitor::State::Connected, 15000);

        const auto revoked = TestService::runJobdeckd({"keys", "revoke", "--data-dir", m_service.dataDir(),
                                                       "--database", m_service.databaseUri(), key.apiKey});
        QVERIFY2(revoked.status == 0, revoked.err.constData());
        QString refusal;
        QVERIFY(!jobdeck::test::awaitReply(part.client.showJobs(), &refusal));
        QCOMPARE(refusal, QStringLiteral("Missing or invalid credentials"));
        QCOMPARE(part.monitor.state(), ConnectionMonitor::State::Disconnected);
        QVERIFY2(
            part.widget.text().contains(QStringLiteral("Disconnected: the service refused the credentials")),
            qPrintable(part.widget.text()));
        QTest::qWait(1000); // two health intervals and more: still disconnected, not "Connected" again
        QCOMPARE(part.monitor.state(), ConnectionMonitor::State::Disconnected);
        saveScreenshot(&part.widget, QStringLiteral("connection-status-key-revoked.png"));
    }

    void retryNowDoesNotWaitForTheNextAttempt() {
        StatusBarPart part(connection(), 60s, 120s);
        ConnectionMonitor& monitor = part.monitor;
        ConnectionStatusWidget& widget = part.widget;
        widget.show();
        auto* retry = widget.findChild<QAbstractButton*>(QStringLiteral("retryNowButton"));
        QVERIFY(retry);
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Connected, 15000);
        QVERIFY(!retry->isVisible());

        QCOMPARE(m_service.stop(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Reconnecting, 10000);
        QVERIFY(retry->isVisible());
        QVERIFY2(widget.text().contains(QStringLiteral("reconnecting in ")), qPrintable(widget.text()));
        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        QVERIFY(monitor.retryIn() > 20s); // the next attempt is far off: only the button can connect now
        retry->click();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state() == ConnectionMonitor::State::Connected, 15000);
        QVERIFY(!retry->isVisible());
    }

    // Connecting to another service (here one that is down) leaves nothing of the last one on screen:
    // the jobs, DESCRIBE, project settings, clusters, audit log and runs are gone at once; connecting
    // back loads them again.
    void switchingServiceClearsEveryView() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        AdminViews* views = window.adminViews();
        for (QAction* show : views->actions())
            show->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(views->clustersView()->model()->rowCount() > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(views->projectView()->project().has_value(), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(views->auditView()->model()->rowCount() > 0, 15000);
        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        QTRY_VERIFY_WITH_TIMEOUT(window.describeViewer()->subject().has_value(), 15000);

        ConnectionInfo down = connection();
        down.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1")); // nothing listens there
        window.connectTo(down, QStringLiteral("down"));
        QCOMPARE(window.jobsModel()->rowCount(), 0);
        QVERIFY(!window.describeViewer()->subject().has_value());
        QCOMPARE(views->clustersView()->model()->rowCount(), 0);
        QVERIFY(!views->projectView()->project().has_value());
        QCOMPARE(views->auditView()->model()->rowCount(), 0);
        QCOMPARE(window.runMonitor()->model()->rowCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->state() != ConnectionMonitor::State::Connecting, 15000);
        QVERIFY(window.monitor()->state() != ConnectionMonitor::State::Connected);
        QVERIFY(!window.newAction()->isEnabled());
        QVERIFY2(window.newAction()->toolTip().startsWith(QStringLiteral("Not connected to the service: ")),
                 qPrintable(window.newAction()->toolTip()));
        saveScreenshot(&window, QStringLiteral("connection-switched-to-down.png"));

        window.connectTo(connection(), QStringLiteral("e2e"));
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("count_transactions") >= 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(views->clustersView()->model()->rowCount() > 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(views->projectView()->project().has_value(), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(views->auditView()->model()->rowCount() > 0, 15000);
        QVERIFY(window.newAction()->isEnabled());
    }

    // An editor open on a job while the console switches service keeps what was typed, says where Save
    // would go, and does not save the job elsewhere; back on its service, Save is on again.
    void anEditorKeepsItsEditsAcrossASwitch() {
        MainWindow window(options());
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        window.editAction()->trigger();
        JobEditorDialog* editor = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (editor = window.findChild<JobEditorDialog*>(QStringLiteral("jobEditorDialog"))) != nullptr,
            15000);
        QTRY_VERIFY_WITH_TIMEOUT(!editor->isLoading(), 15000);
        editor->editor()->setFocus();
        QTest::keyClick(editor->editor(), Qt::Key_End, Qt::ControlModifier);
        QTest::keyClick(editor->editor(), Qt::Key_Return);
        QTest::keyClicks(editor->editor(), QStringLiteral("--typed-before-the-switch"));
        editor->editor()->recheckNow();
        const std::vector<std::string> typed = editor->editor()->parameters();
        QCOMPARE(typed.back(), std::string("--typed-before-the-switch"));
        auto* save = editor->findChild<QPushButton*>(QStringLiteral("saveButton"));
        QVERIFY(save && save->isEnabled());

        ConnectionInfo down = connection();
        down.baseUrl = QUrl(QStringLiteral("http://127.0.0.1:1"));
        window.connectTo(down, QStringLiteral("down"));
        QVERIFY(editor->isVisible());
        QCOMPARE(editor->editor()->parameters(), typed);
        QVERIFY(!save->isEnabled());
        QVERIFY2(editor->messageText().contains(QStringLiteral("now connected to http://127.0.0.1:1")),
                 qPrintable(editor->messageText()));
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier); // nothing is sent elsewhere
        QVERIFY(editor->isVisible());

        // The run dialog of a Job opened before the switch does not run it on the other service either.
        const auto job = test::awaitReply(window.client()->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(!job); // that service is down
        window.connectTo(connection(), QStringLiteral("e2e"));
        QTRY_VERIFY_WITH_TIMEOUT(save->isEnabled(), 15000);
        const auto stored =
            test::awaitReply(window.client()->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(stored);
        RunDialog* run = window.openRunDialog(*stored);
        auto* runButton = run->findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(runButton && runButton->isEnabled());
        window.connectTo(down, QStringLiteral("down"));
        QVERIFY(!runButton->isEnabled());
        QVERIFY(run->findChild<QLabel*>(QStringLiteral("runBlockedReason"))
                    ->text()
                    .contains(QStringLiteral("now connected to http://127.0.0.1:1")));
        window.connectTo(connection(), QStringLiteral("e2e"));
        QTRY_VERIFY_WITH_TIMEOUT(runButton->isEnabled(), 15000);
        run->reject();
        QVERIFY2(editor->messageText().contains(QStringLiteral("again")), qPrintable(editor->messageText()));
        QCOMPARE(editor->editor()->parameters(), typed);
    }

    void restartWithoutStartIsAnError() {
        TestService never;
        QVERIFY(!never.restart(2000));
        QVERIFY(never.lastError().contains(QStringLiteral("earlier successful start")));
    }
};

JOBDECK_TEST_MAIN(TestConnectionRecovery)
#include "tst_connectionrecovery.moc"
