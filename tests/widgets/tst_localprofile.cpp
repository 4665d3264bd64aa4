// The built-in Local profile end to end: the console starts the bundled jobdeckd (JOBDECKD_PATH) on
// loopback with a data directory of the test's own, the demo project, cluster and jobs exist the first
// time and are not added again later (a demo job the user deleted stays deleted), closing the console
// stops the service it started (process gone, port free), and a service that was already running is
// left running.
#include "client/ApiClient.h"
#include "client/ConnectionMonitor.h"
#include "client/ConnectionProfiles.h"
#include "client/LocalServiceLauncher.h"
#include "client/SecretStore.h"
#include "models/JobsTableModel.h"
#include "tests/client/ClientTestUtil.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionDialog.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/MainWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include <signal.h>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

namespace {

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

// The launcher reaps what it stops, so a gone process has no pid left at all.
bool processExists(qint64 pid) {
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == 0;
}

bool portFree(quint16 port) {
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, port);
}

bool answersHealth(quint16 port) {
    ApiClient client;
    client.setConnection({QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)), {}, {}, {}});
    return test::waitFor(client.health(), 5000).value.has_value();
}

QStringList names(const JobsTableModel& model) {
    QStringList result;
    for (int row = 0; row < model.rowCount(); ++row)
        result << QString::fromUtf8(model.name(row));
    result.sort();
    return result;
}

} // namespace

class TestLocalProfile final : public QObject {
    Q_OBJECT

    ConsoleHome m_home;

    QString dataDir() const { return m_home.filePath(QStringLiteral("local")); }

    MainWindow::Options options() const {
        MainWindow::Options o = m_home.options(ConnectionProfiles::kLocalName);
        o.localDataDir = dataDir();
        o.servicePath = QStringLiteral(JOBDECKD_PATH);
        return o;
    }

    // Opens the console on the Local profile and checks the demo data: these jobs, one cluster.
    std::unique_ptr<MainWindow> openConsole(const QString& screenshot, const QStringList& jobs) {
        auto window = std::make_unique<MainWindow>(options());
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(30000) || loaded.count() > 0, qPrintable(window->statusWidget()->text()));
            QCOMPARE(window->currentProfile(), ConnectionProfiles::kLocalName);
            const QUrl url = window->localLauncher()->connection().baseUrl;
            QCOMPARE(url.host(), QStringLiteral("127.0.0.1"));
            QVERIFY2(window->statusWidget()->text().startsWith(
                         QStringLiteral("Local — Connected to %1").arg(url.toString())),
                     qPrintable(window->statusWidget()->text()));
            QCOMPARE(names(*window->jobsModel()), jobs);
            const auto clusters = test::waitFor(window->client()->showClusters());
            QVERIFY2(clusters.value, qPrintable(clusters.errorText()));
            QCOMPARE(clusters.value->size(), std::size_t(1));
            QCOMPARE(clusters.value->front().name, std::string("demo_cluster"));
            const auto project = test::waitFor(window->client()->describeProject());
            QVERIFY2(project.value, qPrintable(project.errorText()));
            QCOMPARE(QString::fromStdString(project.value->projectUid),
                     window->localLauncher()->connection().projectUid);
            saveScreenshot(window.get(), screenshot);
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_home.isValid());
        // Nothing here may reach the user's own settings or data.
        QStandardPaths::setTestModeEnabled(true);
    }

    void firstStartSeedsDemoDataAndClosingStopsTheService() {
        QVERIFY(!QFileInfo::exists(dataDir()));
        auto window = openConsole(QStringLiteral("localprofile-first-start.png"),
                                  {QStringLiteral("count_transactions"), QStringLiteral("daily_report"),
                                   QStringLiteral("export_partners"), QStringLiteral("ingest_orders"),
                                   QStringLiteral("nightly_cleanup")});
        QVERIFY(window);
        // The user deletes a demo job: a later start must not bring it back.
        const auto deleted = test::waitFor(window->client()->deleteJob(QStringLiteral("daily_report")));
        QVERIFY2(!deleted.error, qPrintable(deleted.errorText()));
        LocalServiceLauncher* launcher = window->localLauncher();
        QVERIFY(launcher->startedService());
        QCOMPARE(launcher->dataDir(), dataDir());
        QVERIFY(QFileInfo::exists(QDir(dataDir()).filePath(QStringLiteral("console-local.json"))));
        const qint64 pid = launcher->processId();
        const auto port = static_cast<quint16>(launcher->connection().baseUrl.port());
        QVERIFY(processExists(pid));
        QVERIFY(!portFree(port));

        window.reset(); // closing the console
        QVERIFY(!processExists(pid));
        QVERIFY(portFree(port));
        QVERIFY(!answersHealth(port));
    }

    void secondStartDoesNotAddTheDemoDataAgain() {
        QVERIFY(QFileInfo::exists(dataDir()));
        auto window = openConsole(QStringLiteral("localprofile-second-start.png"),
                                  {QStringLiteral("count_transactions"), QStringLiteral("export_partners"),
                                   QStringLiteral("ingest_orders"), QStringLiteral("nightly_cleanup")});
        QVERIFY(window);
        QVERIFY(window->localLauncher()->startedService());
        const qint64 pid = window->localLauncher()->processId();
        const auto port = static_cast<quint16>(window->localLauncher()->connection().baseUrl.port());
        // The connection dialog shows where this session's service listens, not an example URL.
        window->openConnectionDialog();
        ConnectionDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<ConnectionDialog*>(QStringLiteral("connectionDialog"))) !=
                    nullptr);
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("profileUrl"))->placeholderText(),
                 window->localLauncher()->connection().baseUrl.toString());
        dialog->reject();
        window.reset();
        QVERIFY(!processExists(pid));
        QVERIFY(portFree(port));
    }

    void serviceAlreadyRunningIsNotStopped() {
        // Another console (here its launcher alone) started the local service first.
        SecretStore secrets(m_home.secretsDir(), SecretStore::Backend::File);
        LocalServiceLauncher first(&secrets);
        first.setDataDir(dataDir());
        first.setServicePath(QStringLiteral(JOBDECKD_PATH));
        QSignalSpy ready(&first, &LocalServiceLauncher::ready);
        QSignalSpy failed(&first, &LocalServiceLauncher::failed);
        first.start();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() > 0, 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY(first.startedService());
        const qint64 pid = first.processId();
        const auto port = static_cast<quint16>(first.connection().baseUrl.port());

        auto window = openConsole(QStringLiteral("localprofile-reused.png"),
                                  {QStringLiteral("count_transactions"), QStringLiteral("export_partners"),
                                   QStringLiteral("ingest_orders"), QStringLiteral("nightly_cleanup")});
        QVERIFY(window);
        QVERIFY(!window->localLauncher()->startedService());
        QCOMPARE(window->localLauncher()->connection().baseUrl.port(), int(port));
        window.reset();
        QVERIFY(processExists(pid));
        QVERIFY(answersHealth(port));

        first.stop();
        QVERIFY(!processExists(pid));
        QVERIFY(portFree(port));
    }

    // The console's own service dies (kill -9): the window offers to start it again, in the File menu
    // and beside the connection state; once restarted the console is connected to the new one.
    void aDeadLocalServiceIsRestartedFromTheWindow() {
        auto window = openConsole(QStringLiteral("localprofile-before-restart.png"),
                                  {QStringLiteral("count_transactions"), QStringLiteral("export_partners"),
                                   QStringLiteral("ingest_orders"), QStringLiteral("nightly_cleanup")});
        QVERIFY(window);
        QAction* restart = window->restartLocalServiceAction();
        auto* button = window->findChild<QAbstractButton*>(QStringLiteral("restartServiceButton"));
        QVERIFY(restart && button);
        QVERIFY(!restart->isEnabled());
        QVERIFY(!button->isVisible());
        const qint64 pid = window->localLauncher()->processId();
        QVERIFY(pid > 0);
        QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);

        QTRY_VERIFY_WITH_TIMEOUT(restart->isEnabled(), 15000);
        QVERIFY(button->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(window->monitor()->state() != ConnectionMonitor::State::Connected, 15000);
        saveScreenshot(window.get(), QStringLiteral("localprofile-service-died.png"));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        button->click();
        QVERIFY(!restart->isEnabled());
        QVERIFY2(loaded.wait(30000), qPrintable(window->statusWidget()->text()));
        QCOMPARE(window->monitor()->state(), ConnectionMonitor::State::Connected);
        QVERIFY(window->localLauncher()->startedService());
        QVERIFY(window->localLauncher()->processId() != pid);
        QVERIFY(window->jobsModel()->rowOf("count_transactions") >= 0);
        QVERIFY(!button->isVisible());
        const qint64 restarted = window->localLauncher()->processId();
        window.reset();
        QVERIFY(!processExists(restarted));
    }

    void missingServiceIsAClearError() {
        QTemporaryDir other;
        SecretStore secrets(other.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        LocalServiceLauncher launcher(&secrets);
        launcher.setDataDir(other.filePath(QStringLiteral("local")));
        launcher.setServicePath(other.filePath(QStringLiteral("no-such-jobdeckd")));
        QSignalSpy failed(&launcher, &LocalServiceLauncher::failed);
        launcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY2(failed.first().first().toString().contains(QStringLiteral("no-such-jobdeckd")),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!launcher.isRunning());
    }
};

JOBDECK_TEST_MAIN(TestLocalProfile)
#include "tst_localprofile.moc"
