// Smaller things met in daily use (issue "the console in daily use", §6), against a real jobdeckd:
// File → Connect → New profile → Connect saves the typed profile and connects with it; the keyboard
// reaches the jobs list from the filter and comes back to it when the job editor closes; job names are
// quoted in what the dialogs say; an empty New Job guides instead of reporting an error; the jobs count
// reads as words and says when the list is still loading; the "nothing changed" note is not underlined
// as an error; no view flashes an error while the console connects; Export proposes a file name from
// the table it exports.
#include "client/ApiClient.h"
#include "client/ConnectionMonitor.h"
#include "client/ConnectionProfiles.h"
#include "core/parameters/ParameterValidator.h"
#include "models/DiagnosticsModel.h"
#include "models/JobsListLoader.h"
#include "models/JobsTableModel.h"
#include "models/QtStrings.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "tests/widgets/ConsoleHome.h"
#include "widgets/ConnectionDialog.h"
#include "widgets/ConnectionStatusWidget.h"
#include "widgets/DiagnosticsPanel.h"
#include "widgets/JobEditorDialog.h"
#include "widgets/JobPreviewPanel.h"
#include "widgets/JobsView.h"
#include "widgets/MainWindow.h"
#include "widgets/ParameterEditor.h"
#include "widgets/RunDialog.h"
#include "widgets/TableExport.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDate>
#include <QDialog>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

using namespace jobdeck;
using jobdeck::test::awaitReply;
using jobdeck::test::ConsoleHome;

namespace {

// Counts the times the watched widgets are shown: a message that flashes is shown, then hidden.
class ShowCounter final : public QObject {
public:
    int shown = 0;
    QStringList texts;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Show) {
            ++shown;
            if (auto* label = qobject_cast<QLabel*>(watched))
                texts << label->objectName() + QStringLiteral(": ") + label->text();
        }
        return false;
    }
};

bool hasWaveUnderline(const QTextDocument* document) {
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
        for (const QTextLayout::FormatRange& range : block.layout()->formats())
            if (range.format.underlineStyle() == QTextCharFormat::WaveUnderline)
                return true;
    return false;
}

// The file name the export dialog proposes, and the dialog closed again.
QString proposedExportName(MainWindow& window, const char* action) {
    auto* trigger = window.findChild<QAction*>(QString::fromLatin1(action));
    if (!trigger)
        return QStringLiteral("(no action %1)").arg(QString::fromLatin1(action));
    trigger->trigger();
    QFileDialog* dialog = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                return (dialog = window.findChild<QFileDialog*>(QStringLiteral("exportFileDialog"))) !=
                       nullptr;
            },
            10000))
        return QStringLiteral("(no file dialog)");
    const QString name = QFileInfo(dialog->selectedFiles().value(0)).fileName();
    dialog->reject();
    if (!QTest::qWaitFor(
            [&] { return window.findChild<QFileDialog*>(QStringLiteral("exportFileDialog")) == nullptr; },
            10000))
        return QStringLiteral("(the file dialog stayed open)");
    return name;
}

// The letter after the single '&' of a menu text, upper case; null when it has none.
QChar mnemonicOf(const QString& text) {
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&'))
            continue;
        if (text[i + 1] != QLatin1Char('&'))
            return text[i + 1].toUpper();
        ++i; // "&&" is a literal ampersand
    }
    return {};
}

} // namespace

class TestSmallThings final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ConsoleHome m_home;
    ApiCredentials m_admin;
    ApiClient* m_client = nullptr;

    bool statement(const char* text) { return statementSucceeds(m_service, m_operator, text); }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey(QStringLiteral("small"), QStringLiteral("operator"));
        QVERIFY2(m_operator.isValid(), qPrintable(m_service.lastError()));
        QString error;
        QVERIFY2(m_home.saveProfile(QStringLiteral("first"), m_service, m_operator, &error),
                 qPrintable(error));
        m_admin = m_service.createKey(QStringLiteral("small"), QStringLiteral("admin")); // the same project
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        QVERIFY2(m_home.saveProfile(QStringLiteral("admin"), m_service, m_admin, &error), qPrintable(error));
        m_client = new ApiClient(this);
        m_client->setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
        QVERIFY(statement("CREATE CLUSTER small TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
    }

    void connectSavesTheNewProfile() {
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));

        window.openConnectionDialog();
        ConnectionDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<ConnectionDialog*>(QStringLiteral("connectionDialog"))) !=
                    nullptr);
        dialog->findChild<QPushButton*>(QStringLiteral("newProfile"))->click();
        const auto fill = [dialog](const char* name, const QString& text) {
            auto* edit = dialog->findChild<QLineEdit*>(QString::fromLatin1(name));
            QVERIFY(edit);
            QTest::keyClicks(edit, text);
        };
        fill("profileName", QStringLiteral("second"));
        fill("profileUrl", m_service.baseUrl().toString());
        fill("profileProject", m_operator.projectUid);
        fill("profileApiKey", m_operator.apiKey);
        fill("profileSecret", m_operator.apiSecret);
        QSignalSpy reloaded(&window, &MainWindow::jobsLoaded);
        dialog->findChild<QPushButton*>(QStringLiteral("connectProfile"))->click();

        QTRY_VERIFY(window.profiles()->profile(QStringLiteral("second")).has_value());
        QTRY_COMPARE(window.currentProfile(), QStringLiteral("second"));
        QTRY_VERIFY_WITH_TIMEOUT(reloaded.count() > 0, 20000);
        QCOMPARE(window.monitor()->state(), ConnectionMonitor::State::Connected);
    }

    // Keys only: Down in the filter reaches the list; closing the job editor gives the keyboard back to
    // the main window's list (editor §4's keyboard bullet).
    void theKeyboardReachesTheListAndComesBack() {
        QVERIFY(statementSucceeds(m_service, m_operator,
                                  "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"));
        QVERIFY(
            statementSucceeds(m_service, m_operator,
                              "CREATE JOB keyed TYPE = 'PYTHON' PARAMETERS = ( 'app.py' ) CLUSTER = 'main'"));
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        QTRY_VERIFY(window.jobsModel()->rowOf("keyed") >= 0);

        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
        auto* table = window.findChild<QTableView*>(QStringLiteral("jobsTable"));
        QVERIFY(filter && table);
        filter->setFocus();
        QTRY_VERIFY(filter->hasFocus());
        QTest::keyClicks(filter, QStringLiteral("keyed"));
        QTest::keyClick(filter, Qt::Key_Down);
        QTRY_VERIFY(table->hasFocus());
        QCOMPARE(window.currentJob().value_or(SparkJobSummary{}).name, std::string("keyed"));

        // Ctrl+N opens the editor; Escape closes it (nothing typed); the list has the keyboard again.
        QTest::keyClick(table, Qt::Key_N, Qt::ControlModifier);
        QDialog* editor = nullptr;
        QTRY_VERIFY((editor = window.findChild<QDialog*>(QStringLiteral("jobEditorDialog"))) != nullptr &&
                    editor->isVisible());
        QTRY_VERIFY(QApplication::activeWindow() == editor);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!editor->isVisible());
        QTRY_VERIFY(QApplication::activeWindow() == &window);
        QTRY_VERIFY(table->hasFocus());

        // Edit (Return on the row): the Name cannot change, and looks so.
        QTest::keyClick(table, Qt::Key_Return);
        QTRY_VERIFY((editor = window.findChild<QDialog*>(QStringLiteral("jobEditorDialog"))) != nullptr &&
                    editor->isVisible());
        auto* name = editor->findChild<QLineEdit*>(QStringLiteral("nameEdit"));
        QVERIFY(name && name->isReadOnly());
        QCOMPARE(name->text(), QStringLiteral("keyed"));
        QCOMPARE(name->palette().color(QPalette::Base), name->palette().color(QPalette::Window));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(table->hasFocus());
    }

    // What the dialogs say about a job names it in quotes, as the confirmations do.
    void jobNamesAreQuotedInPrompts() {
        JobEditorDialog editor(m_client, std::nullopt);
        QSignalSpy loaded(&editor, &JobEditorDialog::loaded);
        QVERIFY(loaded.wait(20000));
        editor.findChild<QLineEdit*>(QStringLiteral("nameEdit"))->setText(QStringLiteral("quoted_job"));
        editor.findChild<QComboBox*>(QStringLiteral("clusterCombo"))->setCurrentText(QStringLiteral("small"));
        editor.editor()->setPlainText(QStringLiteral("s3://bucket/quoted.py"));
        QSignalSpy saved(&editor, &JobEditorDialog::saved);
        editor.save();
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 20000);
        QCOMPARE(saved.first().at(1).toString(), QStringLiteral("Job 'quoted_job' created."));

        const auto job = awaitReply(m_client->describeJob(QStringLiteral("quoted_job")));
        QVERIFY(job);
        RunDialog run(m_client, *job);
        QSignalSpy finished(&run, &RunDialog::submitFinished);
        run.submit();
        QCOMPARE(run.findChild<QLabel*>(QStringLiteral("resultLabel"))->text(),
                 QStringLiteral("Starting a run of 'quoted_job'…"));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        awaitReply(m_client->cancelJobRun(run.lastRunId(), QStringLiteral("quoted_job")));
    }

    // A New Job with nothing typed yet says what to type, not that the (empty) parameters are an error.
    void anEmptyNewJobShowsGuidance() {
        JobEditorDialog editor(m_client, std::nullopt);
        QSignalSpy loaded(&editor, &JobEditorDialog::loaded);
        QVERIFY(loaded.wait(20000));
        editor.updatePreviewNow();
        const QString summary = editor.diagnosticsPanel()->summaryText();
        QVERIFY2(!summary.contains(QStringLiteral("error")), qPrintable(summary));
        QCOMPARE(summary, q(emptyParametersGuidance()));
        QCOMPARE(editor.diagnosticsPanel()->model()->countOf(Severity::Error), 0);
        QCOMPARE(editor.editor()->placeholderText(), q(emptyParametersGuidance()));
        // Typing makes the findings the findings again; emptying the text brings the guidance back.
        editor.editor()->setPlainText(QStringLiteral("--class"));
        QTRY_VERIFY(editor.diagnosticsPanel()->model()->countOf(Severity::Error) > 0);
        editor.editor()->clear();
        QTRY_COMPARE(editor.diagnosticsPanel()->summaryText(), q(emptyParametersGuidance()));
        // Save still asks first: the service refuses empty PARAMETERS.
        QVERIFY(!editor.findChild<QLabel*>(QStringLiteral("messageLabel"))
                     ->text()
                     .contains(QStringLiteral("error")));
    }

    // The count under the list is in words ("1 job", "3 jobs"), and says so while a load is under way
    // rather than giving the rows shown so far as the number of jobs.
    void theJobsCountReadsAsWords() {
        QVERIFY(statement("CREATE JOB counted_a TYPE = 'PYTHON' PARAMETERS = ( 'a.py' ) CLUSTER = 'small'"));
        QVERIFY(statement("CREATE JOB counted_b TYPE = 'PYTHON' PARAMETERS = ( 'b.py' ) CLUSTER = 'small'"));
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        const int total = window.jobsModel()->rowCount();
        QVERIFY(total >= 2);
        QTRY_COMPARE(window.jobsView()->countText(), QStringLiteral("%1 jobs").arg(total));

        auto* filter = window.findChild<QLineEdit*>(QStringLiteral("jobFilter"));
        filter->setText(QStringLiteral("counted_a"));
        QTRY_COMPARE(window.jobsView()->countText(), QStringLiteral("1 of %1 jobs").arg(total));
        filter->clear();

        QString whileLoading;
        connect(window.jobsLoader(), &JobsListLoader::loadStarted, this,
                [&] { whileLoading = window.jobsView()->countText(); });
        loaded.clear();
        window.refresh();
        QVERIFY(loaded.wait(20000));
        QCOMPARE(whileLoading, QStringLiteral("%1 jobs so far, loading…").arg(total));
        QTRY_COMPARE(window.jobsView()->countText(), QStringLiteral("%1 jobs").arg(total));
    }

    // "-- nothing changed" is a note, not a statement: nothing in it is underlined as an error.
    void theNothingChangedNoteIsNoError() {
        QVERIFY(statement("CREATE JOB unchanged TYPE = 'PYTHON' PARAMETERS = ( 'u.py' ) CLUSTER = 'small'"));
        const auto job = awaitReply(m_client->describeJob(QStringLiteral("unchanged")));
        QVERIFY(job);
        JobEditorDialog editor(m_client, *job);
        QSignalSpy loaded(&editor, &JobEditorDialog::loaded);
        QVERIFY(loaded.wait(20000));
        editor.updatePreviewNow();
        QCOMPARE(editor.preview()->statementText(),
                 QStringLiteral("-- nothing changed: Save has nothing to send"));
        auto* preview = editor.findChild<QPlainTextEdit*>(QStringLiteral("statementPreview"));
        QVERIFY(preview);
        QVERIFY(!hasWaveUnderline(preview->document()));
        // A real statement is still highlighted as one (an unterminated string would be underlined).
        editor.editor()->setPlainText(QStringLiteral("v.py"));
        editor.editor()->recheckNow();
        editor.updatePreviewNow();
        QVERIFY(preview->toPlainText().startsWith(QStringLiteral("ALTER JOB")));
        QVERIFY(!hasWaveUnderline(preview->document()));
    }

    // Views restored open at start load once the console is connected: none shows a red "cannot be
    // shown" first (the request made before any service was there).
    void noViewFlashesAnErrorAtStart() {
        QVERIFY(statement("CREATE CLUSTER audited TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0"));
        MainWindow window(m_home.options(QStringLiteral("admin")));
        ShowCounter errors;
        for (const char* name : {"auditError", "projectLoadError", "clustersError"}) {
            auto* label = window.findChild<QLabel*>(QString::fromLatin1(name));
            QVERIFY2(label, name);
            label->installEventFilter(&errors);
        }
        // As a restored layout would have them: open, and each in view.
        for (const char* name : {"auditDock", "projectDock", "clustersDock"}) {
            auto* dock = window.findChild<QDockWidget*>(QString::fromLatin1(name));
            QVERIFY2(dock, name);
            dock->setFloating(true);
            dock->show();
        }
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        QVERIFY2(errors.shown == 0, qPrintable(errors.texts.join(QLatin1Char('\n'))));
        // And each loads once connected.
        auto* auditError = window.findChild<QLabel*>(QStringLiteral("auditError"));
        auto* audit = window.findChild<QTableView*>(QStringLiteral("auditTable"));
        QTRY_VERIFY2_WITH_TIMEOUT(audit->model()->rowCount() > 0, qPrintable(auditError->text()), 20000);
        auto* clusters = window.findChild<QTableView*>(QStringLiteral("clustersTable"));
        QTRY_VERIFY_WITH_TIMEOUT(clusters->model()->rowCount() > 0, 20000);
        QVERIFY2(errors.shown == 0, qPrintable(errors.texts.join(QLatin1Char('\n'))));
    }

    // Opened from the menu in a 1280x800 window, the docked admin views (tabbed together) leave the jobs
    // list and DESCRIBE pane most of the window: the audit log's filters once asked for 865 pixels.
    void aDockedViewLeavesRoomForTheJobs() {
        MainWindow window(m_home.options(QStringLiteral("admin")));
        window.resize(1280, 800);
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        for (const char* name : {"actionAuditLog", "actionClusters", "actionProjectSettings"}) {
            auto* action = window.findChild<QAction*>(QString::fromLatin1(name));
            QVERIFY2(action, name);
            action->trigger();
            auto* audit = window.findChild<QDockWidget*>(QStringLiteral("auditDock"));
            QTRY_VERIFY(audit->isVisible());
            QTRY_VERIFY(audit->width() > 100); // laid out
            QVERIFY2(
                audit->width() <= window.width() * 3 / 5,
                qPrintable(
                    QStringLiteral("%1: dock %2 of %3").arg(name).arg(audit->width()).arg(window.width())));
            QVERIFY(window.centralWidget()->width() >= window.width() * 2 / 5);
        }
    }

    // The export dialog proposes a name from the table exported and the day, not a widget's name.
    void exportProposesANameFromTheView() {
        MainWindow window(m_home.options(QStringLiteral("admin")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        const QString day = QDate::currentDate().toString(Qt::ISODate);
        QCOMPARE(proposedExportName(window, "actionExportJobsCsv"), QStringLiteral("jobs-%1.csv").arg(day));
        QCOMPARE(proposedExportName(window, "actionExportRunsJson"), QStringLiteral("runs-%1.json").arg(day));
        // A docked view's table is named after the dock's title.
        auto* audit = window.findChild<QTableView*>(QStringLiteral("auditTable"));
        QVERIFY(audit);
        QCOMPARE(TableExport::proposedFileName(audit, TableExport::Format::Csv),
                 QStringLiteral("audit-log-%1.csv").arg(day));
    }

    // Alt+letter reaches every entry of a menu: no two entries of one menu share a mnemonic, and no two
    // of the window's window-wide actions share a shortcut.
    void menusHaveDistinctMnemonicsAndShortcuts() {
        MainWindow window(m_home.options(QStringLiteral("admin")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        std::vector<QMenu*> menus;
        for (QAction* top : window.menuBar()->actions())
            if (top->menu())
                menus.push_back(top->menu());
        for (std::size_t i = 0; i < menus.size(); ++i) { // submenus are appended as they are found
            QMap<QChar, QString> taken;
            for (QAction* action : menus[i]->actions()) {
                if (action->menu())
                    menus.push_back(action->menu());
                const QChar mnemonic = mnemonicOf(action->text());
                if (action->isSeparator() || !action->isVisible() || mnemonic.isNull())
                    continue;
                QVERIFY2(
                    !taken.contains(mnemonic),
                    qPrintable(menus[i]->title() + ": " + taken.value(mnemonic) + " and " + action->text()));
                taken.insert(mnemonic, action->text());
            }
        }
        QVERIFY(menus.size() >= 4);
        QMap<QString, QString> bound;
        for (QAction* action : window.findChildren<QAction*>()) {
            const auto context = action->shortcutContext();
            if (context != Qt::WindowShortcut && context != Qt::ApplicationShortcut)
                continue; // a view's own shortcut (Ctrl+C copies that view's rows)
            for (const QKeySequence& keys : action->shortcuts()) {
                const QString text = keys.toString();
                QVERIFY2(!bound.contains(text),
                         qPrintable(text + ": " + bound.value(text) + " and " + action->text()));
                bound.insert(text, action->text());
            }
        }
    }

    // With no job selected the job actions are disabled; their keys say why instead of doing nothing.
    void aJobKeyWithNoJobSelectedSaysWhy() {
        MainWindow window(m_home.options(QStringLiteral("first")));
        QSignalSpy loaded(&window, &MainWindow::jobsLoaded);
        window.show();
        QVERIFY2(loaded.wait(20000), qPrintable(window.statusWidget()->text()));
        auto* jobs = window.findChild<JobsView*>();
        QVERIFY(jobs);
        jobs->table()->selectionModel()->clearCurrentIndex(); // a job restored as selected is let go
        auto* run = window.findChild<QAction*>(QStringLiteral("actionRun"));
        QVERIFY(run);
        QTRY_VERIFY(!jobs->currentJobName() && !run->isEnabled());
        QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
        auto* message = window.findChild<QLabel*>(QStringLiteral("statusMessage"));
        QVERIFY(message);
        QTRY_VERIFY2_WITH_TIMEOUT(message->text().contains(QLatin1String("Select a job first")),
                                  qPrintable(message->text()), 5000);
        QVERIFY(message->text().contains(QLatin1String("Run job")));
        // Clone has its key (Ctrl+Shift+D, duplicate) and the same hint.
        QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_VERIFY2_WITH_TIMEOUT(message->text().contains(QLatin1String("Clone job")),
                                  qPrintable(message->text()), 5000);
    }
};

JOBDECK_TEST_MAIN(TestSmallThings)
#include "tst_smallthings.moc"
