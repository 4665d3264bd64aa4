// Support staff can read why (issue "the console in daily use", §3), against a real jobdeckd at
// 1280×800 with the runs dock open: the selected configuration's reason is shown whole below the
// configuration table (word-wrapped, selectable, not cut by the dock), "Copy statement" copies the
// ALTER PROJECT an admin would run, and the misplaced-config banner and the table keep their room.
// With JOBDECK_UPDATE_SCREENSHOTS=1 the screenshot is written to docs/images as well.
#include "client/ApiClient.h"
#include "core/hudi/HudiConfigExplanation.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "tests/widgets/Screenshots.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DescribeViewer.h"
#include "widgets/JobDescriber.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"

#include <QClipboard>
#include <QDir>
#include <QDockWidget>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace jobdeck;
using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;
using jobdeck::test::ConsoleHome;
using jobdeck::test::saveScreenshot;

namespace {

const QString kNotAllowed = QStringLiteral("hoodie.cleaner.commits.retained");
const QString kApplied = QStringLiteral("hoodie.datasource.meta.sync.glue.catalogId");
const QString kMisplaced = QStringLiteral("hoodie.datasource.write.operation");

template <class W> W* child(QWidget* parent, const char* name) {
    return parent->findChild<W*>(QString::fromLatin1(name));
}

// Why `label` is not read in full, or empty when it is: shown, inside the window, not clipped by its
// parents or anything over it, and as tall as its wrapped text needs at its width (a word-wrapped
// label is never elided: what does not fit is cut at the bottom).
QString notFullyShown(QLabel* label, QWidget* window) {
    if (!label || !label->isVisible())
        return QStringLiteral("not shown");
    const QRect inWindow(label->mapTo(window, QPoint(0, 0)), label->size());
    if (!window->rect().contains(inWindow))
        return QStringLiteral("outside the window: %1,%2 %3x%4")
            .arg(inWindow.x())
            .arg(inWindow.y())
            .arg(inWindow.width())
            .arg(inWindow.height());
    if (label->visibleRegion().boundingRect() != label->rect())
        return QStringLiteral("partly hidden");
    const int needed = label->heightForWidth(label->width());
    if (label->height() < needed)
        return QStringLiteral("cut: %1 px of the %2 its text needs").arg(label->height()).arg(needed);
    return {};
}

} // namespace

class TestSupportReads final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ConsoleHome m_home;

    bool statement(const QString& text) { return statementSucceeds(m_service, m_admin, text); }

    // The window at 1280×800 with the runs dock open and asked to take as much height as it can.
    std::unique_ptr<MainWindow> openWindow() {
        auto window = std::make_unique<MainWindow>(m_home.options(QStringLiteral("support")));
        QSignalSpy loaded(window.get(), &MainWindow::jobsLoaded);
        window->resize(1280, 800);
        window->show();
        [&] {
            QVERIFY(QTest::qWaitForWindowExposed(window.get()));
            QVERIFY2(loaded.wait(20000), qPrintable(window->statusWidget()->text()));
            window->runMonitorDock()->show();
            window->resizeDocks({window->runMonitorDock()}, {800}, Qt::Vertical);
        }();
        return QTest::currentTestFailed() ? nullptr : std::move(window);
    }

    static void describe(MainWindow& window, const std::string& job) {
        QVERIFY(window.jobsView()->selectJob(job));
        QTRY_COMPARE_WITH_TIMEOUT(window.describeViewer()->title(),
                                  QStringLiteral("DESCRIBE JOB ") + QString::fromStdString(job), 20000);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("support"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statement("CREATE CLUSTER demo_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(statement("ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statement("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.', '" +
                          kNotAllowed + "')"));
        // Allowed when created, then taken off the allow-list: NOT_ALLOWED, as the demo's nightly_cleanup.
        QVERIFY(statement("CREATE JOB nightly_cleanup TYPE = 'PYTHON' PARAMETERS = ( '--hudi-conf', '" +
                          kNotAllowed + "=20', '--hudi-conf', '" + kApplied +
                          "=123456789012', 's3://demo-bucket/jobs/cleanup.py', '--hudi-conf', '" +
                          kMisplaced + "=upsert', '--task', 'nightly_cleanup' ) CLUSTER = 'demo_cluster'"));
        QVERIFY(statement("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('" + kNotAllowed + "')"));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("support"), m_service, m_admin, &error),
                 qPrintable(error));
    }

    // The NOT_ALLOWED key is selected and its reason is read in full below the table, with the runs
    // dock open at 1280×800; the banner and the table keep their room.
    void theSelectedReasonIsReadInFull() {
        auto window = openWindow();
        QVERIFY(window);
        describe(*window, "nightly_cleanup");
        const auto job = awaitReply(window->client()->describeJob(QStringLiteral("nightly_cleanup")));
        QVERIFY(job);
        const QString expected =
            QString::fromStdString(job->hudiConfigsStatusReasons.at(kNotAllowed.toStdString()));
        QVERIFY(expected.contains(QStringLiteral("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST")));

        auto* reason = child<QLabel>(window.get(), "configReason");
        QVERIFY2(reason, "no configReason label below the configuration table");
        QTRY_COMPARE_WITH_TIMEOUT(reason->text(), expected, 10000);
        QVERIFY(reason->textInteractionFlags() & Qt::TextSelectableByMouse);
        QVERIFY(reason->wordWrap());
        QTRY_COMPARE_WITH_TIMEOUT(notFullyShown(reason, window.get()), QString(), 10000);

        auto* banner = child<QLabel>(window.get(), "misplacedNotice");
        QVERIFY(banner);
        QVERIFY(banner->text().contains(
            QString::fromStdString(misplacedHudiConfigMessage(kMisplaced.toStdString()))));
        QTRY_COMPARE_WITH_TIMEOUT(notFullyShown(banner, window.get()), QString(), 10000);

        // The table keeps its header and the selected row in view, and the dock is really open.
        auto* table = child<QTableView>(window.get(), "configsTable");
        QVERIFY(table);
        const QRect selected = table->visualRect(table->currentIndex());
        QVERIFY2(
            table->viewport()->rect().contains(selected),
            qPrintable(
                QStringLiteral("the selected row is not in view: table %1 px high").arg(table->height())));
        QVERIFY(table->viewport()->height() >= 3 * table->verticalHeader()->defaultSectionSize());
        QDockWidget* dock = window->runMonitorDock();
        QVERIFY(dock->isVisible() && !dock->isFloating());
        QVERIFY(dock->height() >= 6 * window->fontMetrics().height());
        QVERIFY(window->height() <= 800); // nothing was won by growing the window

        auto* copy = child<QPushButton>(window.get(), "copyStatementButton");
        QVERIFY(copy);
        QVERIFY(copy->isVisible());
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('%1');").arg(kNotAllowed));
        saveScreenshot(window.get(), QStringLiteral("describe-not-allowed-reason.png"));
    }

    // Selecting another configuration shows its reason; "Copy statement" is there only when an ALTER
    // PROJECT would make it apply.
    void theReasonFollowsTheSelection() {
        auto window = openWindow();
        QVERIFY(window);
        describe(*window, "nightly_cleanup");
        auto* table = child<QTableView>(window.get(), "configsTable");
        auto* reason = child<QLabel>(window.get(), "configReason");
        auto* copy = child<QPushButton>(window.get(), "copyStatementButton");
        QVERIFY(table && reason && copy);
        const auto rowOf = [table](const QString& key, const QString& source) {
            for (int row = 0; row < table->model()->rowCount(); ++row)
                if (table->model()->index(row, 1).data().toString() == key &&
                    table->model()->index(row, 0).data().toString() == source)
                    return row;
            return -1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(kMisplaced, QStringLiteral("--hudi-conf after the path")) >= 0, 10000);

        table->selectRow(rowOf(kApplied, QStringLiteral("--hudi-conf")));
        QTRY_VERIFY(
            reason->text().startsWith(QStringLiteral("Applied: allowed by the project's allow-list entry")));
        QVERIFY(!copy->isVisible());

        table->selectRow(rowOf(kMisplaced, QStringLiteral("--hudi-conf after the path")));
        QTRY_COMPARE(reason->text(),
                     QString::fromStdString(misplacedHudiConfigMessage(kMisplaced.toStdString())));
        QVERIFY(!copy->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(notFullyShown(reason, window.get()), QString(), 10000);

        // The feature switched off by another client: the reason and the statements follow the service,
        // without anything done in the console.
        QSignalSpy described(window->jobDescriber(), &JobDescriber::described);
        QVERIFY(statement("ALTER PROJECT SET HUDI_CONFIGS = DISABLED"));
        QVERIFY2(described.wait(20000), "the DESCRIBE shown was not read again after PROJECT_ALTERED");
        table->selectRow(rowOf(kNotAllowed, QStringLiteral("--hudi-conf")));
        QTRY_VERIFY_WITH_TIMEOUT(reason->text().startsWith(QStringLiteral(
                                     "Not applied: --hudi-conf is not enabled for this project")),
                                 20000);
        QVERIFY(copy->isVisible());
        copy->click();
        QCOMPARE(QGuiApplication::clipboard()->text(),
                 QStringLiteral("ALTER PROJECT SET HUDI_CONFIGS = ENABLED;\n"
                                "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('%1');")
                     .arg(kNotAllowed));
        QTRY_COMPARE_WITH_TIMEOUT(notFullyShown(reason, window.get()), QString(), 10000);
        QVERIFY(statement("ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
    }
};

JOBDECK_TEST_MAIN(TestSupportReads)
#include "tst_supportreads.moc"
