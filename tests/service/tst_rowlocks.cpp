// Concurrency on PostgreSQL comes from the rows a decision reads, not from a lock of the whole database
// (docs/scale-out.md, "What each write holds"): while a session of the test holds job A's row
// `FOR UPDATE` in an open transaction, a RUN JOB of job B in the same project is admitted and answered,
// and a RUN JOB of job A waits until that transaction ends, then is admitted.
// PostgreSQL only (registered as a service-postgresql suite): each jobdeckd gets a database of its own
// on the test process's private cluster, whatever JOBDECK_TEST_BACKEND says. No duration is asserted:
// "waits" is "still PENDING after B was answered and after several polls".
// A cluster held by another replica's claim step holds up only the runs on it.
// A client's `Prefer: wait` that runs out while every statement thread waits for a locked row is still
// answered PENDING while the row is held (CONTRACT §1), and a poll of the request is answered too.
// Two changes of one row take turns; CREATEs of one name sent at once make it once and tell the others it
// exists.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "tests/support/ServiceDatabase.h"

#include <QUuid>

#include <functional>
#include <memory>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

const char* const kPending = "API_OPERATION_STATUS_PENDING";

// POST /v1/resource/ without waiting: the request id of the statement, empty when it was not taken.
QString submit(const TestService& service, const ApiCredentials& who, const QString& statement,
               const HttpHeaders& headers = {}) {
    const std::string body = nlohmann::json{{"statement", statement.toStdString()}}.dump();
    const HttpResult result = request(service.url(QStringLiteral("/v1/resource/")), "POST",
                                      QByteArray::fromStdString(body), who.headers() + headers);
    const nlohmann::json answer = result.json();
    if (result.status != 200 || !answer.is_object() || !answer.contains("requestId"))
        return {};
    return QString::fromStdString(answer["requestId"].get<std::string>());
}

// GET /v1/status/<id>: the status object (apiStatus empty when there was no answer).
nlohmann::json statusOfRequest(const TestService& service, const ApiCredentials& who, const QString& id) {
    const HttpResult result = request(service.url("/v1/status/" + id), "GET", {}, who.headers());
    const nlohmann::json answer = result.json();
    return answer.is_object() ? answer : nlohmann::json::object();
}

// Opens a transaction on `holder` that holds the job's row FOR UPDATE until it ends.
bool holdJobRow(ServiceDatabase& holder, const QString& job) {
    if (holder.execute("BEGIN") < 0)
        return false;
    const auto locked = holder.rows("SELECT job_id FROM jobs WHERE name = $1 FOR UPDATE", {job});
    return locked && locked->size() == 1;
}

std::string statusField(const nlohmann::json& run) {
    return run.is_object() ? run.value("status", std::string()) : std::string("<no run>");
}

// What each test starts from: a database of its own, a jobdeckd on it that answers a poll at once
// (`--status-hold-seconds 0`, plus the test's options: an admission may wait for a row up to
// lock_timeout, 10 s, so the checks while it waits are few and a poll must not be held for up to 2 s), a
// project with cluster `rows` and job_a, and two sessions of the test on the database: one to hold rows,
// one to observe.
struct RowLockSetUp {
    QString database;
    std::unique_ptr<TestService> service;
    Project project;
    std::unique_ptr<ServiceDatabase> holder;
    std::unique_ptr<ServiceDatabase> observer;
};

} // namespace

class TestRowLocks final : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch;
    const QString m_token = "rowlocks-suite-" + QUuid::createUuid().toString(QUuid::WithoutBraces);

    QStringList shortRun() const { return {kPythonApp, "--sleep", "1", "--suite", m_token}; }

    // Fills `s` (see RowLockSetUp).
    void setUp(RowLockSetUp& s, const QStringList& serviceOptions) const {
        QString error;
        s.database = TestBackend::createPostgresDatabase(error);
        QVERIFY2(!s.database.isEmpty(), qPrintable("this suite needs PostgreSQL: " + error));
        s.service = std::make_unique<TestService>(
            QStringList{"--database", s.database, "--status-hold-seconds", "0"} + serviceOptions);
        QVERIFY2(s.service->start(), qPrintable(s.service->lastError()));
        QVERIFY(s.project.create(*s.service));
        QVERIFY(createClusterAndPythonJob(*s.service, s.project.op, "rows", "job_a", shortRun()));
        s.holder = std::make_unique<ServiceDatabase>(s.database);
        s.observer = std::make_unique<ServiceDatabase>(s.database);
        QVERIFY2(s.holder->isOpen() && s.observer->isOpen(),
                 qPrintable(s.holder->lastError() + s.observer->lastError()));
    }

    // Runs `test` on a fresh set-up (see RowLockSetUp) with jobdeckd started with `serviceOptions`,
    // unless the set-up failed.
    void withSetUp(const QStringList& serviceOptions,
                   const std::function<void(TestService&, const Project&, ServiceDatabase& holder,
                                            ServiceDatabase& observer)>& test) const {
        RowLockSetUp s;
        setUp(s, serviceOptions);
        if (!QTest::currentTestFailed())
            test(*s.service, s.project, *s.holder, *s.observer);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_scratch.isValid());
        qputenv("JOBDECK_STANDIN_SPARK_HOME", m_scratch.filePath("spark-home").toLocal8Bit());
    }

    void aLockedJobRowHoldsUpOnlyThatJobsAdmission();
    void aWaitThatRanOutAndAPollAreAnsweredWhileEveryStatementWaitsForARow();
    void aKeyTakenWhileTheAdmissionWasUnderWayIsAnsweredWithItsRun();
    void aClusterAnotherReplicaPlansHoldsUpOnlyItsOwnRuns();
    void twoChangesOfOneRowTakeTurns_data();
    void twoChangesOfOneRowTakeTurns();
    void oneNameCreatedAtOnceIsCreatedOnce_data();
    void oneNameCreatedAtOnceIsCreatedOnce();
};

void TestRowLocks::aLockedJobRowHoldsUpOnlyThatJobsAdmission() {
    withSetUp({}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                      ServiceDatabase& observer) {
        QVERIFY(statementSucceeds(service, project.op,
                                  "CREATE JOB job_b TYPE = 'PYTHON' PARAMETERS = " + tuple(shortRun()) +
                                      " CLUSTER = 'rows'"));

        QVERIFY2(holdJobRow(holder, "job_a"), qPrintable(holder.lastError()));

        const QString runA = submit(service, project.op, "RUN JOB job_a");
        QVERIFY2(!runA.isEmpty(), "RUN JOB job_a was not taken");
        // A's admission is under way and waits for the row lock (a backend of the service waits on a lock).
        QTRY_VERIFY_WITH_TIMEOUT(observer.value("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                                "current_database() AND wait_event_type = 'Lock'")
                                         .toInt() >= 1,
                                 30000);

        const nlohmann::json runB = runStatement(service, project.op, "RUN JOB job_b");
        QVERIFY2(statusOf(runB) == kSuccess,
                 qPrintable("RUN JOB job_b was not answered while job_a's row was locked: " +
                            QString::fromStdString(runB.dump())));
        for (int poll = 0; poll < 3; ++poll) {
            const nlohmann::json a = statusOfRequest(service, project.op, runA);
            QVERIFY2(statusOf(a) == kPending, qPrintable("RUN JOB job_a did not wait for the row lock: " +
                                                         QString::fromStdString(a.dump())));
            QTest::qWait(200);
        }

        QVERIFY2(holder.execute("ROLLBACK") >= 0, qPrintable(holder.lastError()));
        nlohmann::json a;
        QTRY_VERIFY_WITH_TIMEOUT(statusOf(a = statusOfRequest(service, project.op, runA)) != kPending, 30000);
        QVERIFY2(statusOf(a) == kSuccess, a.dump().c_str());
        const QString runIdA = runIdOf(a);
        const QString runIdB = runIdOf(runB);
        QVERIFY(!runIdA.isEmpty() && !runIdB.isEmpty());
        QCOMPARE(statusField(waitForRun(service, project.op, "job_a", runIdA, hasEnded(), 60000)),
                 std::string(kCompleted));
        QCOMPARE(statusField(waitForRun(service, project.op, "job_b", runIdB, hasEnded(), 60000)),
                 std::string(kCompleted));
    });
}

// One worker and one statement thread, held by RUN JOB job_a waiting for the row: its `Prefer: wait=1`
// runs out and PENDING is answered while the row is still held, and so is a poll of its status.
// Answered only once the lock wait ended (lock_timeout, 10 s), the request would be final by then and
// no backend would wait for a lock.
void TestRowLocks::aWaitThatRanOutAndAPollAreAnsweredWhileEveryStatementWaitsForARow() {
    withSetUp({"--workers", "1"}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                                      ServiceDatabase& observer) {
        QVERIFY2(holdJobRow(holder, "job_a"), qPrintable(holder.lastError()));

        const std::string body = nlohmann::json{{"statement", "RUN JOB job_a"}}.dump();
        const HttpResult answer =
            request(service.url(QStringLiteral("/v1/resource/")), "POST", QByteArray::fromStdString(body),
                    project.op.headers() + HttpHeaders{{"Prefer", "wait=1"}}, 60000);
        const nlohmann::json pending = answer.json();
        const int waiting =
            observer
                .value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND wait_event_type = 'Lock'")
                .toInt();
        QVERIFY2(statusOf(pending) == kPending,
                 qPrintable("not PENDING: " + QString::number(answer.status) + " " + answer.body));
        QVERIFY2(waiting >= 1, "PENDING was answered only once RUN JOB job_a no longer waited for the row");
        const QString id = QString::fromStdString(pending.value("requestId", std::string()));
        QVERIFY(!id.isEmpty());
        const nlohmann::json polled = statusOfRequest(service, project.op, id);
        QVERIFY2(statusOf(polled) == kPending,
                 qPrintable("polled: " + QString::fromStdString(polled.dump())));

        QVERIFY2(holder.execute("ROLLBACK") >= 0, qPrintable(holder.lastError()));
        nlohmann::json a;
        QTRY_VERIFY_WITH_TIMEOUT(statusOf(a = statusOfRequest(service, project.op, id)) != kPending, 30000);
        QVERIFY2(statusOf(a) == kSuccess, a.dump().c_str());
    });
}

// An admission sends its run's insert with its commit, having found no active run of the job with its
// Idempotency-Key. A session of the test inserts such a run without holding the job's row (its foreign
// key checks off, session_replication_role = replica: nothing in jobdeckd inserts a run so) and keeps it
// uncommitted: the admission does not see it, its insert waits for it on the unique index
// runs_active_by_key, and fails once the session commits. The admission is then tried once more and
// answers with the session's run, as a repeated RUN JOB with that key is answered.
void TestRowLocks::aKeyTakenWhileTheAdmissionWasUnderWayIsAnsweredWithItsRun() {
    withSetUp({}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                      ServiceDatabase& observer) {
        const QString first = runIdOf(runJob(service, project.op, "job_a", {}, "key-first"));
        QVERIFY(!first.isEmpty());
        QVERIFY(!statusField(waitForRun(service, project.op, "job_a", first, hasEnded(), 60000)).empty());

        QVERIFY2(holder.execute("SET session_replication_role = replica") >= 0 &&
                     holder.execute("BEGIN") >= 0,
                 qPrintable(holder.lastError()));
        QVERIFY2(
            holder.execute("INSERT INTO runs (run_id, project_uid, job_id, job_name, cluster, status, "
                           "queue_reason, idempotency_key, argument_overrides, arguments, queued_at) "
                           "SELECT 'run-of-the-session', project_uid, job_id, job_name, cluster, "
                           "'SPARK_JOB_RUN_STATUS_QUEUED', queue_reason, 'key-taken', argument_overrides, "
                           "arguments, queued_at FROM runs WHERE run_id = $1",
                           {first}) == 1,
            qPrintable(holder.lastError()));

        const QString id = submit(service, project.op, "RUN JOB job_a", keyHeader("key-taken"));
        QVERIFY2(!id.isEmpty(), "RUN JOB job_a was not taken");
        QTRY_VERIFY_WITH_TIMEOUT(observer.value("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                                "current_database() AND wait_event_type = 'Lock'")
                                         .toInt() >= 1,
                                 30000);
        QVERIFY2(holder.execute("COMMIT") >= 0, qPrintable(holder.lastError()));
        nlohmann::json answer;
        QTRY_VERIFY_WITH_TIMEOUT(statusOf(answer = statusOfRequest(service, project.op, id)) != kPending,
                                 30000);
        QVERIFY2(statusOf(answer) == kSuccess, answer.dump().c_str());
        QCOMPARE(runIdOf(answer), QStringLiteral("run-of-the-session"));
        QCOMPARE(observer.value("SELECT count(*) FROM runs WHERE idempotency_key = 'key-taken'"),
                 QStringLiteral("1"));
    });
}

// A replica's claim step holds the rows of the clusters it plans (FOR NO KEY UPDATE) until it commits;
// the claim steps of other replicas leave those clusters to it and wait for none of them. A session of the
// test holds cluster `rows` as such a step does: a run on another cluster starts and ends meanwhile, a job
// is created on `rows`, no backend of the service waits for a lock, and job_a's run, on `rows`, stays QUEUED
// until the session ends, then runs.
void TestRowLocks::aClusterAnotherReplicaPlansHoldsUpOnlyItsOwnRuns() {
    withSetUp({}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                      ServiceDatabase& observer) {
        QVERIFY(createClusterAndPythonJob(service, project.op, "elsewhere", "job_b", shortRun()));
        QVERIFY2(holder.execute("BEGIN") >= 0, qPrintable(holder.lastError()));
        const auto held =
            holder.rows("SELECT cluster_id FROM clusters WHERE name = 'rows' FOR NO KEY UPDATE");
        QVERIFY2(held && held->size() == 1, qPrintable(holder.lastError()));

        const QString runA = runIdOf(runJob(service, project.op, "job_a"));
        const QString runB = runIdOf(runJob(service, project.op, "job_b"));
        QVERIFY(!runA.isEmpty() && !runB.isEmpty());
        QCOMPARE(statusField(waitForRun(service, project.op, "job_b", runB, hasEnded(), 60000)),
                 std::string(kCompleted));
        QCOMPARE(statusField(describeRun(service, project.op, "job_a", runA)), std::string(kQueued));
        // A job is created on the cluster meanwhile: only the cluster's deletion would be waited for.
        QVERIFY(statementSucceeds(service, project.op,
                                  "CREATE JOB job_c TYPE = 'PYTHON' PARAMETERS = " + tuple(shortRun()) +
                                      " CLUSTER = 'rows'"));
        QCOMPARE(observer.value("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                "AND wait_event_type = 'Lock'"),
                 QStringLiteral("0"));

        QVERIFY2(holder.execute("ROLLBACK") >= 0, qPrintable(holder.lastError()));
        QCOMPARE(statusField(waitForRun(service, project.op, "job_a", runA, hasEnded(), 60000)),
                 std::string(kCompleted));
    });
}

void TestRowLocks::twoChangesOfOneRowTakeTurns_data() {
    QTest::addColumn<QString>("hold"); // the row's share, by the test's session
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    QTest::addColumn<QString>("applied"); // "1" when the row holds what both changes leave in it
    const QString job = "ALTER JOB job_a SET PARAMETERS = ";
    // Both set the parameters: the one that came second is what stays.
    QTest::newRow("ALTER JOB") << "SELECT 1 FROM jobs WHERE name = 'job_a' FOR SHARE"
                               << job + tuple(shortRun() + QStringList{"--note", "one"})
                               << job + tuple(shortRun() + QStringList{"--note", "two"})
                               << "SELECT count(*) FROM jobs WHERE name = 'job_a' AND "
                                  "(parameters LIKE '%\"one\"%' OR parameters LIKE '%\"two\"%')";
    QTest::newRow("ALTER CLUSTER") << "SELECT 1 FROM clusters WHERE name = 'rows' FOR SHARE"
                                   << "ALTER CLUSTER rows SET MAX_OCU = 3"
                                   << "ALTER CLUSTER rows WITH 'spark.b' = '20'"
                                   << "SELECT count(*) FROM clusters WHERE name = 'rows' AND max_ocu = 3 "
                                      "AND with_pairs LIKE '%spark.b%'";
    QTest::newRow("ALTER PROJECT") << "SELECT 1 FROM projects FOR SHARE"
                                   << "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.one.')"
                                   << "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.two.')"
                                   << "SELECT count(*) / 2 FROM project_allowlist "
                                      "WHERE entry IN ('hoodie.one.', 'hoodie.two.')";
}

// Two changes of one job (cluster, project) sent at once each read the row and then write it. A session of
// the test holds the row FOR SHARE until both reached it, so that each would have read it before either
// writes: a read that shares the row would make each wait for the other's share (a deadlock, one of them
// failed after PostgreSQL's deadlock check). Each reads it as the writer it is: they take turns, and the
// second applies to what the first wrote.
void TestRowLocks::twoChangesOfOneRowTakeTurns() {
    QFETCH(QString, hold);
    QFETCH(QString, first);
    QFETCH(QString, second);
    QFETCH(QString, applied);
    withSetUp({}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                      ServiceDatabase& observer) {
        QVERIFY2(holder.execute("BEGIN") >= 0, qPrintable(holder.lastError()));
        const auto shared = holder.rows(hold);
        QVERIFY2(shared && shared->size() == 1, qPrintable(holder.lastError()));
        const QString one = submit(service, project.admin, first);
        const QString two = submit(service, project.admin, second);
        QVERIFY(!one.isEmpty() && !two.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(observer.value("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                                "current_database() AND wait_event_type = 'Lock'")
                                         .toInt() >= 2,
                                 30000);
        QVERIFY2(holder.execute("ROLLBACK") >= 0, qPrintable(holder.lastError()));
        for (const QString& id : {one, two}) {
            nlohmann::json answer;
            QTRY_VERIFY_WITH_TIMEOUT(statusOf(answer = statusOfRequest(service, project.op, id)) != kPending,
                                     30000);
            QVERIFY2(statusOf(answer) == kSuccess, answer.dump().c_str());
        }
        QCOMPARE(observer.value(applied), QStringLiteral("1"));
    });
}

void TestRowLocks::oneNameCreatedAtOnceIsCreatedOnce_data() {
    QTest::addColumn<QString>("hold");      // keeps every insert of the table waiting, not its reads
    QTest::addColumn<QString>("statement"); // sent kCreates times at once
    QTest::addColumn<QString>("refusal");   // what every one but the first is answered
    QTest::addColumn<QString>("count");     // the rows of that name afterwards
    QTest::newRow("CREATE JOB") << "LOCK TABLE jobs IN SHARE MODE"
                                << "CREATE JOB racer TYPE = 'PYTHON' PARAMETERS = " + tuple(shortRun()) +
                                       " CLUSTER = 'rows'"
                                << "Job racer already exists"
                                << "SELECT count(*) FROM jobs WHERE name = 'racer'";
    QTest::newRow("CREATE CLUSTER") << "LOCK TABLE clusters IN SHARE MODE"
                                    << "CREATE CLUSTER racer TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 0"
                                    << "Cluster racer already exists"
                                    << "SELECT count(*) FROM clusters WHERE name = 'racer'";
}

// CREATEs of one name sent at once each find no such name before any of them has written it: a session
// of the test keeps the table's inserts waiting until all of them wait, so that they all get past that
// check. The name's unique index lets one in; every other one is told the name exists, as it would have
// been told a moment later, not that the statement failed.
void TestRowLocks::oneNameCreatedAtOnceIsCreatedOnce() {
    QFETCH(QString, hold);
    QFETCH(QString, statement);
    QFETCH(QString, refusal);
    QFETCH(QString, count);
    constexpr int kCreates = 4;
    withSetUp({}, [&](TestService& service, const Project& project, ServiceDatabase& holder,
                      ServiceDatabase& observer) {
        QVERIFY2(holder.execute("BEGIN") >= 0 && holder.execute(hold) >= 0, qPrintable(holder.lastError()));
        QStringList ids;
        for (int i = 0; i < kCreates; ++i)
            ids << submit(service, project.admin, statement);
        QVERIFY(!ids.contains(QString()));
        QTRY_VERIFY_WITH_TIMEOUT(observer.value("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                                "current_database() AND wait_event_type = 'Lock'")
                                         .toInt() >= kCreates,
                                 30000);
        QVERIFY2(holder.execute("ROLLBACK") >= 0, qPrintable(holder.lastError()));
        int created = 0;
        for (const QString& id : ids) {
            nlohmann::json answer;
            QTRY_VERIFY_WITH_TIMEOUT(statusOf(answer = statusOfRequest(service, project.op, id)) != kPending,
                                     30000);
            if (statusOf(answer) == kSuccess)
                ++created;
            else
                QVERIFY2(statusOf(answer) == kApiFailed && errorOf(answer) == refusal.toStdString(),
                         answer.dump().c_str());
        }
        QCOMPARE(created, 1);
        QCOMPARE(observer.value(count), QStringLiteral("1"));
    });
}

JOBDECK_TEST_GUILESS_MAIN(TestRowLocks)
#include "tst_rowlocks.moc"
