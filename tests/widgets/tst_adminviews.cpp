// The support and admin views against a real jobdeckd: the project settings (read, edited by an admin with
// core's checks and the effect on the jobs before Save, a refusal on its entry, read-only for operators,
// re-read on events), the audit log (filters, live, admins only), and seed 000's job flow done entirely in
// the console (create cluster, create job, run, delete job, delete cluster). A screenshot per view.
#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/policy/ProjectSettingsChange.h"
#include "models/AllowlistModel.h"
#include "models/AuditLogModel.h"
#include "models/ClustersModel.h"
#include "models/JobsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/AdminViews.h"
#include "widgets/AuditView.h"
#include "widgets/ClusterDialog.h"
#include "widgets/ClustersView.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/ProjectView.h"
#include "widgets/RunDialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

using namespace jobdeck;
using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;
using jobdeck::test::ConsoleHome;
using nlohmann::json;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

void saveScreenshot(QWidget* w, const QString& name) {
    QVERIFY(w->grab().save(QDir(artifactsDir()).filePath(name)));
}

template <class W> W* child(QObject* parent, const char* name) {
    return parent->findChild<W*>(QString::fromLatin1(name));
}

} // namespace

class TestAdminViews final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiClient* m_adminClient = nullptr;
    ApiClient* m_operatorClient = nullptr;
    ConsoleHome m_home;

    void admin(const QString& statement) {
        QVERIFY2(statementSucceeds(m_service, m_admin, statement), qPrintable(statement));
    }
    ProjectSettings storedSettings() {
        const auto project = awaitReply(m_adminClient->describeProject());
        return project ? project->settings : ProjectSettings{};
    }
    ApiClient* client(const ApiCredentials& who) {
        auto* c = new ApiClient(this);
        c->setConnection({m_service.baseUrl(), who.projectUid, who.apiKey, who.apiSecret});
        return c;
    }
    static void load(ProjectView& view) {
        QSignalSpy loaded(&view, &ProjectView::loaded);
        view.reload();
        QVERIFY(loaded.wait(20000));
    }
    static void selectEntry(ProjectView& view, const std::string& entry) {
        auto* table = child<QTableView>(&view, "allowlistView");
        table->selectRow(view.allowlistModel()->rowOf(entry));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("admin_views", "admin");
        m_operator = m_service.createKey("admin_views", "operator");
        QVERIFY2(m_admin.isValid() && m_operator.isValid(), qPrintable(m_service.lastError()));
        admin("ALTER PROJECT SET HUDI_CONFIGS = ENABLED");
        admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation', 'hoodie.x.')");
        admin("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 5");
        admin("CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 0");
        admin("CREATE JOB writer TYPE = 'JAR' PARAMETERS = ('--hudi-conf', "
              "'hoodie.datasource.write.operation=upsert', 'app.jar') CLUSTER = 'main'");
        admin(
            "CREATE JOB wide TYPE = 'JAR' PARAMETERS = ('app.jar') CLUSTER = 'main' MAX_CONCURRENT_RUNS = 4");
        m_adminClient = client(m_admin);
        m_operatorClient = client(m_operator);
    }

    void projectViewEditsShowsTheEffectAndSaves() {
        ProjectView view(m_adminClient);
        view.resize(1000, 860);
        view.show();
        load(view);
        QVERIFY(view.isEditable());
        QVERIFY(child<QCheckBox>(&view, "hudiConfigsSwitch")->isChecked());
        QVERIFY(child<QCheckBox>(&view, "concurrentRunsSwitch")->isChecked());
        QCOMPARE(child<QSpinBox>(&view, "maxConcurrentRunsLimit")->value(), 5);
        QCOMPARE(view.allowlistModel()->rowCount(), 2);
        QVERIFY(!child<QWidget>(&view, "projectRoleNote")->isVisible());
        QCOMPARE(view.tabs()->tabText(2), QStringLiteral("DESCRIBE PROJECT")); // the tree stays, as a tab

        // A reserved key is refused inline with core's message; nothing is listed, what was typed stays.
        auto* entry = child<QLineEdit>(&view, "allowlistEntryEdit");
        entry->setText(QStringLiteral("hoodie.write.lock.provider"));
        child<QPushButton>(&view, "addAllowlistEntryButton")->click();
        auto* entryError = child<QLabel>(&view, "allowlistEntryError");
        QVERIFY(entryError->isVisible());
        QCOMPARE(entryError->text(), QString::fromStdString(*HudiConfigPolicy::checkAllowlistEntry(
                                         "hoodie.write.lock.provider")));
        QCOMPARE(entry->text(), QStringLiteral("hoodie.write.lock.provider"));
        QCOMPARE(view.allowlistModel()->rowCount(), 2);

        // Remove the exact key, add a family, lower the limit: the effect is shown before Save.
        selectEntry(view, "hoodie.datasource.write.operation");
        child<QPushButton>(&view, "removeAllowlistEntryButton")->click();
        entry->setText(QStringLiteral("hoodie.datasource.meta.sync."));
        QVERIFY(view.addTypedEntry());
        QVERIFY(entry->text().isEmpty());
        auto* entryNote = child<QLabel>(&view, "allowlistEntryNote");
        QVERIFY(!entryNote->isVisible()); // the family grants what it names
        // A key Hudi does not read is added, as the service would store it, with core's note; typing hides
        // it.
        entry->setText(QStringLiteral("hoodie.metadata.enabled"));
        QVERIFY(view.addTypedEntry());
        QVERIFY(entryNote->isVisible());
        QCOMPARE(entryNote->text(),
                 "Added. " + QString::fromStdString(allowlistEntryNote("hoodie.metadata.enabled")->text));
        QTest::keyClicks(entry, QStringLiteral("h"));
        QVERIFY(!entryNote->isVisible());
        entry->clear();
        selectEntry(view, "hoodie.metadata.enabled");
        child<QPushButton>(&view, "removeAllowlistEntryButton")->click();
        // The key more likely meant is one click away: it takes the place of the one added.
        entry->setText(QStringLiteral("hoodie.clean.comits.retained"));
        QVERIFY(view.addTypedEntry());
        auto* replace = child<QPushButton>(&view, "allowlistReplaceButton");
        QVERIFY(replace->isVisible());
        QCOMPARE(replace->text(), QStringLiteral("&Use hoodie.clean.commits.retained"));
        replace->click();
        QVERIFY(!replace->isVisible() && !entryNote->isVisible());
        QCOMPARE(view.allowlistModel()->rowOf("hoodie.clean.comits.retained"), -1);
        QVERIFY(view.allowlistModel()->rowOf("hoodie.clean.commits.retained") >= 0);
        selectEntry(view, "hoodie.clean.commits.retained");
        child<QPushButton>(&view, "removeAllowlistEntryButton")->click();
        // A key meant that has a note of its own shows it in turn.
        entry->setText(QStringLiteral("hoodie.metadata.enabled"));
        QVERIFY(view.addTypedEntry());
        replace->click();
        QVERIFY(entryNote->isVisible() && !replace->isVisible());
        QCOMPARE(entryNote->text(),
                 "Added. " + QString::fromStdString(allowlistEntryNote("hoodie.metadata.enable")->text));
        selectEntry(view, "hoodie.metadata.enable");
        child<QPushButton>(&view, "removeAllowlistEntryButton")->click();
        child<QSpinBox>(&view, "maxConcurrentRunsLimit")->setValue(2);
        const ProjectSettingsEffect& effect = view.effect();
        QCOMPARE(effect.hudiConfigs.size(), std::size_t(1));
        QCOMPARE(effect.hudiConfigs[0].job, std::string("writer"));
        QCOMPARE(effect.hudiConfigs[0].after, HudiConfigStatus::NotAllowed);
        QCOMPARE(effect.concurrentRuns.size(), std::size_t(1));
        QCOMPARE(effect.concurrentRuns[0].job, std::string("wide"));
        auto* tree = child<QTreeWidget>(&view, "settingsEffect");
        QCOMPARE(tree->topLevelItemCount(), 3);
        QCOMPARE(tree->topLevelItem(0)->childCount(), 3); // the limit, one REMOVE, one ADD
        QCOMPARE(tree->topLevelItem(1)->child(0)->text(1), QStringLiteral("APPLIED → NOT_ALLOWED"));
        saveScreenshot(&view, QStringLiteral("project-settings-edit.png"));

        QSignalSpy saved(&view, &ProjectView::saveFinished);
        child<QPushButton>(&view, "saveProjectButton")->click();
        QVERIFY(saved.wait(20000));
        QCOMPARE(saved.front().front().toBool(), true);
        const ProjectSettings stored = storedSettings();
        QCOMPARE(stored.hudiConfigAllowlist,
                 (std::vector<std::string>{"hoodie.datasource.meta.sync.", "hoodie.x."}));
        QCOMPARE(stored.maxConcurrentRunsLimit, 2);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isLoading() && !view.allowlistModel()->hasChanges(), 20000);
        QCOMPARE(view.allowlistModel()->rowCount(), 2);
        QVERIFY(view.effect().empty());
        // Put back what the other tests expect.
        admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation')");
        admin("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')");
        admin("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 5");
    }

    // Docked at 1280x800 the allow-list shows two or three rows: an entry added is scrolled into view, and
    // the effect of the change keeps room for its lines.
    void anAddedEntryIsInView() {
        ProjectView view(m_adminClient);
        view.resize(440, 620);
        view.show();
        load(view);
        auto* table = child<QTableView>(&view, "allowlistView");
        auto* entry = child<QLineEdit>(&view, "allowlistEntryEdit");
        for (const QString& added :
             {QStringLiteral("hoodie.clean.commits.retained"), QStringLiteral("hoodie.clean.async.enabled"),
              QStringLiteral("hoodie.table.type"), QStringLiteral("hoodie.compact.inline"),
              QStringLiteral("hoodie.bulkinsert.shuffle.parallelism")}) {
            entry->setText(added);
            QVERIFY(view.addTypedEntry());
            const QModelIndex row = view.allowlistModel()->index(
                view.allowlistModel()->rowOf(added.toStdString()), AllowlistModel::Entry);
            const QRect shown = table->visualRect(row);
            QVERIFY2(shown.top() >= 0 && shown.bottom() < table->viewport()->height(), qPrintable(added));
        }
        auto* effect = child<QTreeWidget>(&view, "settingsEffect");
        QVERIFY(effect->height() >= 120);
        // The Recent audit tab lays its columns out as the audit log does: the statement before the key id.
        const QHeaderView* audit = child<QTableView>(&view, "projectAuditView")->horizontalHeader();
        QVERIFY(audit->visualIndex(AuditLogModel::Statement) < audit->visualIndex(AuditLogModel::Key));
        // The detail column (here the count of statements) is in view beside a long statement.
        QHeaderView* columns = effect->header();
        QCOMPARE(effect->topLevelItem(0)->text(1), QStringLiteral("5"));
        QVERIFY2(columns->sectionViewportPosition(1) + columns->sectionSize(1) <= effect->viewport()->width(),
                 QByteArray::number(columns->sectionViewportPosition(1)));
        view.revert();
    }

    void aRefusalIsShownOnItsEntry() {
        ProjectView view(m_adminClient); // not following events: it still shows 'hoodie.x.'
        view.resize(1000, 860);
        view.show();
        load(view);
        admin("ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.x.')"); // another admin, meanwhile
        selectEntry(view, "hoodie.x.");
        child<QPushButton>(&view, "removeAllowlistEntryButton")->click();
        QVERIFY(!view.allowlistModel()->addEntry(QStringLiteral("hoodie.y")));
        QSignalSpy saved(&view, &ProjectView::saveFinished);
        view.save();
        QVERIFY(saved.wait(20000));
        QCOMPARE(saved.front().front().toBool(), false);
        const QString refusal =
            QStringLiteral("HUDI_CONFIG_ALLOWLIST has no entry 'hoodie.x.'; nothing was removed");
        AllowlistModel* model = view.allowlistModel();
        QCOMPARE(model->index(model->rowOf("hoodie.x."), AllowlistModel::Problem).data().toString(), refusal);
        QVERIFY(child<QLabel>(&view, "projectSaveError")->text().contains(refusal));
        // What was not sent stays pending.
        QCOMPARE(model->index(model->rowOf("hoodie.y"), AllowlistModel::Change).data().toString(),
                 QStringLiteral("to add"));
        saveScreenshot(&view, QStringLiteral("project-settings-refused.png"));
        admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.x.')");
    }

    void operatorsSeeItReadOnlyWithTheReason() {
        ProjectView view(m_operatorClient);
        view.resize(1000, 700);
        view.show();
        load(view);
        QVERIFY(!view.isEditable());
        QVERIFY(!child<QCheckBox>(&view, "hudiConfigsSwitch")->isEnabled());
        QVERIFY(!child<QLineEdit>(&view, "allowlistEntryEdit")->isEnabled());
        QVERIFY(!child<QPushButton>(&view, "saveProjectButton")->isEnabled());
        auto* note = child<QLabel>(&view, "projectRoleNote");
        QVERIFY(note->isVisible());
        QVERIFY2(note->text().contains("Permission denied: operator cannot ALTER PROJECT"),
                 qPrintable(note->text()));
        QVERIFY(child<QLabel>(&view, "projectAuditNote")
                    ->text()
                    .contains("Permission denied: operator cannot SHOW AUDIT_LOG"));
        QCOMPARE(view.allowlistModel()->rowCount(), 2); // the same settings, readable
        saveScreenshot(&view, QStringLiteral("project-settings-readonly.png"));
    }

    void reReadsTheSettingsWhenTheProjectChanges() {
        ProjectView view(m_adminClient);
        load(view);
        EventsSubscription events(m_adminClient);
        connect(&events, &EventsSubscription::eventsReceived, &view, &ProjectView::onEvents);
        const auto position = awaitReply(m_adminClient->events(0, 0));
        QVERIFY(position);
        events.start(position->next);
        QVERIFY(child<QCheckBox>(&view, "hudiConfigsSwitch")->isChecked());
        admin("ALTER PROJECT SET HUDI_CONFIGS = DISABLED");
        QTRY_VERIFY_WITH_TIMEOUT(!child<QCheckBox>(&view, "hudiConfigsSwitch")->isChecked(), 20000);
        QVERIFY(!view.project()->settings.hudiConfigsEnabled);
        events.stop();
        admin("ALTER PROJECT SET HUDI_CONFIGS = ENABLED");
    }

    void auditViewFiltersAndFollowsTheProject() {
        admin("SHOW CLUSTERS"); // a read in the log
        AuditView view(m_adminClient);
        view.resize(1100, 600);
        QSignalSpy loaded(&view, &AuditView::loaded);
        view.show();
        QVERIFY(loaded.wait(20000));
        AuditLogModel* model = view.model();
        QVERIFY(model->rowCount() >= 8);
        // Changes by default; the reads (DESCRIBE, SHOW) behind a toggle, or when their kind is chosen.
        int reads = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            reads += model->summary(row).isRead ? 1 : 0;
        QVERIFY(reads > 0);
        QCOMPARE(view.proxy()->rowCount(), model->rowCount() - reads);
        auto* showReads = child<QCheckBox>(&view, "auditShowReads");
        showReads->setChecked(true);
        QCOMPARE(view.proxy()->rowCount(), model->rowCount());
        showReads->setChecked(false);
        QCOMPARE(view.proxy()->rowCount(), model->rowCount() - reads);
        auto* kind = child<QComboBox>(&view, "auditKindFilter");
        QVERIFY(kind->findText(QStringLiteral("ALTER PROJECT")) > 0);
        kind->setCurrentIndex(kind->findText(QStringLiteral("CREATE JOB")));
        QCOMPARE(view.proxy()->rowCount(), 2);
        kind->setCurrentIndex(kind->findText(QStringLiteral("SHOW CLUSTERS")));
        QVERIFY(view.proxy()->rowCount() >= 1);
        kind->setCurrentIndex(0);
        auto* outcome = child<QComboBox>(&view, "auditOutcomeFilter");
        outcome->setCurrentIndex(outcome->findText(QStringLiteral("FAILED")));
        QVERIFY(view.proxy()->rowCount() >= 1); // the refused REMOVE of aRefusalIsShownOnItsEntry
        outcome->setCurrentIndex(0);
        child<QLineEdit>(&view, "auditTextFilter")->setText(QStringLiteral("wide"));
        QCOMPARE(view.proxy()->rowCount(), 1);
        child<QLineEdit>(&view, "auditTextFilter")->clear();

        // Docked at 1280x800 (about 460 pixels), the statement is in view, the key id elided in the middle.
        view.resize(460, 600);
        auto* table = child<QTableView>(&view, "auditTable");
        QTRY_VERIFY(table->viewport()->width() < 460);
        const int statementAt = table->horizontalHeader()->sectionViewportPosition(AuditLogModel::Statement);
        QVERIFY2(statementAt >= 0 && statementAt < table->viewport()->width() * 2 / 3,
                 QByteArray::number(statementAt));
        view.resize(1100, 600);

        // Live: a change in the project (an event) brings its entry in.
        EventsSubscription events(m_adminClient);
        connect(&events, &EventsSubscription::eventsReceived, &view, &AuditView::onEvents);
        events.start(awaitReply(m_adminClient->events(0, 0))->next);
        const int before = model->rowCount();
        admin("CREATE CLUSTER audited TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0 WITH "
              "'spark.hadoop.fs.s3a.secret.key' = 'hush'");
        QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > before, 20000);
        QCOMPARE(model->index(0, AuditLogModel::Kind).data().toString(), QStringLiteral("CREATE CLUSTER"));
        QCOMPARE(model->index(0, AuditLogModel::Target).data().toString(), QStringLiteral("audited"));
        // The secret is masked as the service masks it.
        const QString statement = model->index(0, AuditLogModel::Statement).data().toString();
        QVERIFY2(!statement.contains("hush") && statement.contains("****"), qPrintable(statement));
        events.stop();

        // Ctrl+C copies the selected rows as text.
        view.table()->setFocus();
        view.table()->selectRow(0);
        QTest::keyClick(view.table(), Qt::Key_C, Qt::ControlModifier);
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("CREATE CLUSTER\taudited")));
        saveScreenshot(&view, QStringLiteral("audit-log.png"));
        admin("DELETE CLUSTER audited");
    }

    void auditViewTellsOthersWhyNot() {
        AuditView view(m_operatorClient);
        QSignalSpy loaded(&view, &AuditView::loaded);
        view.show();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(view.model()->rowCount(), 0);
        QVERIFY(child<QLabel>(&view, "auditError")
                    ->text()
                    .contains("Permission denied: operator cannot SHOW AUDIT_LOG"));
    }

    // Seed 000's job flow, entirely in the console.
    void seedJobFlowInTheConsole() {
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("admin"), m_service, m_admin, &error), qPrintable(error));
        MainWindow window(m_home.options(QStringLiteral("admin")));
        QSignalSpy jobsLoaded(&window, &MainWindow::jobsLoaded);
        window.resize(1400, 900);
        window.show();
        QVERIFY(jobsLoaded.wait(20000));
        AdminViews* views = window.adminViews();
        ClustersView* clusters = views->clustersView();
        QSignalSpy clustersLoaded(clusters, &ClustersView::loaded);
        QTest::keyClick(&window, Qt::Key_C, Qt::ControlModifier | Qt::AltModifier);
        QVERIFY(views->clustersDock()->isVisible());
        QVERIFY(clustersLoaded.wait(20000));
        QCOMPARE(clusters->model()->rowCount(), 1);

        // Create the cluster: core refuses a reserved default before sending; then it is created.
        child<QPushButton>(clusters, "createClusterButton")->click();
        ClusterDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = clusters->findChild<ClusterDialog*>(QStringLiteral("clusterDialog"))) !=
                    nullptr);
        child<QLineEdit>(dialog, "clusterNameEdit")->setText(QStringLiteral("onehouse_cluster_spark"));
        child<QSpinBox>(dialog, "maxOcuSpin")->setValue(2);
        child<QPlainTextEdit>(dialog, "clusterWithEdit")
            ->setPlainText(QStringLiteral("spark.executor.memory=1g\n\nspark.executor.cores"));
        child<QDialogButtonBox>(dialog, "buttons")->button(QDialogButtonBox::Save)->click();
        QCOMPARE(dialog->errorText(),
                 QStringLiteral("Line 3 of the defaults is not <key>=<value>: spark.executor.cores"));
        child<QPlainTextEdit>(dialog, "clusterWithEdit")
            ->setPlainText(QStringLiteral("spark.executor.memory=1g\nhoodie.write.lock.provider=x"));
        child<QDialogButtonBox>(dialog, "buttons")->button(QDialogButtonBox::Save)->click();
        QCOMPARE(dialog->errorText(),
                 QStringLiteral("Cluster configuration 'hoodie.write.lock.provider' is reserved "
                                "for the platform and cannot be set (Onehouse manages it)"));
        saveScreenshot(dialog, QStringLiteral("cluster-dialog-refused.png"));
        // A **** pasted from DESCRIBE CLUSTER stands for no stored secret of a new cluster.
        child<QPlainTextEdit>(dialog, "clusterWithEdit")
            ->setPlainText(QStringLiteral("spark.executor.memory=1g\nspark.db.password=****"));
        child<QDialogButtonBox>(dialog, "buttons")->button(QDialogButtonBox::Save)->click();
        QCOMPARE(dialog->errorText(),
                 QStringLiteral("The value of 'spark.db.password' is masked (****) but the "
                                "cluster has no stored value for it; send the real value."));
        child<QPlainTextEdit>(dialog, "clusterWithEdit")
            ->setPlainText(QStringLiteral("spark.executor.memory=1g\nhoodie.upsert.shuffle.parallelism=8"));
        child<QDialogButtonBox>(dialog, "buttons")->button(QDialogButtonBox::Save)->click();
        QTRY_VERIFY_WITH_TIMEOUT(clusters->model()->rowOf("onehouse_cluster_spark") >= 0, 20000);
        const int row = clusters->model()->rowOf("onehouse_cluster_spark");
        QCOMPARE(clusters->model()->index(row, ClustersModel::HudiDefaults).data().toString(),
                 QStringLiteral("hoodie.upsert.shuffle.parallelism=8"));

        // Create the job with the seed's --hudi-conf (the allow-list covers it).
        admin("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')");
        window.newAction()->trigger();
        JobEditorDialog* form = nullptr;
        QTRY_VERIFY((form = window.findChild<JobEditorDialog*>(QStringLiteral("jobEditorDialog"))) !=
                    nullptr);
        QTRY_VERIFY_WITH_TIMEOUT(!form->isLoading(), 20000);
        child<QLineEdit>(form, "nameEdit")->setText(QStringLiteral("count_transactions"));
        auto* type = child<QComboBox>(form, "typeCombo");
        type->setCurrentIndex(type->findText(QStringLiteral("PYTHON")));
        auto* cluster = child<QComboBox>(form, "clusterCombo");
        cluster->setCurrentIndex(cluster->findText(QStringLiteral("onehouse_cluster_spark")));
        form->editor()->setParameters({"--hudi-conf",
                                       "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                                       kApp.toStdString(), "--sleep", "4"});
        form->save();
        QTRY_VERIFY_WITH_TIMEOUT(window.jobsModel()->rowOf("count_transactions") >= 0, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(
            clusters->model()
                ->index(clusters->model()->rowOf("onehouse_cluster_spark"), ClustersModel::Jobs)
                .data()
                .toString(),
            QStringLiteral("count_transactions"), 20000);

        // A delete while the job uses it is refused, naming the job.
        QVERIFY(clusters->selectCluster(QStringLiteral("onehouse_cluster_spark")));
        clusters->deleteCluster(QStringLiteral("onehouse_cluster_spark"));
        QCOMPARE(clusters->errorText(),
                 QStringLiteral("Cluster onehouse_cluster_spark is used by Job count_transactions; "
                                "delete them or move them to another cluster first"));

        // Run it: the cluster's OCU in use follows the run live.
        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        window.runAction()->trigger();
        RunDialog* runDialog = nullptr;
        QTRY_VERIFY((runDialog = window.findChild<RunDialog*>(QStringLiteral("runDialog"))) != nullptr);
        QSignalSpy submitted(runDialog, &RunDialog::submitFinished);
        child<QPushButton>(runDialog, "runButton")->click();
        QVERIFY(submitted.wait(20000));
        QCOMPARE(submitted.front().front().toBool(), true);
        runDialog->close();
        const auto inUse = [&] {
            const int r = clusters->model()->rowOf("onehouse_cluster_spark");
            return r < 0 ? -1 : clusters->model()->inUse(r);
        };
        QTRY_COMPARE_WITH_TIMEOUT(inUse(), 1, 20000);
        views->clustersDock()->raise();
        saveScreenshot(&window, QStringLiteral("clusters-view.png"));
        saveScreenshot(clusters, QStringLiteral("clusters-view-dock.png"));
        QTRY_COMPARE_WITH_TIMEOUT(inUse(), 0, 30000);

        // Delete the job (its confirmation), then the cluster (its confirmation).
        QVERIFY(window.jobsView()->selectJob("count_transactions"));
        window.deleteAction()->trigger();
        QMessageBox* confirm = nullptr;
        QTRY_VERIFY((confirm = window.findChild<QMessageBox*>(QStringLiteral("confirmDelete"))) != nullptr);
        confirm->findChild<QPushButton*>(QStringLiteral("confirmDeleteJob"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(window.jobsModel()->rowOf("count_transactions"), -1, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(
            clusters->model()->jobs(clusters->model()->rowOf("onehouse_cluster_spark")).empty(), 20000);
        QVERIFY(clusters->selectCluster(QStringLiteral("onehouse_cluster_spark")));
        child<QPushButton>(clusters, "deleteClusterButton")->click();
        QMessageBox* confirmCluster = nullptr;
        QTRY_VERIFY((confirmCluster = clusters->findChild<QMessageBox*>(
                         QStringLiteral("confirmDeleteCluster"))) != nullptr);
        confirmCluster->findChild<QPushButton*>(QStringLiteral("confirmDeleteClusterButton"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(clusters->model()->rowOf("onehouse_cluster_spark"), -1, 20000);
        QVERIFY(!statementSucceeds(m_service, m_admin, "DESCRIBE CLUSTER onehouse_cluster_spark"));

        // The other views from the menu and their shortcuts (window shortcuts need the window active
        // again after the confirmation box).
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(views->projectDock()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(views->projectView()->project().has_value(), 20000);
        saveScreenshot(&window, QStringLiteral("project-settings-view.png"));
        QTest::keyClick(&window, Qt::Key_A, Qt::ControlModifier | Qt::AltModifier);
        QTRY_VERIFY(views->auditDock()->isVisible());
    }
};

JOBDECK_TEST_MAIN(TestAdminViews)
#include "tst_adminviews.moc"
