// Dialogs as designs (issue "the console in daily use", §7): the job editor, the run dialog, the
// connection dialog, the project settings tab and the runs monitor are laid out in Qt Designer forms
// (widgets/*.ui).
// Each test reads its form, finds every widget the form names by that objectName in the built dialog
// (of the class the form gives), checks the state the constructor sets up, and that the constructor
// stays a short function now that the layout is in the form. Against a real jobdeckd.
#include "client/ApiClient.h"
#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "core/policy/ConcurrentRuns.h"
#include "models/AllowlistModel.h"
#include "models/ArgumentOverridesModel.h"
#include "models/RunsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "widgets/ConnectionDialog.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/ParameterDiffView.h"
#include "widgets/ParameterEditor.h"
#include "widgets/ProjectView.h"
#include "widgets/RunDialog.h"
#include "widgets/RunMonitor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace jobdeck;
using jobdeck::test::awaitReply;

namespace {

struct FormWidget {
    QString className;
    QString name;
};

// Every widget a Designer form declares (the top-level one first), or an empty list when it is missing.
QList<FormWidget> formWidgets(const QString& form) {
    QFile file(QStringLiteral(JOBDECK_SOURCE_DIR "/widgets/") + form);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QList<FormWidget> widgets;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QStringLiteral("widget"))
            widgets.append({xml.attributes().value(QStringLiteral("class")).toString(),
                            xml.attributes().value(QStringLiteral("name")).toString()});
    }
    return widgets;
}

// Each widget of `form` below the top-level one is a child of `built` with that objectName and class;
// the top-level one is `built` itself (or, for a page, a child). Returns what does not match.
QStringList mismatches(const QString& form, QWidget* built) {
    const QList<FormWidget> widgets = formWidgets(form);
    if (widgets.isEmpty())
        return {QStringLiteral("%1: no such form, or no widget in it").arg(form)};
    QStringList wrong;
    for (const FormWidget& w : widgets) {
        QObject* found = built->objectName() == w.name ? built : built->findChild<QObject*>(w.name);
        const QByteArray className = w.className.toLatin1();
        if (!found)
            wrong << QStringLiteral("%1: no widget named %2").arg(form, w.name);
        else if (!found->inherits(className.constData()))
            wrong << QStringLiteral("%1: %2 is a %3, the form says %4")
                         .arg(form, w.name, QString::fromLatin1(found->metaObject()->className()),
                              w.className);
    }
    return wrong;
}

// The number of lines of `signature`'s definition in widgets/<file>, from its first line to the closing
// brace at the start of a line; -1 when it is not there.
int definitionLines(const QString& file, const QString& signature) {
    QFile source(QStringLiteral(JOBDECK_SOURCE_DIR "/widgets/") + file);
    if (!source.open(QIODevice::ReadOnly | QIODevice::Text))
        return -1;
    const QStringList lines = QString::fromUtf8(source.readAll()).split(QLatin1Char('\n'));
    for (int first = 0; first < lines.size(); ++first) {
        if (!lines[first].startsWith(signature))
            continue;
        for (int last = first; last < lines.size(); ++last)
            if (lines[last] == QStringLiteral("}"))
                return last - first + 1;
    }
    return -1;
}

constexpr int kConstructorLines = 30;

} // namespace

class TestDialogDesigns final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiClient* m_client = nullptr;

    bool statement(const char* text) { return statementSucceeds(m_service, m_admin, text); }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("designs"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        m_client = new ApiClient(this);
        m_client->setConnection({m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret});
        QVERIFY(statement("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4"));
        QVERIFY(statement("CREATE CLUSTER designed TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(
            statement("CREATE JOB drawn TYPE = 'PYTHON' PARAMETERS = ( '--conf', 'spark.executor.cores=2', "
                      "'s3://bucket/drawn.py', '--date', '2026-12-01' ) CLUSTER = 'designed' "
                      "MAX_CONCURRENT_RUNS = 2"));
    }

    void theJobEditorIsItsForm() {
        JobEditorDialog created(m_client, std::nullopt);
        QSignalSpy loaded(&created, &JobEditorDialog::loaded);
        QVERIFY(loaded.wait(20000));
        const QStringList wrong = mismatches(QStringLiteral("JobEditorDialog.ui"), &created);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(created.objectName(), QStringLiteral("jobEditorDialog"));
        QCOMPARE(created.windowTitle(), QStringLiteral("New Job"));
        auto* name = created.findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QVERIFY(name && !name->isReadOnly());
        auto* type = created.findChild<QComboBox*>(QStringLiteral("typeCombo"));
        QVERIFY(type && type->isEnabled());
        QCOMPARE(type->count(), 2);
        QCOMPARE(type->itemText(0), QStringLiteral("JAR"));
        QCOMPARE(type->itemText(1), QStringLiteral("PYTHON"));
        auto* cluster = created.findChild<QComboBox*>(QStringLiteral("clusterCombo"));
        QVERIFY(cluster && cluster->isEditable());
        QCOMPARE(cluster->currentText(), QStringLiteral("designed"));
        auto* maxRuns = created.findChild<QSpinBox*>(QStringLiteral("maxRunsSpin"));
        QVERIFY(maxRuns);
        QCOMPARE(maxRuns->maximum(), 4);
        auto* save = created.findChild<QPushButton*>(QStringLiteral("saveButton"));
        QVERIFY(save && !save->isDefault() && !save->autoDefault());
        auto* tabs = created.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 1);
        QCOMPARE(tabs->widget(0), static_cast<QWidget*>(created.preview()));
        QVERIFY(!created.diffView());
        QVERIFY(created.editor() && created.diagnosticsPanel());
        QVERIFY(!created.isModified());

        const auto job = awaitReply(m_client->describeJob(QStringLiteral("drawn")));
        QVERIFY(job);
        JobEditorDialog edited(m_client, *job);
        QSignalSpy editLoaded(&edited, &JobEditorDialog::loaded);
        QVERIFY(editLoaded.wait(20000));
        const QStringList editWrong = mismatches(QStringLiteral("JobEditorDialog.ui"), &edited);
        QVERIFY2(editWrong.isEmpty(), qPrintable(editWrong.join(QLatin1Char('\n'))));
        QCOMPARE(edited.windowTitle(), QStringLiteral("Edit Job 'drawn'"));
        name = edited.findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QVERIFY(name->isReadOnly());
        QCOMPARE(name->text(), QStringLiteral("drawn"));
        QVERIFY(!edited.findChild<QComboBox*>(QStringLiteral("typeCombo"))->isEnabled());
        QCOMPARE(edited.findChild<QSpinBox*>(QStringLiteral("maxRunsSpin"))->value(), 2);
        tabs = edited.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->widget(1), static_cast<QWidget*>(edited.diffView()));
        QCOMPARE(edited.editor()->parameters(), job->parameters);
        QVERIFY(!edited.isModified());

        const int lines = definitionLines(QStringLiteral("JobEditorDialog.cpp"),
                                          QStringLiteral("JobEditorDialog::JobEditorDialog("));
        QVERIFY2(lines > 0 && lines <= kConstructorLines, qPrintable(QString::number(lines)));
    }

    void theRunDialogIsItsForm() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("drawn")));
        QVERIFY(job);
        RunDialog dialog(m_client, *job);
        const QStringList wrong = mismatches(QStringLiteral("RunDialog.ui"), &dialog);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(dialog.objectName(), QStringLiteral("runDialog"));
        QCOMPARE(dialog.windowTitle(), QStringLiteral("Run Job 'drawn'"));
        auto* run = dialog.findChild<QPushButton*>(QStringLiteral("runButton"));
        QVERIFY(run && run->isDefault() && run->isEnabled());
        QCOMPARE(run->text(), QStringLiteral("Run"));
        QVERIFY(dialog.findChild<QPushButton*>(QStringLiteral("closeButton")));
        auto* key = dialog.findChild<QLineEdit*>(QStringLiteral("idempotencyKeyEdit"));
        QVERIFY(key && key->text().startsWith(QStringLiteral("drawn-")));
        QCOMPARE(key->placeholderText(), QStringLiteral("required for this Job"));
        auto* configurations = dialog.findChild<QTableWidget*>(QStringLiteral("configurationsView"));
        QVERIFY(configurations);
        QCOMPARE(configurations->rowCount(), 1);
        QCOMPARE(configurations->item(0, 1)->text(), QStringLiteral("spark.executor.cores"));
        QVERIFY(dialog.findChild<QWidget*>(QStringLiteral("overridesEditor")));
        QCOMPARE(dialog.overridesModel()->rowCount(), 1);
        auto* summary = dialog.findChild<QLabel*>(QStringLiteral("jobSummary"));
        QVERIFY(summary && summary->text().contains(QStringLiteral("designed")));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("configurationsNote"))
                    ->text()
                    .contains(QStringLiteral("ALTER JOB drawn SET PARAMETERS")));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("idempotencyKeyNote"))
                    ->text()
                    .startsWith(QStringLiteral("Required: this Job allows 2 concurrent runs")));
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("overrideError"))->isHidden());
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("runBlockedReason"))->isHidden());
        QCOMPARE(dialog.blockedReason(), QString());

        const int lines =
            definitionLines(QStringLiteral("RunDialog.cpp"), QStringLiteral("RunDialog::RunDialog("));
        QVERIFY2(lines > 0 && lines <= kConstructorLines, qPrintable(QString::number(lines)));
    }

    void theConnectionDialogIsItsForm() {
        QTemporaryDir home;
        SecretStore secrets(home.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        ConnectionProfiles profiles(&secrets, home.filePath(QStringLiteral("settings.ini")));
        QString error;
        QVERIFY2(profiles.save(
                     {QStringLiteral("designed"), m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey},
                     m_admin.apiSecret, &error),
                 qPrintable(error));
        ConnectionDialog dialog(&profiles, &secrets, QStringLiteral("designed"));
        const QStringList wrong = mismatches(QStringLiteral("ConnectionDialog.ui"), &dialog);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(dialog.objectName(), QStringLiteral("connectionDialog"));
        QCOMPARE(dialog.selectedProfile(), QStringLiteral("designed"));
        auto* list = dialog.findChild<QListWidget*>(QStringLiteral("profileList"));
        QVERIFY(list);
        QCOMPARE(list->count(), int(profiles.profiles().size()));
        QCOMPARE(dialog.findChild<QLineEdit*>(QStringLiteral("profileUrl"))->text(),
                 m_service.baseUrl().toString());
        auto* secret = dialog.findChild<QLineEdit*>(QStringLiteral("profileSecret"));
        QVERIFY(secret);
        QCOMPARE(secret->echoMode(), QLineEdit::Password);
        QVERIFY(secret->text().isEmpty()); // a saved secret is never shown
        auto* connectButton = dialog.findChild<QPushButton*>(QStringLiteral("connectProfile"));
        QVERIFY(connectButton && connectButton->isDefault());
        for (const char* name : {"newProfile", "saveProfile", "removeProfile", "browseCaFile"})
            QVERIFY2(dialog.findChild<QPushButton*>(QString::fromLatin1(name)), name);
        QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("profileError"))->text().isEmpty());

        const int lines = definitionLines(QStringLiteral("ConnectionDialog.cpp"),
                                          QStringLiteral("ConnectionDialog::ConnectionDialog("));
        QVERIFY2(lines > 0 && lines <= kConstructorLines, qPrintable(QString::number(lines)));
    }

    void theProjectSettingsTabIsItsForm() {
        ProjectView view(m_client);
        const QStringList wrong = mismatches(QStringLiteral("ProjectSettingsTab.ui"), &view);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(view.tabs()->count(), 3);
        QCOMPARE(view.tabs()->tabText(0), QStringLiteral("Settings"));
        // In a scroll area: a dock too small for the page scrolls it instead of squeezing the allow-list.
        auto* scroll = qobject_cast<QScrollArea*>(view.tabs()->widget(0));
        QVERIFY(scroll);
        QCOMPARE(scroll->widget()->objectName(), QStringLiteral("projectSettingsPage"));
        auto* limit = view.findChild<QSpinBox*>(QStringLiteral("maxConcurrentRunsLimit"));
        QVERIFY(limit);
        QCOMPARE(limit->minimum(), 1);
        QCOMPARE(limit->maximum(), int(kMaxConcurrentRunsCeiling));
        auto* allowlist = view.findChild<QTableView*>(QStringLiteral("allowlistView"));
        QVERIFY(allowlist);
        QCOMPARE(allowlist->model(), static_cast<QAbstractItemModel*>(view.allowlistModel()));
        QCOMPARE(allowlist->selectionMode(), QAbstractItemView::ExtendedSelection);
        view.resize(420, 300); // a dock shared with the clusters and the audit log at 1280x800
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY2(allowlist->height() >= allowlist->horizontalHeader()->height() +
                                            5 * allowlist->verticalHeader()->defaultSectionSize(),
                 qPrintable(QString::number(allowlist->height())));
        auto* entry = view.findChild<QLineEdit*>(QStringLiteral("allowlistEntryEdit"));
        QVERIFY(entry && entry->completer());
        // Nothing read yet: nothing can be changed.
        QVERIFY(!view.isEditable());
        for (const char* name : {"saveProjectButton", "addAllowlistEntryButton"})
            QVERIFY2(!view.findChild<QPushButton*>(QString::fromLatin1(name))->isEnabled(), name);
        QVERIFY(
            view.findChild<QLabel*>(QStringLiteral("limitNote"))->text().contains(QStringLiteral("1000")));

        QSignalSpy loaded(&view, &ProjectView::loaded);
        view.reload();
        QVERIFY(loaded.wait(20000));
        QVERIFY(view.isEditable());
        QVERIFY(view.findChild<QCheckBox*>(QStringLiteral("concurrentRunsSwitch"))->isChecked());
        QCOMPARE(limit->value(), 4);

        for (const char* signature : {"ProjectView::ProjectView(", "void ProjectView::buildSettingsTab("}) {
            const int lines =
                definitionLines(QStringLiteral("ProjectView.cpp"), QString::fromLatin1(signature));
            QVERIFY2(lines > 0 && lines <= kConstructorLines,
                     qPrintable(QStringLiteral("%1: %2").arg(QString::fromLatin1(signature)).arg(lines)));
        }
    }

    void theRunMonitorIsItsForm() {
        RunMonitor monitor(m_client);
        const QStringList wrong = mismatches(QStringLiteral("RunMonitor.ui"), &monitor);
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QLatin1Char('\n'))));
        QCOMPARE(monitor.objectName(), QStringLiteral("runMonitor"));
        auto* tabs = monitor.findChild<QTabWidget*>(QStringLiteral("detailTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->count(), 2);
        QCOMPARE(tabs->tabText(0), QStringLiteral("Log"));
        QCOMPARE(tabs->tabText(1), QStringLiteral("History"));
        QCOMPARE(monitor.activeView()->model(), static_cast<QAbstractItemModel*>(monitor.activeProxy()));
        QCOMPARE(monitor.activeView()->selectionBehavior(), QAbstractItemView::SelectRows);
        QVERIFY(monitor.activeView()->isColumnHidden(RunsTableModel::Overrides));
        QVERIFY(!monitor.historyView()->isColumnHidden(RunsTableModel::Overrides));
        auto* cancel = monitor.findChild<QPushButton*>(QStringLiteral("cancelButton"));
        QVERIFY(cancel && !cancel->isEnabled()); // nothing selected
        // The runs of the project arrive in the form's views.
        QSignalSpy loaded(&monitor, &RunMonitor::loaded);
        monitor.setJob(QString());
        QVERIFY(loaded.wait(20000));
        const int lines =
            definitionLines(QStringLiteral("RunMonitor.cpp"), QStringLiteral("RunMonitor::RunMonitor("));
        QVERIFY2(lines > 0 && lines <= kConstructorLines, qPrintable(QString::number(lines)));
    }
};

JOBDECK_TEST_MAIN(TestDialogDesigns)
#include "tst_dialogdesigns.moc"
