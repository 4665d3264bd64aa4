#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/parameters/DiagnosticCode.h"
#include "core/parameters/ParameterValidator.h"
#include "core/parameters/SecretMasking.h"
#include "core/statements/StatementParser.h"
#include "models/DiagnosticsModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "widgets/DiagnosticsPanel.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobPreviewPanel.h"
#include "widgets/ParameterDiffView.h"
#include "widgets/ParameterEditor.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>

#include <optional>

using namespace jobdeck;

using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;

namespace {

using Params = std::vector<std::string>;

QString perLine(const Params& p) {
    QString s;
    for (const std::string& x : p)
        s += QString::fromStdString(x) + QLatin1Char('\n');
    return s;
}

// The codes of the editor's error diagnostics, each with its line.
QStringList errorsOf(const ParameterEditor* editor) {
    QStringList errors;
    for (std::size_t i = 0; i < editor->diagnostics().size(); ++i)
        if (editor->diagnostics()[i].severity == Severity::Error)
            errors << QStringLiteral("%1@%2")
                          .arg(QString::fromStdString(std::string(editor->diagnostics()[i].code)))
                          .arg(editor->diagnosticLines()[i]);
    return errors;
}

bool hasCode(const ParameterEditor* editor, std::string_view code) {
    const auto& all = editor->diagnostics();
    return std::any_of(all.begin(), all.end(), [code](const Diagnostic& d) { return d.code == code; });
}

template <class W> W* child(QObject* parent, const char* name) {
    return parent->findChild<W*>(QString::fromLatin1(name));
}

// Answers the next modal message box with `button` once it shows; records its object name.
void answerNextMessageBox(QMessageBox::StandardButton button, QString* seenName) {
    QTimer::singleShot(0, qApp, [button, seenName] {
        QTRY_VERIFY(QApplication::activeModalWidget() != nullptr);
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box);
        *seenName = box->objectName();
        box->button(button)->click();
    });
}

// Every cell of every row, children included, one per line.
QString treeText(const QTreeWidget* tree) {
    QStringList cells;
    for (QTreeWidgetItemIterator it(const_cast<QTreeWidget*>(tree)); *it; ++it)
        for (int column = 0; column < (*it)->columnCount(); ++column)
            cells << (*it)->text(column);
    return cells.join(QLatin1Char('\n'));
}

} // namespace

class TstJobEditorDialog final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiClient* m_client = nullptr;

    bool statement(const ApiCredentials& who, const QString& text) {
        return statementSucceeds(m_service, who, text);
    }

    // A dialog whose project settings and clusters have arrived.
    std::unique_ptr<JobEditorDialog> open(std::optional<SparkJob> job) {
        auto dialog = std::make_unique<JobEditorDialog>(m_client, std::move(job));
        QSignalSpy loaded(dialog.get(), &JobEditorDialog::loaded);
        dialog->show();
        if (dialog->isLoading())
            loaded.wait(20000);
        return dialog;
    }

    // Replaces the editor's text the way a user does (undoable), then re-checks.
    static void type(JobEditorDialog& d, const QString& text) {
        QTextCursor c(d.editor()->document());
        c.select(QTextCursor::Document);
        c.insertText(text);
        d.editor()->recheckNow();
        d.updatePreviewNow();
    }

    static bool clickSaveAndWait(JobEditorDialog& d, QString* error = nullptr) {
        QSignalSpy saved(&d, &JobEditorDialog::saved);
        QSignalSpy failed(&d, &JobEditorDialog::saveFailed);
        child<QPushButton>(&d, "saveButton")->click();
        // With errors the editor knows of, Save asks first: these tests send them to see the refusal.
        for (auto* box : d.findChildren<QMessageBox*>(QStringLiteral("saveWithErrorsBox")))
            if (box->isVisible())
                child<QPushButton>(box, "saveAnywayButton")->click();
        if (!QTest::qWaitFor([&] { return saved.count() + failed.count() > 0; }, 20000))
            qWarning("Save got no answer in time");
        if (error && failed.count())
            *error = failed.at(0).at(0).toString();
        return saved.count() == 1;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("editor", "admin");
        m_operator = m_service.createKey("editor", "operator");
        QVERIFY2(m_admin.isValid() && m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(statement(m_admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statement(m_admin, "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.', "
                                   "'hoodie.datasource.write.operation')"));
        QVERIFY(
            statement(m_admin, "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 3"));
        QVERIFY(statement(m_operator,
                          "CREATE CLUSTER onehouse_cluster_spark TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(statement(m_operator, "CREATE CLUSTER second TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        m_client = new ApiClient(this);
        m_client->setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
    }

    void loadsSettingsClustersAndConcurrency() {
        auto d = open(std::nullopt);
        QVERIFY(!d->isLoading());
        QCOMPARE(d->projectSettings().hudiConfigsEnabled, true);
        auto* clusters = child<QComboBox>(d.get(), "clusterCombo");
        QCOMPARE(clusters->count(), 2);
        QVERIFY(clusters->findText(QStringLiteral("onehouse_cluster_spark")) >= 0);
        auto* runs = child<QSpinBox>(d.get(), "maxRunsSpin");
        QVERIFY(runs->isEnabled());
        QCOMPARE(runs->maximum(), 3);
        // Without concurrent runs the spin box stays at 1 and says why.
        ProjectSettings off = d->projectSettings();
        off.concurrentRunsEnabled = false;
        d->setProjectSettings(off);
        QVERIFY(!runs->isEnabled());
        QCOMPARE(runs->maximum(), 1);
        QVERIFY(child<QLabel>(d.get(), "maxRunsNote")->text().contains(QStringLiteral("not enabled")));
        QVERIFY(!d->isModified()); // loading is not an edit: closing asks nothing
        d->reject();
        QVERIFY(!d->isVisible());
    }

    // The preview is what DESCRIBE JOB answers once saved, field for field, secret values masked as the
    // service masks them; the statement shown masks them too while Save sends them in clear.
    void previewMatchesDescribeJobAfterSave() {
        auto d = open(std::nullopt);
        child<QLineEdit>(d.get(), "nameEdit")->setText(QStringLiteral("count_transactions"));
        child<QComboBox>(d.get(), "clusterCombo")->setCurrentText(QStringLiteral("onehouse_cluster_spark"));
        child<QSpinBox>(d.get(), "maxRunsSpin")->setValue(2);
        const Params params = {"--class",
                               "com.example.MySparkApp",
                               "--conf",
                               "spark.sql.shuffle.partitions=8",
                               "--conf",
                               "spark.db.password=hunter2",
                               "--conf",
                               "spark.driver.extraJavaOptions=-Da=1 -Dkey.secret=swordfish",
                               "--hudi-conf",
                               "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                               "--hudi-conf",
                               "hoodie.datasource.write.operation=upsert",
                               "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar",
                               "--hudi-conf",
                               "hoodie.c=d",
                               "--hudi-conf",
                               "hoodie.sink.password=letmein",
                               "--api-token",
                               "opensesame",
                               "arg1"};
        const QStringList secrets = {QStringLiteral("hunter2"), QStringLiteral("swordfish"),
                                     QStringLiteral("letmein"), QStringLiteral("opensesame")};
        type(*d, perLine(params));
        QCOMPARE(d->editor()->parameters(), params);
        d->updatePreviewNow();
        const SparkJob preview = d->preview()->described();
        const QString statementText = d->preview()->statementText();
        QVERIFY2(
            statementText.startsWith(QStringLiteral("CREATE JOB count_transactions TYPE = 'JAR' PARAMETERS = "
                                                    "(\n    '--class',\n    'com.example.MySparkApp',\n")),
            qPrintable(statementText));
        QVERIFY2(statementText.contains(QStringLiteral("'spark.db.password=****'")),
                 qPrintable(statementText));
        for (const QString& secret : secrets) {
            QVERIFY2(!statementText.contains(secret), qPrintable(secret));
            QVERIFY2(!treeText(d->preview()->describeTree()).contains(secret), qPrintable(secret));
        }
        QVERIFY(d->findChild<QLabel*>(QStringLiteral("secretsMaskedNote"))->isVisibleTo(d.get()));
        // One parameter per line, and what the copy button copies reads back as the statement Save sends,
        // but for the masked values.
        const ParseResult copied = parseStatement(statementText.toStdString());
        QVERIFY(d->preview()->statement());
        QVERIFY(copied.statement);
        const auto* sent = std::get_if<CreateJobStatement>(&*d->preview()->statement());
        QVERIFY(sent);
        QCOMPARE(sent->parameters, params);
        QCOMPARE(std::get<CreateJobStatement>(*copied.statement).parameters, maskParameters(params));
        QVERIFY(statementText.contains(
            QStringLiteral("CLUSTER = 'onehouse_cluster_spark' MAX_CONCURRENT_RUNS = 2")));
        QCOMPARE(preview.hudiConfigs.size(), std::size_t(2));
        QString error;
        QVERIFY2(clickSaveAndWait(*d, &error), qPrintable(error));
        QCOMPARE(d->result(), int(QDialog::Accepted));

        const auto job = awaitReply(m_client->describeJob(QStringLiteral("count_transactions")));
        QVERIFY(job);
        QCOMPARE(job->parameters, maskParameters(params));
        QCOMPARE(job->applicationPath, preview.applicationPath);
        QCOMPARE(job->arguments, preview.arguments);
        QCOMPARE(job->sparkConfigs, preview.sparkConfigs);
        QCOMPARE(job->hudiConfigs, preview.hudiConfigs);
        QCOMPARE(job->hudiConfigsStatus, preview.hudiConfigsStatus);
        QCOMPARE(job->hudiConfigsStatusReasons, preview.hudiConfigsStatusReasons);
        QCOMPARE(job->misplacedHudiConfigs, preview.misplacedHudiConfigs);
        QCOMPARE(job->maxConcurrentRuns, 2);
        QVERIFY(job->hudiConfigs.count("hoodie.c") == 0); // after the path: an argument
        QCOMPARE(job->sparkConfigs.at("spark.db.password"), std::string("****"));
    }

    void refusalIsShownAndMarksItsLine() {
        auto d = open(std::nullopt);
        child<QLineEdit>(d.get(), "nameEdit")->setText(QStringLiteral("refused"));
        type(*d, QStringLiteral("--class\nFoo\n--hudi-conf\nhoodie.datasource.meta.sync.database=x\n"
                                "--hudi-conf\nhoodie.index.type=BLOOM\ns3://b/app.jar\n"));
        QString error;
        QVERIFY(!clickSaveAndWait(*d, &error));
        const QString expected =
            QStringLiteral("--hudi-conf keys are not permitted for this organization: "
                           "hoodie.index.type. Remove them, or contact Onehouse support to "
                           "allow them.");
        QCOMPARE(error, expected);
        QCOMPARE(d->messageText(), expected);
        QVERIFY(d->isVisible());
        // The refusal is listed with its line (5: the pair's line) and the editor's cursor is there.
        ParameterEditor* editor = d->editor();
        // Listed once, at its line, whether the editor or the service found it.
        QList<int> lines;
        for (std::size_t i = 0; i < editor->diagnostics().size(); ++i)
            if (QString::fromStdString(editor->diagnostics()[i].message) == expected)
                lines << editor->diagnosticLines()[i];
        QCOMPARE(lines, QList<int>{5});
        QCOMPARE(editor->textCursor().blockNumber(), 5);
        QVERIFY(editor->toolTipForLine(5).contains(expected));
        // Nothing was created.
        QVERIFY(!awaitReply(m_client->describeJob(QStringLiteral("refused"))).has_value());
        const QString path = artifactsDir() + QStringLiteral("/job-editor-refusal.png");
        QVERIFY(d->grab().save(path));
        QString ignored;
        answerNextMessageBox(QMessageBox::Discard, &ignored); // leaves the dialog without saving
        d->reject();
        QVERIFY(!d->isVisible());
    }

    void unsavedChangesAreConfirmed() {
        auto d = open(std::nullopt);
        type(*d, QStringLiteral("--class\nFoo\ns3://b/app.jar"));
        QVERIFY(d->isModified());
        QString seen;
        answerNextMessageBox(QMessageBox::Cancel, &seen);
        QTest::keyClick(d.get(), Qt::Key_Escape);
        QCOMPARE(seen, QStringLiteral("unsavedChangesBox"));
        QVERIFY(d->isVisible()); // Cancel keeps editing
        QCOMPARE(d->editor()->parameters(), (Params{"--class", "Foo", "s3://b/app.jar"}));
        seen.clear();
        answerNextMessageBox(QMessageBox::Discard, &seen);
        d->close();
        QCOMPARE(seen, QStringLiteral("unsavedChangesBox"));
        QVERIFY(!d->isVisible());
        QCOMPARE(d->result(), int(QDialog::Rejected));

        // Save from the confirmation saves, then closes.
        auto s = open(std::nullopt);
        child<QLineEdit>(s.get(), "nameEdit")->setText(QStringLiteral("saved_on_close"));
        type(*s, QStringLiteral("--class\nFoo\ns3://b/app.jar"));
        QSignalSpy saved(s.get(), &JobEditorDialog::saved);
        answerNextMessageBox(QMessageBox::Save, &seen);
        s->reject();
        QVERIFY(saved.wait(20000) || saved.count() == 1);
        QTRY_VERIFY(!s->isVisible());
        QVERIFY(awaitReply(m_client->describeJob(QStringLiteral("saved_on_close"))).has_value());
    }

    void editShowsDiffAndAlters() {
        QVERIFY(statement(m_operator,
                          "CREATE JOB editme TYPE = 'PYTHON' PARAMETERS = ( '--conf', "
                          "'spark.sql.shuffle.partitions=4', '--hudi-conf', "
                          "'hoodie.datasource.write.operation=upsert', 's3://b/app.py', '--date', "
                          "'2024-01-01' ) CLUSTER = 'onehouse_cluster_spark'"));
        const auto stored = awaitReply(m_client->describeJob(QStringLiteral("editme")));
        QVERIFY(stored);
        auto d = open(*stored);
        QVERIFY(!child<QLineEdit>(d.get(), "nameEdit")->isEnabled() ||
                child<QLineEdit>(d.get(), "nameEdit")->isReadOnly());
        QCOMPARE(d->editor()->parameters(), stored->parameters);
        QVERIFY(!d->isModified());
        QCOMPARE(d->preview()->statementText(),
                 QStringLiteral("-- nothing changed: Save has nothing to send"));
        ParameterDiffView* diff = d->diffView();
        QVERIFY(diff);
        QVERIFY(!diff->hasChanges());

        const Params edited = {"--conf",        "spark.sql.shuffle.partitions=16",
                               "--hudi-conf",   "hoodie.datasource.write.operation=upsert",
                               "--hudi-conf",   "hoodie.datasource.meta.sync.glue.catalogId=1",
                               "s3://b/app.py", "--date",
                               "2024-01-01"};
        type(*d, perLine(edited));
        using K = ParameterDiffLine::Kind;
        QCOMPARE(diff->count(K::Changed), 1);
        QCOMPARE(diff->count(K::Added), 2);
        QCOMPARE(diff->count(K::Removed), 0);
        QVERIFY(diff->toPlainText().contains(
            QStringLiteral("~ spark.sql.shuffle.partitions=4  →  spark.sql.shuffle.partitions=16")));
        QVERIFY(
            diff->toPlainText().contains(QStringLiteral("+ hoodie.datasource.meta.sync.glue.catalogId=1")));
        child<QComboBox>(d.get(), "clusterCombo")->setCurrentText(QStringLiteral("second"));
        d->updatePreviewNow();
        QVERIFY2(
            d->preview()->statementText().startsWith(QStringLiteral("ALTER JOB editme SET PARAMETERS = (")),
            qPrintable(d->preview()->statementText()));
        QVERIFY(d->preview()->statementText().contains(QStringLiteral("SET CLUSTER = 'second'")));
        const ParseResult altered = parseStatement(d->preview()->statementText().toStdString());
        QVERIFY(altered.statement);
        QVERIFY(*altered.statement == *d->preview()->statement());
        QVERIFY(!d->preview()->statementText().contains(QStringLiteral("MAX_CONCURRENT_RUNS")));
        QVERIFY(d->grab().save(artifactsDir() + QStringLiteral("/job-editor-edit.png")));
        QString error;
        QVERIFY2(clickSaveAndWait(*d, &error), qPrintable(error));
        const auto after = awaitReply(m_client->describeJob(QStringLiteral("editme")));
        QVERIFY(after);
        QCOMPARE(after->parameters, edited);
        QCOMPARE(after->cluster, std::string("second"));
        QCOMPARE(after->sparkConfigs.at("spark.sql.shuffle.partitions"), std::string("16"));
    }

    // The Changes tab shows secrets as the preview does: a secret typed anew is a change, not its value.
    void diffShowsNoTypedSecret() {
        QVERIFY(statement(m_operator,
                          "CREATE JOB diffsecret TYPE = 'PYTHON' PARAMETERS = ( '--conf', "
                          "'spark.db.password=Old-Pw1', 's3://b/app.py', '--url', "
                          "'jdbc:postgresql://h/db?password=Old-Pw2' ) CLUSTER = 'onehouse_cluster_spark'"));
        const auto stored = awaitReply(m_client->describeJob(QStringLiteral("diffsecret")));
        QVERIFY(stored);
        auto d = open(*stored);
        type(*d, perLine({"--conf", "spark.db.password=New-Pw1", "s3://b/app.py", "--url",
                          "jdbc:postgresql://h2/db?password=New-Pw2", "--api-token", "New-Pw3"}));
        const QString shown = d->diffView()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral(
                     "~ spark.db.password=****  →  spark.db.password=**** (a new secret value)")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral(
                     "~ jdbc:postgresql://h/db?password=****  →  jdbc:postgresql://h2/db?password=****\n")),
                 qPrintable(shown));
        QVERIFY2(shown.contains(QStringLiteral("+ ****")), qPrintable(shown));
        for (const char* secret : {"New-Pw1", "New-Pw2", "New-Pw3"})
            QVERIFY2(!shown.contains(QLatin1String(secret)), qPrintable(shown));
        QCOMPARE(d->diffView()->count(ParameterDiffLine::Kind::Changed), 2);
    }

    // The project allows hoodie.datasource.write.operation. Its default settings do not, so a check made
    // before DESCRIBE PROJECT answers would flag it: the editor holds those checks while they load.
    void noFalseErrorWhileProjectSettingsLoad() {
        const Params allowed{"--hudi-conf", "hoodie.datasource.write.operation=upsert", "s3://b/app.jar"};
        QVERIFY(refusalMessage(validateParameters(allowed, ValidationContext{}))); // what defaults would say
        QVERIFY(statement(m_operator, "CREATE JOB allowed_conf TYPE = 'JAR' PARAMETERS = ( '--hudi-conf', "
                                      "'hoodie.datasource.write.operation=upsert', 's3://b/app.jar' ) "
                                      "CLUSTER = 'onehouse_cluster_spark'"));
        const auto stored = awaitReply(m_client->describeJob(QStringLiteral("allowed_conf")));
        QVERIFY(stored);
        for (const bool editing : {true, false}) {
            JobEditorDialog d(m_client, editing ? stored : std::nullopt);
            QCOMPARE(d.settingsState(), JobEditorDialog::SettingsState::Loading);
            QVERIFY2(d.messageText().contains(QStringLiteral("Checking the project's settings")),
                     qPrintable(d.messageText()));
            if (!editing)
                type(d, perLine(allowed));
            QStringList seen = errorsOf(d.editor());
            connect(d.editor(), &ParameterEditor::analysisUpdated, &d, [&] { seen << errorsOf(d.editor()); });
            QSignalSpy loaded(&d, &JobEditorDialog::loaded);
            d.show();
            QVERIFY(loaded.wait(20000));
            QCOMPARE(d.settingsState(), JobEditorDialog::SettingsState::Loaded);
            QVERIFY(d.projectSettings().hudiConfigsEnabled);
            seen << errorsOf(d.editor());
            QVERIFY2(seen.isEmpty(), qPrintable(seen.join(QStringLiteral(", "))));
            QVERIFY(d.messageText().isEmpty());
            QCOMPARE(d.editor()->hudiStatusAtLine(1), std::optional(HudiConfigStatus::Applied));
            // The held checks are made once the settings are in: a key outside the allow-list is refused.
            type(d, perLine({"--hudi-conf", "hoodie.index.type=BLOOM", "s3://b/app.jar"}));
            QVERIFY(hasCode(d.editor(), "hudi-conf.not-permitted.key"));
            QString ignored;
            answerNextMessageBox(QMessageBox::Discard, &ignored);
            d.reject();
        }
    }

    // DESCRIBE PROJECT refused: the dialog says so, keeps every check that does not need the project and
    // holds the ones that do; Save is left to the service.
    void unreadableProjectSettingsAreSaid() {
        ApiClient wrongKey;
        wrongKey.setConnection({m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey,
                                QStringLiteral("not-the-secret")});
        JobEditorDialog d(&wrongKey, std::nullopt);
        type(d, perLine({"--bogus", "--hudi-conf", "hoodie.index.type=BLOOM", "s3://b/app.jar"}));
        QSignalSpy loaded(&d, &JobEditorDialog::loaded);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(d.settingsState(), JobEditorDialog::SettingsState::Failed);
        QVERIFY2(d.messageText().startsWith(QStringLiteral("Could not read the project's settings (")),
                 qPrintable(d.messageText()));
        QVERIFY(hasCode(d.editor(), "option.unknown"));
        for (const Diagnostic& held : d.editor()->diagnostics())
            QVERIFY2(!dependsOnProjectSettings(held.code), held.message.c_str());
        QVERIFY(child<QSpinBox>(&d, "maxRunsSpin")->isEnabled());
        QString ignored;
        answerNextMessageBox(QMessageBox::Discard, &ignored);
        d.reject();
    }

    // Another client alters the project while the dialog is open: its diagnostics follow without reopening.
    void followsProjectChangesWhileOpen() {
        EventsSubscription events(m_client);
        events.setWaitSeconds(5);
        events.start();
        auto d = open(std::nullopt);
        d->followProjectEvents(&events);
        type(*d, perLine({"--hudi-conf", "hoodie.index.type=BLOOM", "s3://b/app.jar"}));
        QVERIFY(hasCode(d->editor(), "hudi-conf.not-permitted.key"));

        QVERIFY(statement(m_admin, "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.index.type')"));
        QTRY_VERIFY_WITH_TIMEOUT(!hasCode(d->editor(), "hudi-conf.not-permitted.key"), 20000);
        QVERIFY(errorsOf(d->editor()).isEmpty());
        QCOMPARE(d->editor()->hudiStatusAtLine(1), std::optional(HudiConfigStatus::Applied));

        QVERIFY(statement(m_admin, "ALTER PROJECT SET HUDI_CONFIGS = DISABLED"));
        // The settings are read again; the whole list's refusal is listed once, at the pair's line, by its
        // per-pair copy (hudi-conf.disabled.pair), which carries the whole list's fix too.
        QTRY_VERIFY_WITH_TIMEOUT(!d->projectSettings().hudiConfigsEnabled, 20000);
        QTRY_COMPARE_WITH_TIMEOUT(errorsOf(d->editor()),
                                  QStringList{QStringLiteral("hudi-conf.disabled.pair@1")}, 20000);
        QVERIFY(!hasCode(d->editor(), "hudi-conf.disabled"));

        QVERIFY(statement(m_admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statement(m_admin, "ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.index.type')"));
        QTRY_VERIFY_WITH_TIMEOUT(hasCode(d->editor(), "hudi-conf.not-permitted.key"), 20000);
        events.stop();
        QString ignored;
        answerNextMessageBox(QMessageBox::Discard, &ignored);
        d->reject();
    }

    // A **** with no stored value is flagged on its line with the service's message, which Save then gets.
    void maskedValueWithoutStoredValueIsFlagged() {
        auto d = open(std::nullopt);
        child<QLineEdit>(d.get(), "nameEdit")->setText(QStringLiteral("masked_new"));
        type(*d, perLine({"--conf", "spark.hadoop.fs.s3a.secret.key=****", "s3://b/app.jar"}));
        const ParameterEditor* editor = d->editor();
        QCOMPARE(errorsOf(editor), QStringList{QStringLiteral("secret.unresolved-mask@1")});
        const std::string expected = *findUnresolvedMask(editor->parameters(), {});
        QCOMPARE(editor->diagnostics().front().message, expected);
        QString error;
        QVERIFY(!clickSaveAndWait(*d, &error));
        QCOMPARE(error.toStdString(), expected);

        // Editing: the stored secret's **** stands for its value; a new key's **** does not.
        QVERIFY(statement(m_operator, "CREATE JOB masked_edit TYPE = 'JAR' PARAMETERS = ( '--conf', "
                                      "'spark.hadoop.fs.s3a.secret.key=real', 's3://b/app.jar' ) "
                                      "CLUSTER = 'onehouse_cluster_spark'"));
        const auto stored = awaitReply(m_client->describeJob(QStringLiteral("masked_edit")));
        QVERIFY(stored);
        QCOMPARE(stored->parameters[1], std::string("spark.hadoop.fs.s3a.secret.key=****"));
        auto e = open(*stored);
        QVERIFY(errorsOf(e->editor()).isEmpty());
        type(*e, perLine({"--conf", "spark.hadoop.fs.s3a.secret.key=****", "s3://b/app.jar",
                          "--db.password=****"}));
        QCOMPARE(errorsOf(e->editor()), QStringList{QStringLiteral("secret.unresolved-mask@3")});
        const std::string message = e->editor()->diagnostics().front().message;
        QVERIFY(!clickSaveAndWait(*e, &error));
        QCOMPARE(error.toStdString(), message);
        QString ignored;
        answerNextMessageBox(QMessageBox::Discard, &ignored);
        e->reject();
        answerNextMessageBox(QMessageBox::Discard, &ignored);
        d->reject();
    }

    void panelFixButtonAppliesAndUndoes() {
        auto d = open(std::nullopt);
        const QString original = QStringLiteral(
            "--class\nFoo\ns3://b/app.jar\n--hudi-conf\nhoodie.datasource.write.operation=upsert");
        type(*d, original);
        DiagnosticsPanel* panel = d->diagnosticsPanel();
        int row = -1;
        for (int r = 0; r < panel->model()->rowCount(); ++r)
            if (panel->model()->diagnostic(r).code == "hudi-conf.after-path")
                row = r;
        QVERIFY(row >= 0);
        panel->selectRow(row);
        // Clicking the row jumps to its line.
        const QModelIndex index = panel->model()->index(row, 1);
        QTest::mouseClick(panel->view()->viewport(), Qt::LeftButton, {},
                          panel->view()->visualRect(index).center());
        QCOMPARE(d->editor()->textCursor().blockNumber(), 4);
        auto* fix = child<QToolButton>(d.get(), "applyFixButton");
        QVERIFY(fix->isEnabled());
        QVERIFY(fix->text().startsWith(QStringLiteral("Move --hudi-conf")));
        fix->click();
        QCOMPARE(d->editor()->parameters(),
                 (Params{"--class", "Foo", "--hudi-conf", "hoodie.datasource.write.operation=upsert",
                         "s3://b/app.jar"}));
        QTest::keyClick(d->editor(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(d->editor()->toPlainText(), original);
        QVERIFY(d->grab().save(artifactsDir() + QStringLiteral("/job-editor-new.png")));
        QString ignored;
        answerNextMessageBox(QMessageBox::Discard, &ignored);
        d->reject();
    }
};

JOBDECK_TEST_MAIN(TstJobEditorDialog)
#include "tst_jobeditordialog.moc"
