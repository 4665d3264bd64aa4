// The run dialog against a real jobdeckd running the Python test application: override rows and the
// effective arguments, read-only configurations, the Idempotency-Key rules, and the service's refusals
// shown to the letter.
#include "client/ApiClient.h"
#include "models/ArgumentOverridesModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"
#include "widgets/RunDialog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>

using namespace jobdeck;

using jobdeck::test::artifactsDir;
using jobdeck::test::awaitReply;

namespace {

const QString kApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");

// Shown and active, as a dialog the user opened: the keyboard goes to it.
bool showActive(QWidget& dialog) {
    dialog.show();
    QApplication::setActiveWindow(&dialog);
    return QTest::qWaitForWindowActive(&dialog);
}

} // namespace

class TestRunDialog final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    ApiCredentials m_admin;
    ApiCredentials m_operator;
    ApiClient* m_client = nullptr;

    bool statement(const ApiCredentials& who, const QString& text) {
        return statementSucceeds(m_service, who, text);
    }

    SparkJob describe(const QString& name) {
        const auto job = awaitReply(m_client->describeJob(name));
        return job.value_or(SparkJob{});
    }

    template <class W> static W* child(QObject* parent, const char* name) {
        return parent->findChild<W*>(QString::fromLatin1(name));
    }

    std::vector<SparkJobRun> activeRuns(const QString& job) {
        ShowJobRunsStatement show;
        show.jobName = job.toStdString();
        show.activeOnly = true;
        return awaitReply(m_client->showJobRuns(show)).value_or(std::vector<SparkJobRun>{});
    }

    // Cancels what is still active and waits until the Job has no active run (the service checks the
    // limit before the overrides, so a test of another refusal needs a free slot).
    bool makeIdle(const QString& job) {
        for (const SparkJobRun& run : activeRuns(job))
            awaitReply(m_client->cancelJobRun(QString::fromStdString(run.jobRunId), job));
        QDeadlineTimer deadline(20000);
        while (!activeRuns(job).empty()) {
            if (deadline.hasExpired())
                return false;
            QTest::qWait(100);
        }
        return true;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("dialogs", "admin");
        m_operator = m_service.createKey("dialogs", "operator");
        QVERIFY2(m_admin.isValid() && m_operator.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(
            statement(m_admin, "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 5"));
        QVERIFY(statement(m_admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statement(m_admin, "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.upsert.')"));
        QVERIFY(statement(m_operator, "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 20 MIN_OCU = 1"));
        QVERIFY(statement(
            m_operator,
            "CREATE JOB single TYPE = 'PYTHON' PARAMETERS = ( '--conf', "
            "'spark.sql.shuffle.partitions=4', '--hudi-conf', 'hoodie.upsert.shuffle.parallelism=8', '" +
                kApp + "', '--date', '2024-01-01', '--mode=full', 'input.csv' ) CLUSTER = 'main'"));
        QVERIFY(statement(m_operator, "CREATE JOB multi TYPE = 'PYTHON' PARAMETERS = ( '" + kApp +
                                          "', '--sleep', '30' ) CLUSTER = 'main' MAX_CONCURRENT_RUNS = 2"));
        m_client = new ApiClient(this);
        m_client->setConnection(
            {m_service.baseUrl(), m_operator.projectUid, m_operator.apiKey, m_operator.apiSecret});
    }

    void overrideRowsAndEffectiveArguments() {
        RunDialog dialog(m_client, describe("single"));
        dialog.show();
        auto* view = child<QTableView>(&dialog, "overridesView");
        QVERIFY(view);
        QAbstractItemModel* model = view->model();
        QCOMPARE(model->rowCount(), 3); // --date, --mode, the positional input.csv
        QCOMPARE(model->index(0, ArgumentOverridesModel::Name).data().toString(), QStringLiteral("--date"));
        QCOMPARE(model->index(0, ArgumentOverridesModel::JobValue).data().toString(),
                 QStringLiteral("2024-01-01"));
        QCOMPARE(model->index(1, ArgumentOverridesModel::Name).data().toString(), QStringLiteral("--mode"));
        QCOMPARE(model->index(1, ArgumentOverridesModel::JobValue).data().toString(), QStringLiteral("full"));
        QCOMPARE(model->index(2, ArgumentOverridesModel::JobValue).data().toString(),
                 QStringLiteral("input.csv"));
        auto* effective = child<QPlainTextEdit>(&dialog, "effectiveArguments");
        QVERIFY(effective);
        QCOMPARE(effective->toPlainText(), QStringLiteral("--date\n2024-01-01\n--mode=full\ninput.csv"));

        // Override two values (each in the form the Job wrote it) and add an argument.
        QVERIFY(model->setData(model->index(0, ArgumentOverridesModel::Override), "2026-11-30"));
        QVERIFY(model->setData(model->index(1, ArgumentOverridesModel::Override), "incr"));
        child<QPushButton>(&dialog, "addArgumentButton")->click();
        QCOMPARE(model->rowCount(), 4);
        QVERIFY(model->setData(model->index(3, ArgumentOverridesModel::Name), "--region"));
        QVERIFY(model->setData(model->index(3, ArgumentOverridesModel::Override), "eu-west-1"));
        QCOMPARE(effective->toPlainText(),
                 QStringLiteral("--date\n2026-11-30\n--mode=incr\ninput.csv\n--region\neu-west-1"));
        QVERIFY(!child<QLabel>(&dialog, "overrideError")->isVisible());
        auto* run = child<QPushButton>(&dialog, "runButton");
        QVERIFY(run->isEnabled());

        // What the dialog showed is what the driver gets.
        QSignalSpy started(&dialog, &RunDialog::runStarted);
        const QString sentKey = dialog.idempotencyKey();
        run->click();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
        const QString runId = started[0][1].toString();
        QCOMPARE(started[0][0].toString(), QStringLiteral("single"));
        QVERIFY(child<QLabel>(&dialog, "resultLabel")->text().contains(runId));
        const auto described = awaitReply(m_client->describeJobRun(runId, "single"));
        QVERIFY(described);
        QCOMPARE(described->arguments, dialog.effectiveArguments());
        const std::vector<std::pair<std::string, std::string>> overrides{
            {"--date", "2026-11-30"}, {"--mode", "incr"}, {"--region", "eu-west-1"}};
        QCOMPARE(described->argumentOverrides, overrides);
        QCOMPARE(described->idempotencyKey.value_or(""), sentKey.toStdString());
        QVERIFY(dialog.idempotencyKey() != sentKey); // the next Run is a run of its own
    }

    // A secret typed as an override is shown as DESCRIBE JOB_RUN will show it, and sent as typed.
    void aSecretOverrideIsShownMasked() {
        RunDialog dialog(m_client, describe("single"));
        dialog.show();
        dialog.overridesModel()->addArgument("--db-password", "hunter2");
        dialog.overridesModel()->addArgument("--auth", "token=swordfish");
        const QString shown = child<QPlainTextEdit>(&dialog, "effectiveArguments")->toPlainText();
        QCOMPARE(shown, QStringLiteral("--date\n2024-01-01\n--mode=full\ninput.csv\n--db-password\n****\n"
                                       "--auth\ntoken=****"));
        const std::vector<std::string> sent = dialog.effectiveArguments();
        QCOMPARE(sent.at(5), std::string("hunter2"));
        QCOMPARE(sent.at(7), std::string("token=swordfish"));

        QVERIFY(makeIdle("single"));
        QSignalSpy started(&dialog, &RunDialog::runStarted);
        child<QPushButton>(&dialog, "runButton")->click();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 30000);
        const auto described = awaitReply(m_client->describeJobRun(started[0][1].toString(), "single"));
        QVERIFY(described);
        QStringList describedLines;
        for (const std::string& argument : described->arguments)
            describedLines << QString::fromStdString(argument);
        QCOMPARE(describedLines.join(QLatin1Char('\n')), shown);
        QVERIFY(makeIdle("single"));
    }

    // The keyboard alone: Insert adds an argument with its name being edited, Tab goes to its override,
    // Delete removes it again; Alt+A is Add argument.
    void overridesByKeyboard() {
        RunDialog dialog(m_client, describe("single"));
        QVERIFY(showActive(dialog));
        auto* view = child<QTableView>(&dialog, "overridesView");
        QAbstractItemModel* model = view->model();
        view->setFocus();
        view->setCurrentIndex(model->index(0, ArgumentOverridesModel::Name));
        QTest::keyClick(view, Qt::Key_Insert);
        QCOMPARE(model->rowCount(), 4);
        QWidget* nameEditor = QApplication::focusWidget();
        QVERIFY(nameEditor && nameEditor != view);
        QTest::keyClick(nameEditor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(nameEditor, QStringLiteral("--region"));
        QTest::keyClick(nameEditor, Qt::Key_Tab);
        // Named, the new argument is in view in the box of effective arguments (below its first lines),
        // although it was refused while its name was "--".
        auto* effective = child<QPlainTextEdit>(&dialog, "effectiveArguments");
        QCOMPARE(effective->textCursor().block().text(), QStringLiteral("--region"));
        QVERIFY(effective->viewport()->rect().contains(effective->cursorRect()));
        QWidget* valueEditor = QApplication::focusWidget();
        QVERIFY(valueEditor && valueEditor != view && valueEditor != nameEditor);
        QCOMPARE(view->currentIndex(), model->index(3, ArgumentOverridesModel::Override));
        QTest::keyClicks(valueEditor, QStringLiteral("eu-west-1"));
        QTest::keyClick(valueEditor, Qt::Key_Return);
        // The delegate commits on Return on the next turn of the event loop.
        QTRY_COMPARE(model->index(3, ArgumentOverridesModel::Override).data().toString(),
                     QStringLiteral("eu-west-1"));
        QCOMPARE(model->index(3, ArgumentOverridesModel::Name).data().toString(), QStringLiteral("--region"));
        QVERIFY2(child<QPlainTextEdit>(&dialog, "effectiveArguments")
                     ->toPlainText()
                     .endsWith(QStringLiteral("--region\neu-west-1")),
                 qPrintable(child<QPlainTextEdit>(&dialog, "effectiveArguments")->toPlainText()));
        QCOMPARE(effective->textCursor().block().text(), QStringLiteral("eu-west-1")); // the last change
        QCOMPARE(effective->textCursor().block().previous().text(), QStringLiteral("--region"));
        QVERIFY(effective->viewport()->rect().contains(effective->cursorRect()));
        view->setFocus();
        view->selectRow(3);
        QTest::keyClick(view, Qt::Key_Delete);
        QCOMPARE(model->rowCount(), 3);
        // Alt+letter (the offscreen platform has no mnemonics: their letters are checked here, and the keys
        // were tried under Xvfb): Add argument and Remove override have one each, and no two buttons share
        // one.
        QCOMPARE(child<QPushButton>(&dialog, "addArgumentButton")->text(), QStringLiteral("&Add argument"));
        QCOMPARE(child<QPushButton>(&dialog, "removeArgumentButton")->text(),
                 QStringLiteral("&Remove override"));
        QSet<QChar> letters;
        for (const QAbstractButton* button : dialog.findChildren<QAbstractButton*>()) {
            const qsizetype amp = button->text().indexOf(QLatin1Char('&'));
            if (amp < 0 || amp + 1 >= button->text().size())
                continue;
            const QChar letter = button->text().at(amp + 1).toLower();
            QVERIFY2(!letters.contains(letter), qPrintable(button->text()));
            letters.insert(letter);
        }
    }

    // Typing on a Job argument's row overrides it: the dialog opens with the overrides table focused on
    // the first override, and moving up and down its rows keeps the cursor in the Override column,
    // whichever column the rows were entered on (the argument's name and the Job's value are read-only).
    void typingOnARowOverridesIt() {
        RunDialog dialog(m_client, describe("single"));
        QVERIFY(showActive(dialog));
        auto* view = child<QTableView>(&dialog, "overridesView");
        QAbstractItemModel* model = view->model();
        QTRY_COMPARE(QApplication::focusWidget(), view);
        QCOMPARE(view->currentIndex(), model->index(0, ArgumentOverridesModel::Override)); // --date
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex(), model->index(1, ArgumentOverridesModel::Override)); // --mode
        QTest::keyClick(view, Qt::Key_D);
        QWidget* editor = QApplication::focusWidget();
        QVERIFY(editor && editor != view);
        QTest::keyClicks(editor, QStringLiteral("elta"));
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(model->index(1, ArgumentOverridesModel::Override).data().toString(),
                     QStringLiteral("delta"));
        // From the Job's value column too.
        view->setCurrentIndex(model->index(1, ArgumentOverridesModel::JobValue));
        QTest::keyClick(view, Qt::Key_Up);
        QCOMPARE(view->currentIndex(), model->index(0, ArgumentOverridesModel::Override));
    }

    // Closed (here: deleted, as when the console quits) while an override is being edited: the edit is
    // committed as the dialog hides, after the dialog's own members are gone.
    void destroyedWhileAnOverrideIsEdited() {
        auto* dialog = new RunDialog(m_client, describe("single"));
        QVERIFY(showActive(*dialog));
        auto* view = child<QTableView>(dialog, "overridesView");
        const QModelIndex index = view->model()->index(0, ArgumentOverridesModel::Override);
        view->setCurrentIndex(index);
        view->edit(index);
        QWidget* editor = QApplication::focusWidget();
        QVERIFY(editor && editor != view);
        QTest::keyClicks(editor, QStringLiteral("2030-01-01"));
        delete dialog; // crashed in recompute() before
    }

    void configurationsAreReadOnlyAndExplained() {
        RunDialog dialog(m_client, describe("single"));
        auto* configs = child<QTableWidget>(&dialog, "configurationsView");
        QVERIFY(configs);
        QCOMPARE(configs->editTriggers(), QAbstractItemView::NoEditTriggers);
        QCOMPARE(configs->rowCount(), 2);
        // As tall as its two rows, so the overrides above get the height.
        QVERIFY2(configs->maximumHeight() < 130, qPrintable(QString::number(configs->maximumHeight())));
        QVERIFY(configs->maximumHeight() >= configs->horizontalHeader()->sizeHint().height() +
                                                configs->rowHeight(0) + configs->rowHeight(1));
        QCOMPARE(configs->item(0, 1)->text(), QStringLiteral("spark.sql.shuffle.partitions"));
        QCOMPARE(configs->item(0, 2)->text(), QStringLiteral("4"));
        QCOMPARE(configs->item(1, 0)->text(), QStringLiteral("Hudi"));
        QCOMPARE(configs->item(1, 1)->text(), QStringLiteral("hoodie.upsert.shuffle.parallelism"));
        // core's reason, as DESCRIBE JOB's hudiConfigsStatusReasons gives it: which entry allows it.
        QVERIFY2(configs->item(1, 3)->text().startsWith(
                     "Applied: allowed by the project's allow-list entry 'hoodie.upsert.' (a family)"),
                 qPrintable(configs->item(1, 3)->text()));
        const QString note = child<QLabel>(&dialog, "configurationsNote")->text();
        QVERIFY2(note.contains("belong to the Job and apply to every run"), qPrintable(note));
        QVERIFY2(note.contains("ALTER JOB single"), qPrintable(note));
        QVERIFY2(note.contains("Edit"), qPrintable(note));
    }

    void overrideOfConfIsRefusedInline() {
        RunDialog dialog(m_client, describe("single"));
        dialog.show();
        dialog.overridesModel()->addArgument("--conf", "spark.sql.shuffle.partitions=64");
        const QString expected =
            QStringLiteral("Argument override --conf is not allowed: a run cannot change Spark "
                           "or Hudi configurations; change the Job instead.");
        auto* error = child<QLabel>(&dialog, "overrideError");
        QVERIFY(error->isVisible());
        QCOMPARE(error->text(), expected);
        QVERIFY(!child<QPushButton>(&dialog, "runButton")->isEnabled());
        QVERIFY(dialog.effectiveArguments().empty());
        QVERIFY(child<QLabel>(&dialog, "runBlockedReason")->isVisible());
        // The service refuses it with the same words.
        QVERIFY(makeIdle("single"));
        QString serviceError;
        QVERIFY(!awaitReply(m_client->runJob("single", {{"--conf", "spark.sql.shuffle.partitions=64"}}),
                            &serviceError));
        QCOMPARE(serviceError, expected);
        // Removing the override enables Run again.
        QVERIFY(dialog.overridesModel()->removeOverride(3));
        QVERIFY(!error->isVisible());
        QVERIFY(child<QPushButton>(&dialog, "runButton")->isEnabled());

        // Other refusals shown as core words them.
        dialog.overridesModel()->addArgument("--date", "x"); // the Job has --date: given twice with row 0
        dialog.overridesModel()->setOverride("--date", "y");
        QCOMPARE(error->text(),
                 QStringLiteral("Argument override --date is given 2 times; give each argument once."));
        QVERIFY(!child<QPushButton>(&dialog, "runButton")->isEnabled());
    }

    void keyIsRequiredAboveOneAndSuggested() {
        RunDialog dialog(m_client, describe("multi"));
        dialog.show();
        QVERIFY(dialog.isKeyRequired());
        auto* key = child<QLineEdit>(&dialog, "idempotencyKeyEdit");
        auto* run = child<QPushButton>(&dialog, "runButton");
        auto* blocked = child<QLabel>(&dialog, "runBlockedReason");
        const QString today = QDateTime::currentDateTimeUtc().date().toString(QStringLiteral("yyyyMMdd"));
        // One key per run attempt: the job, the time and a random part.
        QVERIFY2(key->text().startsWith(QStringLiteral("multi-") + today + QLatin1Char('-')),
                 qPrintable(key->text()));
        QVERIFY(run->isEnabled());
        const QString explanation = child<QLabel>(&dialog, "idempotencyKeyNote")->text();
        QVERIFY2(explanation.contains("Required: this Job allows 2 concurrent runs"),
                 qPrintable(explanation));
        QVERIFY2(explanation.contains("returns its run id"), qPrintable(explanation));

        key->clear();
        QVERIFY(!run->isEnabled());
        QVERIFY(blocked->isVisible());
        QCOMPARE(blocked->text(),
                 QStringLiteral("Run is disabled: an Idempotency-Key is required because this Job "
                                "allows 2 concurrent runs."));
        QTest::keyClicks(key, "bad key");
        QVERIFY(!run->isEnabled());
        QVERIFY2(blocked->text().contains("character 4 is a space"), qPrintable(blocked->text()));
        key->setText("good-key");
        QVERIFY(run->isEnabled());
        QVERIFY(!blocked->isVisible());

        // At a limit of 1 the key is optional.
        RunDialog single(m_client, describe("single"));
        QVERIFY(!single.isKeyRequired());
        child<QLineEdit>(&single, "idempotencyKeyEdit")->clear();
        QVERIFY(child<QPushButton>(&single, "runButton")->isEnabled());
    }

    void refusalsAreShownToTheLetter() {
        const SparkJob job = describe("multi");
        RunDialog dialog(m_client, job);
        dialog.show();
        auto* result = child<QLabel>(&dialog, "resultLabel");
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        const auto submitWithKey = [&](const QString& key) {
            dialog.setIdempotencyKey(key);
            const int before = static_cast<int>(finished.count());
            dialog.submit();
            QVERIFY(dialog.isSubmitting());
            QVERIFY(!child<QPushButton>(&dialog, "runButton")->isEnabled());
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), before + 1, 30000);
        };
        submitWithKey("multi-a");
        const QString first = dialog.lastRunId();
        QVERIFY(!first.isEmpty());
        QCOMPARE(result->text(), QStringLiteral("Started run %1 (key multi-a).").arg(first));
        submitWithKey("multi-b");
        QVERIFY(!dialog.lastRunId().isEmpty() && dialog.lastRunId() != first);

        // At the limit.
        submitWithKey("multi-c");
        const QString atLimit = QStringLiteral("Spark Job %1 already has 2 active run(s) (max 2)")
                                    .arg(QString::fromStdString(job.jobId));
        QCOMPARE(dialog.lastError(), atLimit);
        // Shown with the job's name beside its id.
        QCOMPARE(result->text(), QStringLiteral("Spark Job %1 ('multi') already has 2 active run(s) (max 2)")
                                     .arg(QString::fromStdString(job.jobId)));
        QVERIFY(child<QPushButton>(&dialog, "runButton")->isEnabled());

        // A retry with the first key returns its run, even at the limit.
        submitWithKey("multi-a");
        QCOMPARE(dialog.lastError(), QString());
        const QString retried = finished.last().at(0).toBool() ? dialog.lastRunId() : QString();
        QCOMPARE(retried, first);

        // The same key with other arguments.
        dialog.overridesModel()->setOverride("--sleep", "31");
        submitWithKey("multi-a");
        QCOMPARE(dialog.lastError(),
                 QStringLiteral("Idempotency key multi-a was already used with different arguments."));
        QCOMPARE(result->text(), dialog.lastError());

        const QString path = artifactsDir() + QStringLiteral("/run-dialog.png");
        QVERIFY2(dialog.grab().save(path), qPrintable(path));
        QVERIFY(QFileInfo(path).size() > 0);
        QVERIFY(makeIdle("multi"));
    }

    void emptyKeyAtLimitOneIsGeneratedAndKeptForRetry() {
        QVERIFY(makeIdle("single"));
        RunDialog dialog(m_client, describe("single"));
        dialog.setIdempotencyKey({});
        QSignalSpy finished(&dialog, &RunDialog::submitFinished);
        dialog.submit();
        const QString key = dialog.idempotencyKey();
        QVERIFY(!key.isEmpty()); // a retry sends this one again
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished[0][0].toBool());
        const auto run = awaitReply(m_client->describeJobRun(dialog.lastRunId(), "single"));
        QVERIFY(run);
        QCOMPARE(QString::fromStdString(run->idempotencyKey.value_or("")), key);
        QVERIFY(makeIdle("single"));
    }
};

JOBDECK_TEST_MAIN(TestRunDialog)
#include "tst_rundialog.moc"
