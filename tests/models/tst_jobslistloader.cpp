// JobsListLoader against the real jobdeckd, without a window: the full load (SHOW JOBS SUMMARY) fills
// the model, the service's events then change one row at a time without a reload, a reload replaces the
// rows with the service's list again, and a failed load says why.
#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "core/statements/StatementPrinter.h"
#include "models/JobsListLoader.h"
#include "models/JobsTableModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

constexpr int kTimeoutMs = 20000; // a hang guard for a loaded machine, not a figure

} // namespace

class TestJobsListLoader final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;

    bool run(const Statement& statement) {
        return statementSucceeds(m_service, m_admin, QString::fromStdString(printStatement(statement)));
    }
    CreateJobStatement job(const std::string& name, JobType type = JobType::Jar) {
        return {name,
                type,
                {type == JobType::Jar ? "s3://bucket/" + name + ".jar" : "s3://b/" + name + ".py"},
                "loader_cluster",
                std::nullopt};
    }
    ConnectionInfo connection() const {
        return {m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret};
    }

    // A client, its events and a loader over a model watched by QAbstractItemModelTester.
    struct Console final {
        ApiClient client;
        EventsSubscription events{&client};
        JobsTableModel model;
        QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
        JobsListLoader loader{&client, &events, &model};
        explicit Console(const ConnectionInfo& connection) {
            client.setConnection(connection);
            events.setWaitSeconds(1);
        }
    };

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("loader"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
        QVERIFY(run(CreateClusterStatement{"loader_cluster", "Spark", 2, 1, {}}));
        QVERIFY(run(CreateClusterStatement{"other_cluster", "Spark", 2, 1, {}}));
        QVERIFY(run(job("alpha")));
        QVERIFY(run(job("beta", JobType::Python)));
        QVERIFY(run(job("gamma")));
    }

    void loadsThenFollowsEvents() {
        Console console(connection());
        JobsTableModel& model = console.model;
        QSignalSpy loaded(&console.loader, &JobsListLoader::loaded);
        QSignalSpy replaced(&console.loader, &JobsListLoader::rowsReplaced);
        QSignalSpy firstRows(&console.loader, &JobsListLoader::firstRowsShown);
        console.loader.start();
        QVERIFY(loaded.wait(kTimeoutMs));
        // The first rows of an empty list may come on their own first (when their answer wins the race).
        QVERIFY(firstRows.count() <= 1);
        if (!firstRows.isEmpty())
            QCOMPARE(firstRows.front().front().toInt(), 3);
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(replaced.front().front().toInt(), 3);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.summary(model.rowOf("beta")).type, JobType::Python);
        QCOMPARE(model.summary(model.rowOf("alpha")).cluster, std::string("loader_cluster"));
        QVERIFY(console.events.isRunning());

        // Changes made elsewhere arrive through the events, one row at a time: no reload.
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QVERIFY(run(job("delta", JobType::Python)));
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf("delta") >= 0, kTimeoutMs);
        QVERIFY(run(AlterJobStatement{"alpha", std::nullopt, "other_cluster", std::nullopt}));
        QTRY_COMPARE_WITH_TIMEOUT(model.summary(model.rowOf("alpha")).cluster, std::string("other_cluster"),
                                  kTimeoutMs);
        QVERIFY(run(DeleteJobStatement{"gamma"}));
        QTRY_COMPARE_WITH_TIMEOUT(model.rowOf("gamma"), -1, kTimeoutMs);
        QCOMPARE(resets.count(), 0);
        QCOMPARE(loaded.count(), 1);

        // A reload gives the service's list again, in the model's sort; a list with rows is not
        // replaced by first rows.
        model.sort(JobsTableModel::Name, Qt::DescendingOrder);
        firstRows.clear();
        console.loader.reload();
        QVERIFY(console.loader.isLoading());
        QVERIFY(loaded.wait(kTimeoutMs));
        QVERIFY(!console.loader.isLoading());
        QCOMPARE(resets.count(), 1);
        QStringList names;
        for (int row = 0; row < model.rowCount(); ++row)
            names << QString::fromUtf8(model.name(row));
        QCOMPARE(names, (QStringList{"delta", "beta", "alpha"}));
        QCOMPARE(firstRows.count(), 0);

        // Cleaned up for the next test.
        QVERIFY(run(DeleteJobStatement{"delta"}));
        QVERIFY(run(AlterJobStatement{"alpha", std::nullopt, "loader_cluster", std::nullopt}));
        QVERIFY(run(job("gamma")));
    }

    void aNewerLoadWins() {
        // Two loads asked at once: only the second one's rows are swapped in.
        Console console(connection());
        QSignalSpy replaced(&console.loader, &JobsListLoader::rowsReplaced);
        QSignalSpy loaded(&console.loader, &JobsListLoader::loaded);
        console.loader.reload();
        console.loader.reload();
        QVERIFY(loaded.wait(kTimeoutMs));
        QTest::qWait(200); // nothing of the first load arrives later
        QCOMPARE(replaced.count(), 1);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(console.model.rowCount(), 3);
    }

    void aFailedLoadSaysWhy() {
        ConnectionInfo wrong = connection();
        wrong.apiSecret = QStringLiteral("not-the-secret");
        Console console(wrong);
        QSignalSpy failed(&console.loader, &JobsListLoader::loadFailed);
        console.loader.reload();
        QVERIFY(failed.wait(kTimeoutMs));
        QVERIFY2(!failed.front().front().toString().isEmpty(), "no reason given");
        QVERIFY(!console.loader.isLoading());
        QCOMPARE(console.model.rowCount(), 0);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestJobsListLoader)
#include "tst_jobslistloader.moc"
