// Every view of the console shows what is true now (issue "the console in daily use", §1): with DESCRIBE,
// its configurations, the project settings, the clusters, the audit log, the runs and the gauges open,
// a second API client (not this console) changes the job, the project, the clusters and runs a job, and
// each view follows the service's events without any user action.
#include "core/hudi/HudiConfigStatus.h"
#include "models/AllowlistModel.h"
#include "models/AuditLogModel.h"
#include "models/ClustersModel.h"
#include "models/JobConfigsModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/AdminViews.h"
#include "widgets/AuditView.h"
#include "widgets/ClustersView.h"
#include "widgets/DescribeViewer.h"
#include "widgets/HudiConfigsExplainer.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ProjectView.h"
#include "widgets/RunGauge.h"
#include "widgets/RunMonitor.h"

#include <QAction>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::ConsoleHome;
using nlohmann::json;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
const QString kKey = QStringLiteral("hoodie.datasource.write.operation");

int configStatusOf(const JobConfigsModel* configs, const QString& key) {
    for (int row = 0; row < configs->rowCount(); ++row)
        if (configs->index(row, JobConfigsModel::Key).data().toString() == key)
            return configs->index(row, JobConfigsModel::Status).data(JobConfigsModel::RawDataRole).toInt();
    return -1;
}

// The audit log's entries of `kind` (on `target`, when given).
int auditCount(const AuditLogModel* audit, const QString& kind, const QString& target = {}) {
    int count = 0;
    for (int row = 0; row < audit->rowCount(); ++row)
        if (audit->index(row, AuditLogModel::Kind).data().toString() == kind &&
            (target.isEmpty() || audit->index(row, AuditLogModel::Target).data().toString() == target))
            ++count;
    return count;
}

QString runIdOf(const json& status) {
    return QString::fromStdString(status.value("apiResponse", json::object())
                                      .value("runJobApiResponse", json::object())
                                      .value("jobRunId", std::string()));
}

int runStatus(RunMonitor* monitor, const QString& runId) {
    const int row = monitor->model()->rowOf(runId.toStdString());
    return row < 0 ? -1 : int(monitor->model()->run(row).status);
}

} // namespace

class TestEveryViewFollows final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_console;
    ApiCredentials m_other; // the second client: its own key, never this console's
    ConsoleHome m_home;

    void other(const QString& text) {
        QVERIFY2(statementSucceeds(m_service, m_other, text), qPrintable(text));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_console = m_service.createKey(QStringLiteral("follows"), QStringLiteral("admin"));
        QVERIFY2(m_console.isValid(), qPrintable(m_service.lastError()));
        m_other = m_service.createKey(QStringLiteral("follows"), QStringLiteral("admin"));
        QVERIFY2(m_other.isValid(), qPrintable(m_service.lastError()));
        other("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1");
        other("ALTER PROJECT SET HUDI_CONFIGS = ENABLED");
        other("CREATE JOB watched TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
              "', '--sleep', '60' ) CLUSTER = 'main'");
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("follows"), m_service, m_console, &error),
                 qPrintable(error));
    }

    void everyOpenViewFollowsAnotherClient() {
        MainWindow window(m_home.options(QStringLiteral("follows")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(loaded.wait(20000));

        // Open every view once, as a user would; from here on the test only reads.
        QVERIFY(window.jobsView()->selectJob("watched"));
        window.describeAction()->trigger();
        DescribeViewer* describe = window.describeViewer();
        QTRY_COMPARE_WITH_TIMEOUT(describe->title(), QStringLiteral("DESCRIBE JOB watched"), 15000);
        AdminViews* admin = window.adminViews();
        for (QAction* show : admin->actions())
            if (!show->isChecked())
                show->trigger();
        window.runMonitorDock()->show();
        ProjectView* project = admin->projectView();
        ClustersView* clusters = admin->clustersView();
        AuditLogModel* audit = admin->auditView()->model();
        RunMonitor* monitor = window.runMonitor();
        QTRY_VERIFY_WITH_TIMEOUT(project->project().has_value() && !project->isLoading(), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(clusters->model()->rowOf("main") >= 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(
            auditCount(audit, QStringLiteral("CREATE JOB"), QStringLiteral("watched")) == 1, 15000);
        const JobConfigsModel* configs = describe->explainer()->model();
        QCOMPARE(configStatusOf(configs, kKey), -1);

        // The project: the settings' allow-list follows an ALTER PROJECT.
        const int projectChanges = auditCount(audit, QStringLiteral("ALTER PROJECT"));
        other("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('" + kKey + "')");
        QTRY_VERIFY_WITH_TIMEOUT(project->allowlistModel()->rowOf(kKey.toStdString()) >= 0, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(auditCount(audit, QStringLiteral("ALTER PROJECT")), projectChanges + 1,
                                  15000);

        // The job: DESCRIBE and its configurations follow an ALTER JOB.
        other("ALTER JOB watched SET PARAMETERS = ( '--hudi-conf', '" + kKey + "=upsert', '" + kApp +
              "', '--sleep', '60' )");
        QTRY_COMPARE_WITH_TIMEOUT(configStatusOf(configs, kKey), int(HudiConfigStatus::Applied), 15000);
        QVERIFY(describe->rawText().contains(kKey));
        QTRY_COMPARE_WITH_TIMEOUT(auditCount(audit, QStringLiteral("ALTER JOB"), QStringLiteral("watched")),
                                  1, 15000);

        // The project again: the entry removed, the stored configuration is no longer allowed.
        other("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('" + kKey + "')");
        QTRY_COMPARE_WITH_TIMEOUT(project->allowlistModel()->rowOf(kKey.toStdString()), -1, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(configStatusOf(configs, kKey), int(HudiConfigStatus::NotAllowed), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(auditCount(audit, QStringLiteral("ALTER PROJECT")), projectChanges + 2,
                                  15000);

        // The clusters: a new one shows, with its audit entry.
        other("CREATE CLUSTER spare TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QTRY_VERIFY_WITH_TIMEOUT(clusters->model()->rowOf("spare") >= 0, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(
            auditCount(audit, QStringLiteral("CREATE CLUSTER"), QStringLiteral("spare")), 1, 15000);

        // The runs and the gauge: a run started elsewhere shows, holds a driver of its cluster, and its end
        // (cancelled elsewhere) frees it.
        const QString runId = runIdOf(runStatement(m_service, m_other, QStringLiteral("RUN JOB watched")));
        QVERIFY(!runId.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(runStatus(monitor, runId) == int(JobRunStatus::Running), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor->clusterGauge(QStringLiteral("main")) != nullptr &&
                                     monitor->clusterGauge(QStringLiteral("main"))->active() == 1,
                                 15000);
        other(QStringLiteral("CANCEL JOB_RUN `%1` JOB_NAME = 'watched'").arg(runId));
        QTRY_COMPARE_WITH_TIMEOUT(runStatus(monitor, runId), int(JobRunStatus::Canceled), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(monitor->clusterGauge(QStringLiteral("main"))->active(), 0, 15000);
    }
};

JOBDECK_TEST_MAIN(TestEveryViewFollows)
#include "tst_everyviewfollows.moc"
