// The admin views' models: the allow-list being edited, the audit log with its filter, the clusters with
// their usage. Each under QAbstractItemModelTester.
#include "core/policy/ProjectSettingsChange.h"
#include "models/AllowlistModel.h"
#include "models/AuditLogModel.h"
#include "models/ClustersModel.h"
#include "tests/runner/SuiteRegistry.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;

namespace {

AuditEntry entry(std::int64_t seq, std::string statement, ApiOperationStatus outcome,
                 std::string role = "admin", std::optional<std::string> error = std::nullopt) {
    AuditEntry e;
    e.seq = seq;
    e.at = *parseTimestamp("2026-11-30T05:00:00Z") + std::chrono::minutes(seq);
    e.keyId = "key-" + role;
    e.role = std::move(role);
    e.statement = std::move(statement);
    e.outcome = outcome;
    e.errorMessage = std::move(error);
    return e;
}

SparkJobRun run(std::string job, JobRunStatus status) {
    SparkJobRun r;
    r.jobRunId = job + std::to_string(int(status));
    r.jobName = std::move(job);
    r.status = status;
    return r;
}

Cluster cluster(std::string name, int maxOcu) {
    Cluster c;
    c.name = std::move(name);
    c.maxOcu = maxOcu;
    c.minOcu = 0;
    c.sparkConfigs = {{"spark.executor.memory", "2g"}};
    c.hudiConfigs = {{"hoodie.upsert.shuffle.parallelism", "8"}};
    return c;
}

} // namespace

class TestAdminModels final : public QObject {
    Q_OBJECT

private slots:
    void allowlistEditsAreCheckedByCore() {
        AllowlistModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setStored({"hoodie.datasource.", "hoodie.x"});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, AllowlistModel::Kind).data().toString(),
                 QStringLiteral("family: every key under it"));
        QCOMPARE(model.index(1, AllowlistModel::Kind).data().toString(), QStringLiteral("exact key"));
        // core's note beside an entry that grants less than it seems to; none beside one that does not.
        QVERIFY(!model.addEntry("hoodie.metadata.enabled"));
        QCOMPARE(model.index(model.rowOf("hoodie.metadata.enabled"), AllowlistModel::Note).data().toString(),
                 QString::fromStdString(allowlistEntryNote("hoodie.metadata.enabled")->text));
        QVERIFY(model.noteOf("hoodie.datasource.").isEmpty());
        QCOMPARE(model.replacementOf("hoodie.metadata.enabled").value_or(""),
                 std::string("hoodie.metadata.enable"));
        QVERIFY(!model.replacementOf("hoodie.datasource."));
        QVERIFY(model.replaceAddedEntry("hoodie.datasource.")); // stored, not added: refused with a reason
        const QModelIndex noted = model.index(model.rowOf("hoodie.metadata.enabled"), AllowlistModel::Entry);
        QVERIFY(noted.data(Qt::DecorationRole).isValid()); // marked where a narrow dock still shows it
        QVERIFY(noted.data(Qt::ToolTipRole).toString().endsWith(model.noteOf("hoodie.metadata.enabled")));
        QVERIFY(!model.index(0, AllowlistModel::Entry).data(Qt::DecorationRole).isValid());
        QCOMPARE(model.headerData(AllowlistModel::Note, Qt::Horizontal).toString(), QStringLiteral("Note"));
        model.removeEntry(model.rowOf("hoodie.metadata.enabled"));
        QCOMPARE(model.rowCount(), 2);
        // Reserved and malformed entries are refused with core's message, nothing added.
        QCOMPARE(
            model.addEntry("hoodie.write.lock.provider").value_or(""),
            QStringLiteral("Allow-list entry 'hoodie.write.lock.provider' is a reserved Hudi config: the "
                           "platform manages it, so it is never granted."));
        QVERIFY(
            model.addEntry("hoodie.metrics.x.")->contains("inside the reserved family 'hoodie.metrics.*'"));
        QVERIFY(model.addEntry("spark.x")->contains("is not a Hudi config"));
        QVERIFY(model.addEntry("hoodie.x")->contains("already on the allow-list"));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.hasChanges());

        QVERIFY(!model.addEntry(" hoodie.write. "));
        model.removeEntry(model.rowOf("hoodie.x"));
        QCOMPARE(model.rowCount(), 3); // a stored entry stays, marked
        QCOMPARE(model.index(model.rowOf("hoodie.x"), AllowlistModel::Change).data().toString(),
                 QStringLiteral("to remove"));
        QCOMPARE(model.edited(), (std::vector<std::string>{"hoodie.datasource.", "hoodie.write."}));
        QVERIFY(model.hasChanges());
        model.setProblem("hoodie.write.", QStringLiteral("refused"));
        QCOMPARE(model.index(model.rowOf("hoodie.write."), AllowlistModel::Problem).data().toString(),
                 QStringLiteral("refused"));
        // Undo: adding back a removed entry, removing an added one.
        QVERIFY(!model.addEntry("hoodie.x"));
        model.removeEntry(model.rowOf("hoodie.write."));
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.hasChanges());
    }

    void auditMergesBySeqAndFiltersWithCore() {
        AuditLogModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        AuditFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(
            model.merge({entry(2, "CREATE JOB a TYPE = 'JAR' PARAMETERS = ('a.jar') CLUSTER = 'c'",
                               ApiOperationStatus::Success, "operator"),
                         entry(1, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED", ApiOperationStatus::Success)}),
            2);
        QCOMPARE(model.merge(
                     {entry(2, "again", ApiOperationStatus::Success),
                      entry(3, "DELETE CLUSTER c", ApiOperationStatus::Failed, "operator",
                            "Cluster c is used by Job a; delete them or move them to another cluster first"),
                      entry(4, "bogus statement here", ApiOperationStatus::Invalid, "viewer")}),
                 2);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.index(0, AuditLogModel::Time).data(AuditLogModel::SeqRole).toLongLong(), 4);
        QCOMPARE(model.index(0, AuditLogModel::Kind).data().toString(), QStringLiteral("BOGUS STATEMENT"));
        QCOMPARE(model.index(1, AuditLogModel::Kind).data().toString(), QStringLiteral("DELETE CLUSTER"));
        QCOMPARE(model.index(1, AuditLogModel::Target).data().toString(), QStringLiteral("c"));
        QCOMPARE(model.index(1, AuditLogModel::Outcome).data().toString(), QStringLiteral("FAILED"));
        QCOMPARE(model.index(3, AuditLogModel::Target).data().toString(), QStringLiteral("project"));
        QCOMPARE(model.index(2, AuditLogModel::Key).data().toString(), QStringLiteral("key-operator"));

        AuditFilter filter;
        filter.kind = "CREATE JOB";
        proxy.setFilter(filter);
        QCOMPARE(proxy.rowCount(), 1);
        filter = {};
        filter.outcome = ApiOperationStatus::Success;
        proxy.setFilter(filter);
        QCOMPARE(proxy.rowCount(), 2);
        filter = {};
        filter.text = "USED BY job a"; // case-insensitive, error messages included
        proxy.setFilter(filter);
        QCOMPARE(proxy.rowCount(), 1);
        filter = {};
        filter.from = *parseTimestamp("2026-11-30T05:02:00Z");
        filter.to = *parseTimestamp("2026-11-30T05:03:00Z");
        proxy.setFilter(filter);
        QCOMPARE(proxy.rowCount(), 2);
        QCOMPARE(model.kinds(),
                 (QStringList{"ALTER PROJECT", "BOGUS STATEMENT", "CREATE JOB", "DELETE CLUSTER"}));
    }

    void clustersCountTheirRunsAndJobs() {
        ClustersModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const std::map<std::string, std::string> jobs{{"a", "main"}, {"b", "main"}, {"c", "small"}};
        model.setState({cluster("small", 1), cluster("main", 4)}, jobs,
                       {run("a", JobRunStatus::Running), run("b", JobRunStatus::Running),
                        run("c", JobRunStatus::Running), run("c", JobRunStatus::Queued),
                        run("gone", JobRunStatus::Running)});
        QCOMPARE(model.rowCount(), 2);
        const int main = model.rowOf("main");
        QCOMPARE(main, 0); // by name
        QCOMPARE(model.index(main, ClustersModel::InUse).data().toInt(), 2);
        QCOMPARE(model.index(main, ClustersModel::Queued).data().toInt(), 0);
        QCOMPARE(model.index(main, ClustersModel::Jobs).data().toString(), QStringLiteral("a, b"));
        QCOMPARE(model.index(main, ClustersModel::SparkDefaults).data().toString(),
                 QStringLiteral("spark.executor.memory=2g"));
        QCOMPARE(model.index(model.rowOf("small"), ClustersModel::Queued).data().toInt(), 1);

        // The same clusters again: cells change in place (no reset), so the selection stays.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        model.setState({cluster("small", 1), cluster("main", 4)}, jobs, {});
        QCOMPARE(resets.count(), 0);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(model.inUse(main), 0);
        model.setState({cluster("main", 4)}, jobs, {});
        QCOMPARE(resets.count(), 1);
        QCOMPARE(model.rowCount(), 1);
    }
};

JOBDECK_TEST_MAIN(TestAdminModels)
#include "tst_adminmodels.moc"
