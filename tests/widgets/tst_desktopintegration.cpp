// The console on the desktop, against a real jobdeckd: a run started from the console ends with a
// status bar message and a desktop notification over org.freedesktop.Notifications (on a private
// dbus-daemon session bus with a notification service of the test's own: no desktop runs here), the
// fallback when no notification service answers, the setting that turns it off, and runs started
// elsewhere not announced. Help → About shows the console's and the service's versions and the
// libraries' licences; Help → documentation opens the shipped README; the status bar shows a load's
// progress; File → Export writes the jobs list and the runs history as CSV and JSON.
#include "models/JobsTableModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/AboutDialog.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DesktopNotifier.h"
#include "widgets/HelpWindow.h"
#include "widgets/JobsView.h"
#include "widgets/LoadProgress.h"
#include "widgets/MainWindow.h"
#include "widgets/RunDialog.h"
#include "widgets/RunEndNotifier.h"
#include "widgets/RunMonitor.h"
#include "widgets/WindowSettings.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>

#include <csignal>
#include <cstdio>
#include <memory>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

// A dbus-daemon of the test's own, started before QApplication so every bus user sees it.
struct PrivateBus {
    QByteArray address;
    long pid = 0;
    bool start() {
        FILE* out = ::popen("dbus-daemon --session --fork --print-address=1 --print-pid=1", "r");
        if (!out)
            return false;
        char line[1024];
        if (std::fgets(line, sizeof line, out))
            address = QByteArray(line).trimmed();
        if (std::fgets(line, sizeof line, out))
            pid = QByteArray(line).trimmed().toLong();
        ::pclose(out);
        return !address.isEmpty() && pid > 0;
    }
    ~PrivateBus() {
        if (pid > 0)
            ::kill(pid_t(pid), SIGTERM);
    }
};

PrivateBus* g_bus = nullptr;

} // namespace

// The notification service a desktop would run, on the test's own session bus.
class FakeNotifications final : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call {
        QString app;
        QString summary;
        QString body;
        QVariantMap hints;
    };
    QList<Call> calls;

public slots:
    uint Notify(const QString& app, uint, const QString&, const QString& summary, const QString& body,
                const QStringList&, const QVariantMap& hints, int) {
        calls.append({app, summary, body, hints});
        return uint(calls.size());
    }
};

// Receives what QDesktopServices would open.
class UrlCatcher final : public QObject {
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl& url) { opened.append(url); }
};

class TestDesktopIntegration final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ConsoleHome m_home;
    FakeNotifications m_fake;
    std::unique_ptr<QDBusConnection> m_server;

    MainWindow::Options options() const { return m_home.options(QStringLiteral("desk")); }
    bool statement(const QString& text) { return statementSucceeds(m_service, m_operator, text); }

    std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>(options());
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

    // Starts a run of `job` through the run dialog, as a user would; returns its id.
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

private slots:
    void initTestCase() {
        QVERIFY2(g_bus && !g_bus->address.isEmpty(), "dbus-daemon did not start");
        QVERIFY(QDBusConnection::sessionBus().isConnected());
        m_server = std::make_unique<QDBusConnection>(QDBusConnection::connectToBus(
            QString::fromUtf8(g_bus->address), QStringLiteral("notificationServer")));
        QVERIFY(m_server->isConnected());
        QVERIFY(m_server->registerObject(QStringLiteral("/org/freedesktop/Notifications"), &m_fake,
                                         QDBusConnection::ExportAllSlots));
        QVERIFY(m_server->registerService(QStringLiteral("org.freedesktop.Notifications")));

        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("desk"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statement("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1"));
        QVERIFY(statement("CREATE JOB hello TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--lines', '2' ) CLUSTER = 'main'"));
        QVERIFY(statement("CREATE JOB broken TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                          "', '--exit-code', '3' ) CLUSTER = 'main'"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("desk"), m_service, m_operator, &error),
                 qPrintable(error));
    }

    void aRunStartedHereEndsWithANotification() {
        auto window = openWindow();
        QVERIFY(window);
        QVERIFY(window->runNotificationsAction()->isChecked()); // on by default
        QSignalSpy shown(window->desktopNotifier(), &DesktopNotifier::shown);
        const QString runId = runFromTheConsole(*window, "broken");
        QVERIFY(!runId.isEmpty());
        const QString text = QStringLiteral("broken: run %1 failed.").arg(runId);
        QTRY_COMPARE_WITH_TIMEOUT(window->statusBar()->currentMessage(), text, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10000);
        QCOMPARE(shown[0][0].value<DesktopNotifier::Backend>(), DesktopNotifier::Backend::DBus);
        QCOMPARE(m_fake.calls.size(), 1);
        QCOMPARE(m_fake.calls[0].app, QStringLiteral("Jobdeck"));
        QCOMPARE(m_fake.calls[0].body, text);
        QCOMPARE(m_fake.calls[0].hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("jobdeck"));
        saveScreenshot(window.get(), QStringLiteral("run-ended-notification.png"));
    }

    void withoutANotificationServiceTheFallbackIsUsed() {
        QVERIFY(m_server->unregisterService(QStringLiteral("org.freedesktop.Notifications")));
        auto window = openWindow();
        QVERIFY(window);
        QSignalSpy shown(window->desktopNotifier(), &DesktopNotifier::shown);
        const int before = int(m_fake.calls.size());
        const QString runId = runFromTheConsole(*window, "hello");
        const QString text = QStringLiteral("hello: run %1 completed.").arg(runId);
        QTRY_COMPARE_WITH_TIMEOUT(window->statusBar()->currentMessage(), text, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10000);
        // Offscreen there is no system tray either: the status bar message is what remains.
        QCOMPARE(shown[0][0].value<DesktopNotifier::Backend>(), DesktopNotifier::Backend::None);
        QCOMPARE(int(m_fake.calls.size()), before);
        QVERIFY(m_server->registerService(QStringLiteral("org.freedesktop.Notifications")));
    }

    void turnedOffOnlyTheStatusBarTells() {
        {
            auto window = openWindow();
            QVERIFY(window);
            window->runNotificationsAction()->setChecked(false);
        }
        QVERIFY(!WindowSettings(m_home.filePath(QStringLiteral("settings.ini"))).runNotifications());
        auto window = openWindow(); // the setting is remembered
        QVERIFY(window);
        QVERIFY(!window->runNotificationsAction()->isChecked());
        QSignalSpy shown(window->desktopNotifier(), &DesktopNotifier::shown);
        const int before = int(m_fake.calls.size());
        const QString runId = runFromTheConsole(*window, "hello");
        QTRY_COMPARE_WITH_TIMEOUT(window->statusBar()->currentMessage(),
                                  QStringLiteral("hello: run %1 completed.").arg(runId), 30000);
        QTest::qWait(500);
        QCOMPARE(shown.count(), 0);
        QCOMPARE(int(m_fake.calls.size()), before);
        window->runNotificationsAction()->setChecked(true);
    }

    void aRunStartedElsewhereIsNotAnnounced() {
        auto window = openWindow();
        QVERIFY(window);
        QSignalSpy ended(window->runEndNotifier(), &RunEndNotifier::runEnded);
        window->runMonitorDock()->show();
        QVERIFY(statement("RUN JOB hello"));
        RunsTableModel* runs = window->runMonitor()->model();
        // The monitor sees it end; the notifier says nothing.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (int row = 0; row < runs->rowCount(); ++row)
                    if (runs->run(row).status == JobRunStatus::Running ||
                        runs->run(row).status == JobRunStatus::Queued)
                        return false;
                return runs->rowCount() > 0;
            }(),
            30000);
        QTest::qWait(500);
        QCOMPARE(ended.count(), 0);
    }

    void aboutShowsVersionsAndLicences() {
        auto window = openWindow();
        QVERIFY(window);
        auto* about = window->findChild<QAction*>(QStringLiteral("actionAbout"));
        QVERIFY(about);
        about->trigger();
        AboutDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window->findChild<AboutDialog*>(QStringLiteral("aboutDialog"))) != nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(dialog->serviceText().startsWith(QStringLiteral("Service: jobdeckd ")),
                                 10000);
        QCOMPARE(dialog->serviceText(), QStringLiteral("Service: jobdeckd %1 at %2")
                                            .arg(JOBDECK_VERSION, m_service.baseUrl().toString()));
        QVERIFY(dialog->consoleText().startsWith(QStringLiteral("Console " JOBDECK_VERSION " (Qt ")));
        QTableWidget* licences = dialog->licences();
        QVERIFY(licences->rowCount() >= 9);
        QStringList rows;
        for (int row = 0; row < licences->rowCount(); ++row)
            rows << licences->item(row, 0)->text() + QStringLiteral(": ") + licences->item(row, 2)->text();
        QVERIFY2(rows.contains(QStringLiteral("nlohmann/json: MIT")), qPrintable(rows.join('\n')));
        QVERIFY2(rows.contains(QStringLiteral("Boost (Beast, Asio): BSL-1.0")), qPrintable(rows.join('\n')));
        saveScreenshot(dialog, QStringLiteral("about.png"));

        // What a bug report needs, on the clipboard in one click.
        auto* copy = dialog->findChild<QPushButton*>(QStringLiteral("copyVersionInfo"));
        QVERIFY(copy);
        QGuiApplication::clipboard()->clear();
        copy->click();
        const QString copied = QGuiApplication::clipboard()->text();
        QVERIFY2(copied.contains(QStringLiteral("Console " JOBDECK_VERSION " (Qt ")), qPrintable(copied));
        QVERIFY2(copied.contains(dialog->serviceText()), qPrintable(copied));
        QVERIFY2(copied.contains(QStringLiteral("System: ")) && copied.contains(QStringLiteral("Display: ")),
                 qPrintable(copied));
        dialog->close();
    }

    void helpOpensTheShippedDocumentation() {
        MainWindow::Options o = options();
        o.docDir = QStringLiteral(JOBDECK_BINARY_DIR "/share/doc/jobdeck");
        QVERIFY2(QFile::exists(o.docDir + QStringLiteral("/README.md")), "build the jobdeck_docs target");
        MainWindow window(o);
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
        window.findChild<QAction*>(QStringLiteral("actionDocumentation"))->trigger();
        QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
        // Rendered in the console's help window, not handed to whatever opens .md files.
        QCOMPARE(catcher.opened.size(), 0);
        HelpWindow* help = nullptr;
        for (QWidget* top : QApplication::topLevelWidgets())
            if (auto* candidate = qobject_cast<HelpWindow*>(top); candidate && candidate->isVisible())
                help = candidate;
        QVERIFY2(help, "F1 shows no help window");
        QTextBrowser* browser = help->findChild<QTextBrowser*>(QStringLiteral("helpBrowser"));
        QVERIFY(browser);
        QCOMPARE(browser->source(), QUrl::fromLocalFile(o.docDir + QStringLiteral("/README.md")));
        QVERIFY2(!browser->toPlainText().contains(QStringLiteral("# Jobdeck")), "Markdown shown raw");
        QVERIFY(browser->toPlainText().startsWith(QStringLiteral("Jobdeck")));
        // A link to a guide opens it in the same window, and Back returns.
        QVERIFY(browser->toHtml().contains(QStringLiteral("href=\"docs/packaging.md\"")));
        browser->setSource(browser->source().resolved(QUrl(QStringLiteral("docs/packaging.md"))));
        QCOMPARE(browser->source(), QUrl::fromLocalFile(o.docDir + QStringLiteral("/docs/packaging.md")));
        QVERIFY2(browser->toPlainText().startsWith(QStringLiteral("Debian packages")),
                 qPrintable(browser->toPlainText().left(200)));
        help->findChild<QAction*>(QStringLiteral("helpBack"))->trigger();
        QCOMPARE(browser->source(), QUrl::fromLocalFile(o.docDir + QStringLiteral("/README.md")));
        saveScreenshot(help, QStringLiteral("help-window.png"));
        // F1 again raises the same window.
        window.findChild<QAction*>(QStringLiteral("actionDocumentation"))->trigger();
        int helpWindows = 0;
        for (QWidget* top : QApplication::topLevelWidgets())
            helpWindows += qobject_cast<HelpWindow*>(top) && top->isVisible() ? 1 : 0;
        QCOMPARE(helpWindows, 1);
        help->close();

        // No documentation beside the console: a clear message instead of nothing.
        o.docDir = m_home.filePath(QStringLiteral("no-docs"));
        MainWindow bare(o);
        bare.findChild<QAction*>(QStringLiteral("actionDocumentation"))->trigger();
        QTRY_VERIFY(bare.findChild<QMessageBox*>(QStringLiteral("errorMessage")) != nullptr);
    }

    void loadsShowTheirProgress() {
        auto window = openWindow();
        QVERIFY(window);
        LoadProgress* progress = window->loadProgress();
        QVERIFY(!progress->isVisible());
        progress->setThreshold(1); // the test's list is small; 70 MB lists pass the default threshold
        QSignalSpy values(progress, &QProgressBar::valueChanged);
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->refresh();
        QVERIFY(loaded.wait(20000));
        QVERIFY(values.count() > 0);
        QCOMPARE(progress->value(), progress->maximum()); // all of it arrived
        QVERIFY(progress->format().startsWith(QStringLiteral("Loading: ")));
        QVERIFY(!progress->isVisible());
    }

    void exportWritesTheJobsAndTheRunsHistory() {
        auto window = openWindow();
        QVERIFY(window);
        auto* menu = window->findChild<QMenu*>(QStringLiteral("menuExport"));
        QVERIFY(menu);
        QStringList names;
        for (QAction* a : menu->actions())
            if (!a->isSeparator())
                names << a->objectName();
        QCOMPARE(names,
                 (QStringList{"actionExportJobsCsv", "actionExportJobsJson", "actionExportRunsCsv",
                              "actionExportRunsJson", "actionExportTableCsv", "actionExportTableJson"}));
        QSignalSpy finished(window.get(), &MainWindow::exportFinished);

        const QString csvPath = m_home.filePath(QStringLiteral("jobs.csv"));
        window->exportTableTo(window->jobsView()->table(), csvPath, TableExport::Format::Csv);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QCOMPARE(finished[0][1].toString(), QString());
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY2(lines[0].startsWith("Name,"), lines[0].constData());
        QVERIFY(lines[1].startsWith("broken,"));
        QVERIFY(lines[2].startsWith("hello,"));

        window->runMonitorDock()->show();
        QTRY_VERIFY_WITH_TIMEOUT(window->runMonitor()->historyView()->model()->rowCount() > 0, 15000);
        const QString jsonPath = m_home.filePath(QStringLiteral("runs.json"));
        window->exportTableTo(window->runMonitor()->historyView(), jsonPath, TableExport::Format::Json);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 10000);
        QCOMPARE(finished[1][1].toString(), QString());
        QFile json(jsonPath);
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray runs = QJsonDocument::fromJson(json.readAll()).array();
        QCOMPARE(runs.size(), window->runMonitor()->historyView()->model()->rowCount());
        QVERIFY(!runs.first().toObject().isEmpty());

        // A file that cannot be written: the reason, not silence.
        window->exportTableTo(window->jobsView()->table(),
                              m_home.filePath(QStringLiteral("missing/dir/x.csv")), TableExport::Format::Csv);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 10000);
        QVERIFY(!finished[2][1].toString().isEmpty());
        QTRY_VERIFY(window->findChild<QMessageBox*>(QStringLiteral("errorMessage")) != nullptr);
    }
};

int runDesktopIntegrationSuite(int argc, char** argv) {
    PrivateBus bus;
    if (bus.start()) {
        qputenv("DBUS_SESSION_BUS_ADDRESS", bus.address);
        g_bus = &bus;
    }
    QApplication app(argc, argv);
    TestDesktopIntegration test;
    return QTest::qExec(&test, argc, argv);
}
JOBDECK_SUITE_ENTRY(runDesktopIntegrationSuite)

#include "tst_desktopintegration.moc"
