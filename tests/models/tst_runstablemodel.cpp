// RunsTableModel (the monitor's runs) and ArgumentOverridesModel (the run dialog's overrides), each under
// QAbstractItemModelTester: in-place updates in one batch, cancel requested, ticking elapsed, pruning.
#include "core/parameters/ArgumentOverrides.h"
#include "core/policy/RunEndMessages.h"
#include "models/ArgumentOverridesModel.h"
#include "models/ModelExporter.h"
#include "models/RunsTableModel.h"
#include "models/RunsViewProxy.h"
#include "tests/runner/SuiteRegistry.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

const TimePoint t0 = *parseTimestamp("2026-11-30T05:00:00.000Z");

SparkJobRun makeRun(const std::string& id, JobRunStatus status, int queuedSecond = 0,
                    const std::string& job = "j") {
    SparkJobRun run;
    run.jobRunId = id;
    run.jobName = job;
    run.status = status;
    run.queuedAt = t0 + std::chrono::seconds(queuedSecond);
    if (status != JobRunStatus::Queued)
        run.startedAt = run.queuedAt + 2s;
    if (!isActive(status))
        run.endedAt = *run.startedAt + 10s;
    if (status == JobRunStatus::Queued)
        run.queueReason = "Cluster c is at its capacity of 1 driver";
    return run;
}

} // namespace

class TestRunsTableModel final : public QObject {
    Q_OBJECT
private slots:
    void columnsAndRoles() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SparkJobRun run = makeRun("r1", JobRunStatus::Queued);
        run.idempotencyKey = "j-2026-11-30";
        run.argumentOverrides = {{"--date", "2026-11-30"}, {"--mode", "full"}};
        model.setRuns({run});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(RunsTableModel::ColumnCount));
        const auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model.index(0, column).data(role);
        };
        QCOMPARE(cell(RunsTableModel::Status).toString(), QStringLiteral("Queued"));
        QCOMPARE(cell(RunsTableModel::Status, RunsTableModel::RawDataRole).toInt(),
                 int(JobRunStatus::Queued));
        QCOMPARE(cell(RunsTableModel::Status, Qt::DecorationRole).value<QColor>(),
                 RunsTableModel::statusColor(JobRunStatus::Queued));
        QCOMPARE(cell(RunsTableModel::RunId).toString(), QStringLiteral("r1"));
        QCOMPARE(cell(RunsTableModel::IdempotencyKey).toString(), QStringLiteral("j-2026-11-30"));
        QCOMPARE(cell(RunsTableModel::Overrides).toString(),
                 QStringLiteral("--date 2026-11-30, --mode full"));
        const QVariantList overrides = cell(RunsTableModel::Overrides, RunsTableModel::RawDataRole).toList();
        QCOMPARE(overrides.size(), 2);
        QCOMPARE(overrides[1].toMap().value("value").toString(), QStringLiteral("full"));
        QCOMPARE(cell(RunsTableModel::Detail).toString(),
                 QStringLiteral("Cluster c is at its capacity of 1 driver"));
        QCOMPARE(cell(RunsTableModel::Queued, RunsTableModel::RawDataRole).toDateTime(),
                 QDateTime::fromString("2026-11-30T05:00:00Z", Qt::ISODate));
        QVERIFY(cell(RunsTableModel::Started, RunsTableModel::RawDataRole).toDateTime().isNull());
        // Local time on screen; UTC in the tooltip and in exports.
        QCOMPARE(cell(RunsTableModel::Queued).toString(),
                 QDateTime::fromString("2026-11-30T05:00:00Z", Qt::ISODate)
                     .toLocalTime()
                     .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QCOMPARE(cell(RunsTableModel::Queued, Qt::ToolTipRole).toString(),
                 QStringLiteral("2026-11-30T05:00:00.000Z"));
        QCOMPARE(cell(RunsTableModel::Queued, ModelExporter::ExportRole).toString(),
                 QStringLiteral("2026-11-30T05:00:00.000Z"));
        QVERIFY(!cell(RunsTableModel::Started, Qt::ToolTipRole).isValid());
        QVERIFY(cell(0, RunsTableModel::ActiveRole).toBool());
        QCOMPARE(model.headerData(RunsTableModel::Elapsed, Qt::Horizontal).toString(),
                 QStringLiteral("Elapsed"));

        model.upsertRun(makeRun("r1", JobRunStatus::Failed));
        QVERIFY(!cell(0, RunsTableModel::ActiveRole).toBool());
        QCOMPARE(cell(RunsTableModel::Detail).toString(), QString()); // no message, no exit code
    }

    void elapsedTicksForActiveRunsOnly() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({makeRun("done", JobRunStatus::Completed), makeRun("running", JobRunStatus::Running, 5),
                       makeRun("done2", JobRunStatus::Canceled)});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setNow(t0 + 67s);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex(), model.index(1, RunsTableModel::Elapsed));
        QCOMPARE(changed[0][1].toModelIndex(), model.index(1, RunsTableModel::Elapsed));
        QCOMPARE(model.index(1, RunsTableModel::Elapsed).data().toString(),
                 QStringLiteral("1:00")); // started at 7s
        QCOMPARE(model.index(1, RunsTableModel::Elapsed).data(RunsTableModel::RawDataRole).toLongLong(),
                 60000);
        QCOMPARE(model.index(0, RunsTableModel::Elapsed).data().toString(),
                 QStringLiteral("0:10")); // ended: fixed
        QCOMPARE(RunsTableModel::formatElapsed(3'909'000), QStringLiteral("1:05:09"));
        QCOMPARE(RunsTableModel::formatElapsed(-5), QStringLiteral("0:00"));
    }

    void batchUpdateIsOneDataChangedAndOneInsert() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<SparkJobRun> runs;
        for (int i = 0; i < 1000; ++i)
            runs.push_back(makeRun("r" + std::to_string(i), JobRunStatus::Queued, i));
        model.setRuns(runs);
        QCOMPARE(model.activeCount(), 1000);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        std::vector<SparkJobRun> batch;
        for (int i = 0; i < 1000; ++i)
            batch.push_back(
                makeRun("r" + std::to_string(i), i % 2 ? JobRunStatus::Running : JobRunStatus::Completed, i));
        batch.push_back(makeRun("new1", JobRunStatus::Queued, 2000));
        batch.push_back(makeRun("new2", JobRunStatus::Queued, 2001));
        model.upsertRuns(batch);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed[0][0].toModelIndex().row(), 0);
        QCOMPARE(changed[0][1].toModelIndex().row(), 999);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted[0][1].toInt(), 1000);
        QCOMPARE(inserted[0][2].toInt(), 1001);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.rowCount(), 1002);
        QCOMPARE(model.activeCount(), 502);
        QCOMPARE(model.run(model.rowOf("r3")).status, JobRunStatus::Running);
        QCOMPARE(model.rowOf("missing"), -1);
    }

    void cancelRequestedUntilFinal() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({makeRun("a", JobRunStatus::Running), makeRun("b", JobRunStatus::Completed)});
        QVERIFY(!model.markCancelRequested("b")); // already final
        QVERIFY(!model.markCancelRequested("zzz"));
        QVERIFY(model.markCancelRequested("a"));
        QCOMPARE(model.index(0, RunsTableModel::Status).data().toString(),
                 QStringLiteral("Running, cancel requested"));
        QCOMPARE(model.index(0, RunsTableModel::Detail).data().toString(),
                 QStringLiteral("Cancel requested"));
        model.upsertRun(makeRun("a", JobRunStatus::Running)); // still running: still requested
        QVERIFY(model.isCancelRequested("a"));
        SparkJobRun canceled = makeRun("a", JobRunStatus::Canceled);
        canceled.message = "Canceled by request";
        model.upsertRun(canceled);
        QVERIFY(!model.isCancelRequested("a"));
        QCOMPARE(model.index(0, RunsTableModel::Status).data().toString(), QStringLiteral("Canceled"));
        QCOMPARE(model.index(0, RunsTableModel::Detail).data().toString(),
                 QStringLiteral("Canceled by request"));
    }

    void pruneKeepsActiveAndNewestFinished() {
        RunsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRuns({makeRun("f1", JobRunStatus::Completed, 1), makeRun("a1", JobRunStatus::Running, 2),
                       makeRun("f2", JobRunStatus::Failed, 3), makeRun("f3", JobRunStatus::Completed, 4),
                       makeRun("f0", JobRunStatus::Completed, 0)});
        model.pruneFinished(2);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.rowOf("a1") >= 0);
        QVERIFY(model.rowOf("f2") >= 0);
        QVERIFY(model.rowOf("f3") >= 0);
        QCOMPARE(model.rowOf("f0"), -1);
        model.removeRun("a1");
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.activeCount(), 0);
        QCOMPARE(model.run(model.rowOf("f3")).jobRunId, std::string("f3")); // index rebuilt
    }

    // The runs view: active runs first (oldest queued on top), then finished ones newest end first, with
    // their exit code; hiding finished ones and a run ending move rows without breaking the proxy.
    void runsViewKeepsFinishedRunsAfterTheActiveOnes() {
        RunsTableModel model;
        RunsViewProxy view;
        view.setSourceModel(&model);
        QAbstractItemModelTester tester(&view, QAbstractItemModelTester::FailureReportingMode::QtTest);
        SparkJobRun failed = makeRun("failed", JobRunStatus::Failed, 0);
        failed.exitCode = 3;
        failed.message = "The driver exited with code 3";
        SparkJobRun completed = makeRun("completed", JobRunStatus::Completed, 5);
        completed.exitCode = 0;
        model.setRuns({failed, completed, makeRun("running", JobRunStatus::Running, 8),
                       makeRun("queued", JobRunStatus::Queued, 3)});
        const auto ids = [&] {
            QStringList order;
            for (int row = 0; row < view.rowCount(); ++row)
                order << view.index(row, RunsTableModel::RunId).data().toString();
            return order;
        };
        QCOMPARE(ids(), (QStringList{"queued", "running", "completed", "failed"}));
        QCOMPARE(view.index(3, RunsTableModel::ExitCode).data().toString(), QStringLiteral("3"));
        QCOMPARE(view.index(2, RunsTableModel::ExitCode).data().toString(), QStringLiteral("0"));
        QCOMPARE(view.index(0, RunsTableModel::ExitCode).data().toString(), QString());
        QCOMPARE(model.headerData(RunsTableModel::ExitCode, Qt::Horizontal).toString(),
                 QStringLiteral("Exit code"));

        view.setShowFinished(false);
        QCOMPARE(ids(), (QStringList{"queued", "running"}));
        view.setShowFinished(true);
        // The running run ends (before the others did): it moves among the finished, by its end.
        SparkJobRun ended = makeRun("running", JobRunStatus::Canceled, 8);
        ended.endedAt = t0 + 11s;
        model.upsertRun(ended);
        QCOMPARE(ids(), (QStringList{"queued", "completed", "failed", "running"}));
    }

    void activeCountPerJob() {
        RunsTableModel model;
        model.setRuns({makeRun("a", JobRunStatus::Running, 0, "x"),
                       makeRun("b", JobRunStatus::Queued, 0, "y"), makeRun("c", JobRunStatus::Queued, 0, "x"),
                       makeRun("d", JobRunStatus::Failed, 0, "x")});
        QCOMPARE(model.activeCount("x"), 2);
        QCOMPARE(model.activeCount("y"), 1);
        QCOMPARE(model.activeCount(), 3);
    }

    // Only a queued run still giving its admission's reason is read again.
    void aQueuedRunWithItsAdmissionsReasonAwaitsTheScheduler() {
        RunsTableModel model;
        SparkJobRun admitted = makeRun("a", JobRunStatus::Queued);
        admitted.queueReason = waitingForSchedulerReason();
        SparkJobRun running = makeRun("c", JobRunStatus::Running);
        running.queueReason = waitingForSchedulerReason(); // a stale field is not the question
        model.setRuns({admitted, makeRun("b", JobRunStatus::Queued), running});
        QVERIFY(model.awaitsTheScheduler(model.rowOf("a")));
        QVERIFY(!model.awaitsTheScheduler(model.rowOf("b"))); // waiting for a driver slot
        QVERIFY(!model.awaitsTheScheduler(model.rowOf("c")));
    }

    void overridesModelRowsAndEffectiveArguments() {
        ArgumentOverridesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy changed(&model, &ArgumentOverridesModel::overridesChanged);
        const std::vector<std::string> jobArgs{"--date", "2024-01-01", "--mode=full", "input.csv",
                                               "--verbose"};
        model.setJobArguments(jobArgs);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(0, ArgumentOverridesModel::Name).data().toString(), QStringLiteral("--date"));
        QCOMPARE(model.index(0, ArgumentOverridesModel::JobValue).data().toString(),
                 QStringLiteral("2024-01-01"));
        QCOMPARE(model.index(1, ArgumentOverridesModel::JobValue).data().toString(), QStringLiteral("full"));
        QCOMPARE(model.index(2, ArgumentOverridesModel::Name).data().toString(),
                 QStringLiteral("(positional)"));
        QVERIFY(!(model.flags(model.index(2, ArgumentOverridesModel::Override)) & Qt::ItemIsEditable));
        QVERIFY(!(model.flags(model.index(0, ArgumentOverridesModel::Name)) & Qt::ItemIsEditable));
        QVERIFY(model.flags(model.index(0, ArgumentOverridesModel::Override)) & Qt::ItemIsEditable);
        QVERIFY(model.index(3, ArgumentOverridesModel::JobValue)
                    .data(ArgumentOverridesModel::RawDataRole)
                    .isNull());
        QVERIFY(model.overrides().empty());

        QVERIFY(model.setData(model.index(1, ArgumentOverridesModel::Override), "incr"));
        const int added = model.addArgument("--region", "eu");
        QCOMPARE(added, 4);
        QVERIFY(!model.index(added, 0).data(ArgumentOverridesModel::FromJobRole).toBool());
        QVERIFY(model.flags(model.index(added, ArgumentOverridesModel::Name)) & Qt::ItemIsEditable);
        model.setOverride("--date", "2026-11-30");
        const std::vector<std::pair<std::string, std::string>> expected{
            {"--date", "2026-11-30"}, {"--mode", "incr"}, {"--region", "eu"}};
        QCOMPARE(model.overrides(), expected);
        const auto result = applyArgumentOverrides(jobArgs, model.overrides());
        const std::vector<std::string> effective{"--date",    "2026-11-30", "--mode=incr", "input.csv",
                                                 "--verbose", "--region",   "eu"};
        QCOMPARE(result.effective, effective);
        QVERIFY(changed.count() >= 4);

        QVERIFY(model.removeOverride(1)); // clears the Job row's override
        QCOMPARE(model.rowCount(), 5);
        QVERIFY(model.removeOverride(added)); // removes the added row
        QCOMPARE(model.rowCount(), 4);
        QVERIFY(!model.removeOverride(2));
        QVERIFY(!model.removeOverride(42));
        QCOMPARE(model.overrides().size(), std::size_t{1});
        model.addArgument("", "value-without-name"); // kept so the refusal can say what is wrong
        QCOMPARE(model.overrides().back(), (std::pair<std::string, std::string>{"", "value-without-name"}));
        model.addArgument(); // an empty new row does not count
        QCOMPARE(model.overrides().size(), std::size_t{2});
        QVERIFY(!model.setData(model.index(0, ArgumentOverridesModel::JobValue), "x"));

        // A secret override is shown as DESCRIBE JOB_RUN will show it, and edited as typed.
        const int secret = model.addArgument("--db-password", "Hunter2");
        const int url = model.addArgument("--url", "jdbc:postgresql://h/db?password=Hunter3");
        const QModelIndex secretValue = model.index(secret, ArgumentOverridesModel::Override);
        QCOMPARE(secretValue.data().toString(), QStringLiteral("****"));
        QCOMPARE(secretValue.data(Qt::EditRole).toString(), QStringLiteral("Hunter2"));
        QCOMPARE(model.index(url, ArgumentOverridesModel::Override).data().toString(),
                 QStringLiteral("jdbc:postgresql://h/db?password=****"));
        QSignalSpy shown(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(model.index(secret, ArgumentOverridesModel::Name), "--db-user"));
        QVERIFY(!shown.isEmpty()); // the value's cell too: it is no longer a secret
        QCOMPARE(secretValue.data().toString(), QStringLiteral("Hunter2"));
        QCOMPARE(model.overrides().back().second, std::string("jdbc:postgresql://h/db?password=Hunter3"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunsTableModel)
#include "tst_runstablemodel.moc"
