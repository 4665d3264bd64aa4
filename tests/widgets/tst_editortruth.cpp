// The editor never misleads (issue "the console in daily use", §4), against a real jobdeckd: a quick fix
// says what it leads to and the fixes that work come first, a refusal is listed once at its line and
// goes with it, Ctrl+S with known errors asks first, the application path's shape is checked, completion
// marks refused keys, matches anywhere and inserts '=', and Tab moves the focus out of the editor.
#include "client/ApiClient.h"
#include "models/DiagnosticsModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/Screenshots.h"
#include "widgets/DiagnosticsPanel.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/ParameterEditor.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QCompleter>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>

#include <memory>

using namespace jobdeck;
using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;
using jobdeck::test::saveScreenshot;

namespace {

const std::string kJar = "s3://demo-bucket/jobs/jobdeck-demo.jar";
const QString kMoved = QStringLiteral("hoodie.datasource.write.operation");

QStringList codesOf(const ParameterEditor* editor, Severity severity) {
    QStringList codes;
    for (const Diagnostic& d : editor->diagnostics())
        if (d.severity == severity)
            codes << QString::fromLatin1(d.code.data(), qsizetype(d.code.size()));
    return codes;
}

int lineOf(const ParameterEditor* editor, const QString& text) {
    const QStringList lines = editor->toPlainText().split(QLatin1Char('\n'));
    return int(lines.indexOf(text));
}

// The diagnostics list's rows whose message is `message`, with their lines.
QList<int> rowsWithMessage(DiagnosticsModel* model, const QString& message) {
    QList<int> lines;
    for (int row = 0; row < model->rowCount(); ++row)
        if (QString::fromStdString(model->diagnostic(row).message) == message)
            lines << model->lineOf(row);
    return lines;
}

// The "save with errors?" box on screen (one closed before may still await its deletion).
QMessageBox* visibleSaveBox(QWidget* dialog) {
    for (QMessageBox* box : dialog->findChildren<QMessageBox*>(QStringLiteral("saveWithErrorsBox")))
        if (box->isVisible())
            return box;
    return nullptr;
}

QMenu* visibleMenu(const QString& name) {
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* menu = qobject_cast<QMenu*>(w); menu && menu->isVisible() && menu->objectName() == name)
            return menu;
    return nullptr;
}

} // namespace

class TestEditorTruth final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiClient* m_client = nullptr;

    bool statement(const QString& text) { return statementSucceeds(m_service, m_admin, text); }

    std::unique_ptr<JobEditorDialog> open(std::optional<SparkJob> job) {
        auto dialog = std::make_unique<JobEditorDialog>(m_client, std::move(job));
        QSignalSpy loaded(dialog.get(), &JobEditorDialog::loaded);
        dialog->resize(1280, 800);
        dialog->show();
        if (dialog->isLoading())
            loaded.wait(20000);
        return dialog;
    }

    static void type(JobEditorDialog& d, const QString& text) {
        QTextCursor c(d.editor()->document());
        c.select(QTextCursor::Document);
        c.insertText(text);
        d.editor()->recheckNow();
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("truth"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        m_client = new ApiClient(this);
        m_client->setConnection({m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret});
        QVERIFY(statement("CREATE CLUSTER demo_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(statement("ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statement("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')"));
        // The demo's ingest_orders: a --hudi-conf after the path, with a key the allow-list refuses.
        QVERIFY(statement(QStringLiteral("CREATE JOB ingest_orders TYPE = 'JAR' PARAMETERS = ( '--class', "
                                         "'jobdeck.demo.IngestOrders', '%1', '--hudi-conf', "
                                         "'%2=upsert', '--date', '2026-11-30' ) CLUSTER = 'demo_cluster'")
                              .arg(QString::fromStdString(kJar), kMoved)));
    }

    // The move would turn 0 errors into a refusal: the fix that works is first (and selected when the
    // menu opens from the keyboard), the move says where it leads, with the contract's text and the
    // ALTER PROJECT an admin would run.
    void aQuickFixSaysWhatItLeadsTo() {
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("ingest_orders")));
        QVERIFY(job);
        auto dialog = open(*job);
        ParameterEditor* editor = dialog->findChild<ParameterEditor*>();
        QVERIFY(editor);
        QCOMPARE(codesOf(editor, Severity::Error), QStringList());
        QVERIFY(codesOf(editor, Severity::Warning).contains(QStringLiteral("hudi-conf.after-path")));
        const int line = lineOf(editor, kMoved + QStringLiteral("=upsert"));
        QVERIFY(line > 0);

        editor->goToLine(line);
        QTest::keyClick(editor, Qt::Key_Period, Qt::ControlModifier);
        QMenu* menu = nullptr;
        QTRY_VERIFY((menu = visibleMenu(QStringLiteral("fixMenu"))) != nullptr);
        const QList<QAction*> actions = menu->actions();
        QVERIFY(actions.size() >= 2);
        QCOMPARE(actions[0]->text(), QStringLiteral("Remove --hudi-conf ") + kMoved);
        QCOMPARE(menu->activeAction(), actions[0]);
        QAction* move = actions[1];
        QVERIFY2(move->text().startsWith(QStringLiteral("Move --hudi-conf ") + kMoved) &&
                     move->text().contains(QStringLiteral("refused")),
                 qPrintable(move->text()));
        QVERIFY2(move->toolTip().contains(QStringLiteral("--hudi-conf keys are not permitted")),
                 qPrintable(move->toolTip()));
        QVERIFY2(move->toolTip().contains(
                     QStringLiteral("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('%1')").arg(kMoved)),
                 qPrintable(move->toolTip()));
        const QString path = artifactsDir() + QStringLiteral("/editor-quick-fix-ingest-orders.png");
        QVERIFY(dialog->grab().save(path));

        QTest::keyClick(menu, Qt::Key_Return);
        QTRY_COMPARE(lineOf(editor, kMoved + QStringLiteral("=upsert")), -1);
        editor->recheckNow();
        QCOMPARE(codesOf(editor, Severity::Error), QStringList());
        QVERIFY(!codesOf(editor, Severity::Warning).contains(QStringLiteral("hudi-conf.after-path")));
        // The preview follows once typing pauses: the screenshot shows the ALTER JOB that Save sends.
        QTRY_VERIFY(dialog->preview()->statementText().contains(QStringLiteral("ALTER JOB")));
        QCOMPARE(dialog->size(), QSize(1280, 800));
        saveScreenshot(dialog.get(), QStringLiteral("editor-after-quick-fix-ingest-orders.png"));
    }

    // One key the allow-list refuses: its refusal is listed once, at its line, before and after the
    // service says it too; Ctrl+S asks first, naming the error; the refusal and the red banner go once
    // the line changes.
    void aRefusalIsListedOnceAndGoesWithItsLine() {
        auto dialog = open(std::nullopt);
        dialog->findChild<QLineEdit*>(QStringLiteral("nameEdit"))->setText(QStringLiteral("refused_once"));
        const QString pair = QStringLiteral("hoodie.x.y=1");
        type(*dialog, QStringLiteral("--hudi-conf\n%1\n%2\n").arg(pair, QString::fromStdString(kJar)));
        ParameterEditor* editor = dialog->editor();
        DiagnosticsModel* model = dialog->diagnosticsPanel()->model();
        QTRY_VERIFY(!codesOf(editor, Severity::Error).isEmpty());
        const QString refusal = QStringLiteral("--hudi-conf keys are not permitted for this organization: "
                                               "hoodie.x.y. Remove them, or contact Onehouse support to "
                                               "allow them.");
        QTRY_COMPARE(rowsWithMessage(model, refusal), QList<int>{1});

        // Ctrl+S asks first, naming the error; keeping on editing sends nothing.
        QSignalSpy failed(dialog.get(), &JobEditorDialog::saveFailed);
        QMessageBox* box = nullptr;
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT((box = visibleSaveBox(dialog.get())) != nullptr, 5000);
        QVERIFY2(box->informativeText().contains(refusal), qPrintable(box->informativeText()));
        box->findChild<QPushButton*>(QStringLiteral("keepEditingButton"))->click();
        QTest::qWait(300);
        QCOMPARE(failed.count(), 0);

        // Saved anyway: the service refuses with the same text, still listed once at its line.
        QTRY_VERIFY(QApplication::activeWindow() == dialog.get() && editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT((box = visibleSaveBox(dialog.get())) != nullptr, 5000);
        box->findChild<QPushButton*>(QStringLiteral("saveAnywayButton"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 20000);
        auto* banner = dialog->findChild<QLabel*>(QStringLiteral("messageLabel"));
        QCOMPARE(banner->text(), refusal);
        QCOMPARE(rowsWithMessage(model, refusal), QList<int>{1});

        // The line changes: the refusal and the banner go.
        QTextCursor c(editor->document()->findBlockByNumber(1));
        c.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
        c.insertText(QStringLiteral("hoodie.datasource.meta.sync.enable=true"));
        editor->recheckNow();
        QTRY_COMPARE(rowsWithMessage(model, refusal), QList<int>{});
        QTRY_COMPARE(banner->text(), QString());
        QCOMPARE(codesOf(editor, Severity::Error), QStringList());
    }

    // A typo makes an option or a configuration the application path: warned, never refused.
    void theApplicationPathsShapeIsChecked() {
        auto dialog = open(std::nullopt);
        ParameterEditor* editor = dialog->editor();
        type(*dialog, QStringLiteral("x--class\njobdeck.demo.Main\n%1\n").arg(QString::fromStdString(kJar)));
        QTRY_VERIFY(codesOf(editor, Severity::Warning).contains(QStringLiteral("path.option-glued")));
        QVERIFY(codesOf(editor, Severity::Warning).contains(QStringLiteral("path.extension")));
        QCOMPARE(codesOf(editor, Severity::Error), QStringList());

        type(*dialog, QStringLiteral("hoodie.datasource.write.operation=upsert\n"));
        QTRY_VERIFY(codesOf(editor, Severity::Warning).contains(QStringLiteral("path.looks-like-config")));

        // The type decides the extension: a .jar path for a PYTHON job is warned about.
        type(*dialog, QString::fromStdString(kJar) + QLatin1Char('\n'));
        QVERIFY(!codesOf(editor, Severity::Warning).contains(QStringLiteral("path.extension")));
        auto* typeCombo = dialog->findChild<QComboBox*>(QStringLiteral("typeCombo"));
        typeCombo->setCurrentIndex(typeCombo->findText(QStringLiteral("PYTHON")));
        QTRY_VERIFY(codesOf(editor, Severity::Warning).contains(QStringLiteral("path.extension")));
    }

    // Completion finds a word anywhere in the key, marks the keys the project's allow-list refuses, and
    // inserts the '=' the value follows.
    void completionMarksRefusedKeysAndInsertsEquals() {
        auto dialog = open(std::nullopt);
        ParameterEditor* editor = dialog->editor();
        QVERIFY(editor->projectSettingsKnown());
        type(*dialog, QStringLiteral("--hudi-conf\n"));
        editor->setFocus();
        editor->moveCursor(QTextCursor::End);
        QTest::keyClicks(editor, QStringLiteral("write.operation"));
        QCompleter* completer = editor->completer();
        QTRY_VERIFY(completer->popup()->isVisible());
        QAbstractItemModel* shown = completer->completionModel();
        int row = -1;
        for (int r = 0; r < shown->rowCount(); ++r)
            if (shown->index(r, 0).data(Qt::EditRole).toString() == kMoved + QLatin1Char('='))
                row = r;
        QVERIFY2(row >= 0, "hoodie.datasource.write.operation is not offered for 'write.operation'");
        QVERIFY2(
            shown->index(row, 0).data(Qt::DisplayRole).toString().contains(QStringLiteral("not allowed")),
            qPrintable(shown->index(row, 0).data(Qt::DisplayRole).toString()));
        completer->popup()->setCurrentIndex(shown->index(row, 0));
        QTest::keyClick(completer->popup(), Qt::Key_Return);
        QTRY_COMPARE(editor->document()->findBlockByNumber(1).text(), kMoved + QLatin1Char('='));
    }

    // Parameters have no tabs: Tab moves the focus on, Shift+Tab back.
    void tabMovesTheFocus() {
        auto dialog = open(std::nullopt);
        ParameterEditor* editor = dialog->editor();
        type(*dialog, QString::fromStdString(kJar));
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_Tab);
        QVERIFY(!editor->toPlainText().contains(QLatin1Char('\t')));
        QTRY_VERIFY(!editor->hasFocus());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Backtab);
        QTRY_VERIFY(editor->hasFocus());
        QTest::keyClick(editor, Qt::Key_Tab, Qt::ControlModifier);
        QVERIFY(!editor->toPlainText().contains(QLatin1Char('\t')));
    }
};

JOBDECK_TEST_MAIN(TestEditorTruth)
#include "tst_editortruth.moc"
