// jobdeckd's PostgreSQL stores against a private PostgreSQL cluster (tests/support/PostgresCluster):
// schema and migrations, the refusal of a newer schema, errors that never show a password, the row
// locks that keep a count-then-insert exact across processes without holding up other jobs, the
// active Idempotency-Key's unique index, the change stamp, events handed out in an order no later commit
// can break, and keys revoked by another process. Two PgStores
// on one database stand for two jobdeckd processes.
#include "core/wire/Timestamp.h"
#include "service/runs/EventBus.h"
#include "service/stores/DatabaseError.h"
#include "service/stores/Migrations.h"
#include "service/stores/RunRows.h"
#include "service/stores/postgres/PgEventListener.h"
#include "service/stores/postgres/PgEventNotifier.h"
#include "service/stores/postgres/PgStores.h"
#include "service/stores/postgres/SettledEventSeqs.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/SettledEvents.h"

#include <QScopeGuard>
#include <QTcpServer>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace jobdeck;

namespace {

int countRows(PgConnection& connection, const std::string& sql) {
    auto q = connection.query(sql);
    q.step();
    return q.integer(0);
}

// A loopback port nothing listens on (it was free a moment ago).
quint16 closedPort() {
    QTcpServer server;
    server.listen(QHostAddress::LocalHost, 0);
    return server.serverPort();
}

// A step of `stores` on a thread of its own that holds what `hold` locks until release() or the end of
// the scope (a failed check returns early), taking it again every 10 ms so that the server never ends
// the step as idle in its transaction. `hold` returns false when it found nothing to hold.
class HeldStep final {
public:
    HeldStep(Stores& stores, std::function<bool()> hold)
        : m_thread([this, &stores, hold = std::move(hold)] {
            try {
                stores.unitOfWork().run([&] {
                    if (!hold())
                        return; // nothing held: holding() stays false
                    m_holding = true;
                    for (int i = 0; i < 6000 && !m_release; ++i) { // a hang guard of 60 s, not a duration
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                        hold();
                    }
                });
            } catch (const std::exception& e) {
                qWarning("the held step failed: %s", e.what());
            }
        }) {}
    ~HeldStep() { release(); }
    HeldStep(const HeldStep&) = delete;
    HeldStep& operator=(const HeldStep&) = delete;
    bool holding() const { return m_holding; }
    void release() {
        m_release = true;
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::atomic<bool> m_holding{false};
    std::atomic<bool> m_release{false};
    std::thread m_thread; // last: it starts once the flags are there
};

// `work` on a thread of its own, joined at the end of the scope; done() once it returned or threw (a
// warning then).
class Background final {
public:
    explicit Background(std::function<void()> work)
        : m_thread([this, work = std::move(work)] {
            try {
                work();
            } catch (const std::exception& e) {
                qWarning("background work failed: %s", e.what());
            }
            m_done = true;
        }) {}
    ~Background() { join(); }
    Background(const Background&) = delete;
    Background& operator=(const Background&) = delete;
    bool done() const { return m_done; }
    void join() {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

// A step of `stores` on a thread of its own that appends `event` to `project` and
// then waits for end(), which lets it commit (or roll back) and joins it; so does the end of the scope.
class EventStepLeftOpen final {
public:
    EventStepLeftOpen(Stores& stores, const std::string& project, const ProjectEvent& event, bool commits)
        : m_thread([this, &stores, project, event, commits] {
            bool appended = false;
            try {
                stores.unitOfWork().run([&] {
                    m_appended.set_value(stores.events().appendEvent(project, event));
                    appended = true;
                    m_release.get_future().wait();
                    if (!commits)
                        throw std::runtime_error("rolled back");
                });
            } catch (...) {
                if (!appended) // seq() then throws instead of waiting for ever
                    m_appended.set_exception(std::current_exception());
            }
        }) {}
    ~EventStepLeftOpen() { end(); }
    EventStepLeftOpen(const EventStepLeftOpen&) = delete;
    EventStepLeftOpen& operator=(const EventStepLeftOpen&) = delete;
    // The seq its event was given, once it is appended.
    std::int64_t seq() { return m_seq.get(); }
    void end() {
        if (std::exchange(m_ended, true))
            return;
        m_release.set_value();
        m_thread.join();
    }

private:
    std::promise<std::int64_t> m_appended;
    std::shared_future<std::int64_t> m_seq = m_appended.get_future().share();
    std::promise<void> m_release;
    bool m_ended = false;
    std::thread m_thread; // last: it starts once the promises are there
};

// What a PgEventListener on the database hears, by project and admissions. Built once the listener
// hears a notification sent after it ("listening"); awaitEnd() sends "end" after everything sent before
// (notifications arrive in commit order) and waits for it.
class HeardNews final {
public:
    explicit HeardNews(const std::string& uri)
        : m_listener(uri,
                     {[this](const std::string& uid) { heardEvents(uid); }, [this] { heardAdmissions(); }})
        , m_probe(PgConnection::open(uri)) {
        QTRY_VERIFY_WITH_TIMEOUT((notify("listening"), events("listening") > 0), 30000);
    }
    void awaitEnd() {
        notify("end");
        QTRY_VERIFY_WITH_TIMEOUT(events("end") > 0, 30000);
    }
    int events(const std::string& uid) {
        const std::lock_guard lock(m_mutex);
        const auto it = m_events.find(uid);
        return it == m_events.end() ? 0 : it->second;
    }
    std::set<std::string> projects() {
        const std::lock_guard lock(m_mutex);
        std::set<std::string> uids;
        for (const auto& [uid, count] : m_events)
            uids.insert(uid);
        return uids;
    }
    int admissions() {
        const std::lock_guard lock(m_mutex);
        return m_admissions;
    }

private:
    void notify(const std::string& uid) {
        m_probe->execute("SELECT pg_notify(?, ?)", std::string(PgEventListener::kChannel), uid);
    }
    void heardEvents(const std::string& uid) {
        const std::lock_guard lock(m_mutex);
        ++m_events[uid];
    }
    void heardAdmissions() {
        const std::lock_guard lock(m_mutex);
        ++m_admissions;
    }

    std::mutex m_mutex;
    std::map<std::string, int> m_events;
    int m_admissions = 0;
    PgEventListener m_listener;
    std::unique_ptr<PgConnection> m_probe;
};

// Announces through a notifier of its own, which sends what is left as it stops before this returns;
// how long that took, in ms.
std::int64_t announcedMs(PgConnections& connections, const std::function<void(PgEventNotifier&)>& announce) {
    const auto started = std::chrono::steady_clock::now();
    {
        PgEventNotifier notifier(connections);
        announce(notifier);
    }
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
        .count();
}

} // namespace

class TestPgStores final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.lastError())); }
    void cleanupTestCase() { m_cluster.stop(); }

    void opensAndMigratesAnEmptyDatabase() {
        const auto stores = PgStores::open(uri());
        QVERIFY(!stores->unavailableReason());
        auto connection = PgConnection::open(uri());
        // Shared version 6 is recorded as PostgreSQL's released 4, so that jobdeckd still opens it.
        QCOMPARE(countRows(*connection, "SELECT max(version) FROM schema_version"),
                 schema::recordedVersion(schema::Dialect::Postgresql, PgStores::schemaVersion()));
        // A second process opening the migrated database changes nothing.
        const auto again = PgStores::open(uri());
        QCOMPARE(countRows(*connection, "SELECT count(*) FROM schema_version"), 1);
    }

    void refusesANewerSchemaUntouched() {
        const std::string database = createDatabase("newer");
        { const auto stores = PgStores::open(database); }
        auto connection = PgConnection::open(database);
        connection->execute("UPDATE schema_version SET version = ?", PgStores::schemaVersion() + 1);
        try {
            PgStores::open(database);
            QFAIL("a newer schema was opened");
        } catch (const DatabaseError& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("newer than this jobdeckd understands")), e.what());
            QVERIFY2(message.contains(QStringLiteral("was not changed")), e.what());
        }
        QCOMPARE(countRows(*connection, "SELECT max(version) FROM schema_version"),
                 PgStores::schemaVersion() + 1);
    }

    void unreachableServerIsUnavailableAndHidesThePassword() {
        const std::string url =
            "postgresql://jobdeck:s3cret-pass@127.0.0.1:" + std::to_string(closedPort()) + "/jobdeck";
        try {
            PgStores::open(url);
            QFAIL("a closed port was connected to");
        } catch (const DatabaseError& e) {
            QVERIFY(e.isUnavailable());
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(QStringLiteral("Cannot connect to PostgreSQL")), e.what());
            QVERIFY2(!message.contains(QStringLiteral("s3cret")), e.what());
        }
    }

    void aFailedStatementRollsBackItsWholeStep() {
        const auto stores = PgStores::open(uri());
        const std::string uid = stores->projects().createProject("rollback-first");
        bool constraint = false;
        try {
            stores->unitOfWork().run([&] {
                stores->projects().createProject("rollback-second");
                try {
                    stores->projects().createProject("rollback-first"); // the name is taken
                } catch (const DatabaseError& e) {
                    constraint = e.isConstraintViolation();
                }
            });
            QFAIL("a step with a failed statement committed");
        } catch (const DatabaseError&) {
        }
        QVERIFY(constraint);
        QVERIFY(stores->projects().findProjectUidByName("rollback-first") == uid);
        QVERIFY(!stores->projects().findProjectUidByName("rollback-second"));
    }

    // Admission's pattern (hold the job's row and read its active runs, insert when below the limit) in
    // steps from two processes at once: exactly the limit gets in, with no lock of the whole database.
    void countThenInsertUnderTheJobsRowIsExactAcrossProcesses() {
        const std::string database = createDatabase("admission");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("admission");
        const SparkJob a = jobOn(*first, uid, "a");
        constexpr int limit = 3;
        std::atomic<int> admitted{0};
        std::vector<std::thread> clients;
        for (int i = 0; i < 16; ++i)
            clients.emplace_back([&, i] {
                Stores& stores = i % 2 ? *first : *second;
                const bool inserted = stores.unitOfWork().run([&] {
                    const auto toRun = stores.jobs().findJobToRun(uid, "a", std::nullopt);
                    if (!toRun || toRun->activeRuns.count >= limit)
                        return false;
                    stores.runs().insertLater(queuedRun(uid, toRun->job, "run-" + std::to_string(i), {}));
                    return true;
                });
                if (inserted)
                    ++admitted;
            });
        for (auto& client : clients)
            client.join();
        QCOMPARE(admitted.load(), limit);
        QCOMPARE(second->jobs().findJobToRun(uid, "a", std::nullopt).value().activeRuns.count, limit);
    }

    // While a step of one process holds job a's row, a step of another process admits a run of job b
    // of the same project and commits; its own step on job a waits until the first one ends, and then
    // counts the run the first one inserted.
    void aHeldJobRowHoldsUpOnlyThatJob() {
        const std::string database = createDatabase("rowlocks");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("rowlocks");
        const SparkJob a = jobOn(*first, uid, "a");
        const SparkJob b = jobOn(*first, uid, "b", false);
        std::atomic<bool> inserted{false};
        HeldStep holder(*first, [&] {
            if (!first->jobs().findJobToRun(uid, "a", std::nullopt))
                return false;
            if (!inserted.exchange(true))
                first->runs().insertLater(queuedRun(uid, a, "run-held", {}));
            return true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(holder.holding(), 30000);
        std::atomic<int> counted{-1};
        Background waiter([&] {
            second->unitOfWork().run([&] {
                const auto toRun = second->jobs().findJobToRun(uid, "a", std::nullopt);
                counted = toRun ? toRun->activeRuns.count : -2;
                second->runs().insert(queuedRun(uid, a, "run-a", {}));
            });
        });
        second->unitOfWork().run([&] {
            QVERIFY(second->jobs().findJobToRun(uid, "b", std::nullopt));
            QVERIFY(second->runs().insert(queuedRun(uid, b, "run-b", {})));
        });
        QVERIFY(first->runs().findById("run-b"));
        for (int poll = 0; poll < 5; ++poll) {
            QVERIFY2(!waiter.done(), "the step on job a did not wait for the step holding its row");
            QTest::qWait(100);
        }
        holder.release();
        waiter.join();
        QVERIFY(first->runs().findById("run-a"));
        // Read once the row was held, not with the snapshot the wait began with.
        QCOMPARE(counted.load(), 1);
    }

    // While a step that decided on the project's settings is open (a CREATE JOB, an admission, which
    // reads them with its job's row), pruning the project's events goes through, and a change of the
    // settings waits until that step ends.
    void settingsReadToDecideHoldOffAChangeButNotPruning_data() {
        QTest::addColumn<bool>("withJob");
        QTest::newRow("the settings") << false;
        QTest::newRow("a job to run and its project's settings") << true;
    }
    void settingsReadToDecideHoldOffAChangeButNotPruning() {
        QFETCH(const bool, withJob);
        const std::string database = createDatabase(withJob ? "projectlocksjob" : "projectlocks");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("projectlocks");
        if (withJob)
            jobOn(*first, uid, "a");
        for (int i = 0; i < 5; ++i)
            first->events().appendEvent(uid, namedEvent("e" + std::to_string(i)));
        HeldStep holder(*first, [&] {
            if (withJob)
                return first->jobs().findJobToRun(uid, "a", std::nullopt).has_value();
            first->projects().projectSettings(uid);
            return true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(holder.holding(), 30000);
        second->events().pruneEvents(uid, 2); // fails on its lock wait if it waits
        QCOMPARE(second->events().prunedEventSeq(uid), first->events().latestEventSeq(uid) - 2);
        Background changer([&] {
            ProjectSettings settings = second->projects().projectSettingsAsCommitted(uid);
            settings.maxConcurrentRunsLimit = 7;
            second->projects().saveProjectSettings(uid, settings);
        });
        for (int poll = 0; poll < 5; ++poll) {
            QVERIFY2(!changer.done(), "the change of the settings did not wait for the step that read them");
            QTest::qWait(100);
        }
        holder.release();
        changer.join();
        QCOMPARE(first->projects().projectSettingsAsCommitted(uid).maxConcurrentRunsLimit, 7);
    }

    // A claim reads its run's job and project, and the clusters it does not plan, as committed: while
    // such a step is open, another process's admission step on the job (FOR UPDATE), a write of the
    // project's settings and one of the cluster go through.
    void aReadAsCommittedHoldsNothing() {
        const std::string database = createDatabase("ascommitted");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("ascommitted");
        const SparkJob a = jobOn(*first, uid, "a");
        const bool concurrentBefore = first->projects().projectSettings(uid).concurrentRunsEnabled;
        std::atomic<bool> done{false};
        std::string otherError; // written by the other thread before `done`
        std::jthread other;     // joined however the step below ends
        const auto otherSteps = [&] {
            try {
                second->unitOfWork().run([&] {
                    second->jobs().findJobToRun(uid, "a", std::nullopt);
                    second->runs().insert(queuedRun(uid, a, "run-a", {}));
                });
                auto settings = second->projects().projectSettings(uid);
                settings.concurrentRunsEnabled = !concurrentBefore;
                second->projects().saveProjectSettings(uid, settings);
                Cluster cluster = *second->clusters().findCluster(uid, a.cluster);
                cluster.maxOcu += 1;
                second->clusters().updateCluster(uid, cluster);
            } catch (const std::exception& e) {
                otherError = e.what(); // a lock timeout: something was held
            }
            done = true;
        };
        std::string firstError;
        try {
            first->unitOfWork().run([&] {
                QVERIFY(first->jobs().findJobAsCommitted(uid, "a"));
                first->projects().projectSettingsAsCommitted(uid);
                QVERIFY(first->clusters().findClusterAsCommitted(uid, a.cluster));
                other = std::jthread(otherSteps);
                // Bounded: were anything held, the other steps would wait for this one to end (or
                // time out, or the server would end this step once it idled past its timeout).
                QTRY_VERIFY_WITH_TIMEOUT(done.load(), 30000);
            });
        } catch (const std::exception& e) {
            firstError = e.what();
        }
        if (other.joinable())
            other.join();
        QVERIFY2(firstError.empty(), firstError.c_str());
        QVERIFY(done);
        QVERIFY2(otherError.empty(), otherError.c_str());
        QVERIFY(first->runs().findById("run-a"));
        QCOMPARE(first->projects().projectSettings(uid).concurrentRunsEnabled, !concurrentBefore);
    }

    // An active run's Idempotency-Key is a unique index: a second insert of the key is refused without
    // an error (the admission then answers with the run that has it); an ended run's key is free.
    void anActiveIdempotencyKeyIsInsertedOnce() {
        const std::string database = createDatabase("keys");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("keys");
        const SparkJob a = jobOn(*stores, uid, "a");
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "run-1", "key-1")));
        QVERIFY(!stores->runs().insert(queuedRun(uid, a, "run-2", "key-1")));
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "run-3", "key-2")));
        RunRecord ended = *stores->runs().findById("run-1");
        ended.run.status = JobRunStatus::Completed;
        stores->runs().update(ended);
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "run-4", "key-1")));
        QVERIFY(!stores->runs().exists("run-2"));
    }

    // A write held back for the next statement (the run's insert of an admission) that fails there is
    // reported as the write it is, with its cause (the key's unique index: a conflict), not as that
    // statement (a read here), and the step is rolled back.
    void aHeldBackWriteFailsAsItself() {
        const std::string database = createDatabase("heldback");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("heldback");
        const SparkJob a = jobOn(*stores, uid, "a");
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "run-1", "key-1")));
        std::string message;
        bool conflict = false;
        try {
            stores->unitOfWork().run([&] {
                stores->runs().insertLater(queuedRun(uid, a, "run-2", "key-1"));
                stores->runs().findById("run-1");
            });
        } catch (const DatabaseError& e) {
            message = e.what();
            conflict = e.isConstraintViolation();
        }
        QVERIFY2(message.starts_with("Database error (INSERT)"), message.c_str());
        QVERIFY(conflict);
        QVERIFY(!stores->runs().exists("run-2"));
    }

    // Every RUN JOB counts its job's active runs: the count reads that job's active runs only, neither
    // its ended runs (thousands kept) nor the active runs of other jobs, also while the table's
    // statistics lag behind its rows (as they do while a backlog builds up between autovacuum's visits).
    void aJobsActiveRunsAreCountedFromItsActiveRunsOnly() {
        const std::string database = createDatabase("activecount");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("activecount");
        const SparkJob a = jobOn(*stores, uid, "a");
        const SparkJob b = jobOn(*stores, uid, "b", false);
        stores->unitOfWork().run([&] {
            for (int i = 0; i < 2000; ++i)
                stores->runs().insert(queuedRun(uid, a, "a-" + std::to_string(i), {}));
            for (int i = 0; i < 500; ++i)
                stores->runs().insert(queuedRun(uid, b, "b-" + std::to_string(i), {}));
        });
        auto connection = PgConnection::open(database);
        connection->executeScript(
            "UPDATE runs SET status = 'SPARK_JOB_RUN_STATUS_COMPLETED' WHERE run_id LIKE "
            "'a-%' AND run_id NOT IN ('a-1', 'a-1000')");
        QCOMPARE(stores->jobs().findJobToRun(uid, "a", std::nullopt).value().activeRuns.count, 2);
        // The admission's own read, its parameters written in.
        std::string sql = run_rows::activeRunsOfJobSql();
        for (const auto& [parameter, value] :
             {std::pair<std::string, std::string>{"?1", "'" + uid + "'"}, {"?2", "'a'"}, {"?3", "NULL"}})
            for (auto at = sql.find(parameter); at != std::string::npos; at = sql.find(parameter, at))
                sql.replace(at, parameter.size(), value);
        auto plan = connection->query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + sql);
        std::string lines;
        while (plan.step())
            lines += plan.text(0) + "\n";
        QVERIFY2(lines.find("Rows Removed") == std::string::npos, lines.c_str());
    }

    // A run found by its id (every transition reads its row so) goes through the run id's index even with
    // the plan PostgreSQL made while the table held a few runs and kept for the connection (a generic
    // plan): not through an index on the project, which reads every run of the project.
    void aRunIsFoundThroughItsIdWhateverThePlanSawFirst() {
        const std::string database = createDatabase("keyedplan");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("keyedplan");
        const SparkJob a = jobOn(*stores, uid, "a");
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "first", {})));
        auto connection = PgConnection::open(database);
        for (int i = 0; i < 8; ++i) // planned once for all after the fifth (plan_cache_mode auto)
            QVERIFY(run_rows::find(*connection, uid, "first", " FOR UPDATE"));
        stores->unitOfWork().run([&] {
            for (int i = 0; i < 2000; ++i)
                stores->runs().insert(queuedRun(uid, a, "run-" + std::to_string(i), {}));
        });
        QVERIFY(run_rows::find(*connection, uid, "run-1000", " FOR UPDATE"));
        QVERIFY(!run_rows::find(*connection, "another-project", "run-1000", " FOR UPDATE"));

        auto prepared =
            connection->query("SELECT name, generic_plans FROM pg_prepared_statements WHERE "
                              "statement LIKE 'SELECT run_id, %' AND statement LIKE '%FOR UPDATE'");
        QVERIFY(prepared.step());
        const std::string name = prepared.text(0);
        QVERIFY2(prepared.int64(1) > 0, "the statement was not run with a generic plan");
        QVERIFY(!prepared.step());
        auto plan = connection->query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE " + name +
                                      "('run-1000', '" + uid + "')");
        std::string lines;
        while (plan.step())
            lines += plan.text(0) + "\n";
        QVERIFY2(lines.find("runs_run_id_key") != std::string::npos, lines.c_str());
        QVERIFY2(lines.find("Rows Removed") == std::string::npos, lines.c_str());
    }

    // A claim reads a cluster's oldest queued runs through runs_queued_by_cluster, as many as it asks for,
    // also with the plan made while the table held one run; and finds the clusters with queued runs by
    // one probe of that index each, not by reading the queue.
    void aClaimReadsOnlyTheRunsItMayStart() {
        const std::string database = createDatabase("claimreads");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("claimreads");
        const SparkJob a = jobOn(*stores, uid, "a");
        QVERIFY(stores->runs().insert(queuedRun(uid, a, "first", {})));
        auto connection = PgConnection::open(database);
        for (int i = 0; i < 8; ++i) { // planned once for all after the fifth (plan_cache_mode auto)
            QCOMPARE(run_rows::queuedOn(*connection, uid, a.cluster, 5).size(), std::size_t(1));
            QCOMPARE(run_rows::clustersWithQueue(*connection, false).claimed.size(), std::size_t(1));
        }
        stores->unitOfWork().run([&] {
            for (int i = 0; i < 2000; ++i)
                stores->runs().insert(queuedRun(uid, a, "run-" + std::to_string(i), {}));
        });
        QCOMPARE(run_rows::queuedOn(*connection, uid, a.cluster, 5).size(), std::size_t(5));
        QCOMPARE(run_rows::clustersWithQueue(*connection, false).claimed.size(), std::size_t(1));

        const auto explained = [&](const std::string& like, const std::string& arguments) {
            auto prepared =
                connection->query("SELECT name FROM pg_prepared_statements WHERE statement LIKE ?", like);
            if (!prepared.step())
                return std::string("no prepared statement like ") + like;
            auto plan = connection->query("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE " +
                                          prepared.text(0) + arguments);
            std::string lines;
            while (plan.step())
                lines += plan.text(0) + "\n";
            return lines;
        };
        const std::string head =
            explained("SELECT r.id, r.run_id, %LIMIT%", "('" + uid + "', '" + a.cluster + "', 5)");
        QVERIFY2(head.find("runs_queued_by_cluster") != std::string::npos, head.c_str());
        QVERIFY2(head.find("Sort") == std::string::npos, head.c_str());
        const std::string clusters =
            explained("SELECT c.project_uid, c.name FROM clusters c WHERE EXISTS%", "");
        QVERIFY2(clusters.find("runs_queued_by_cluster") != std::string::npos, clusters.c_str());
    }

    // While one replica's claim holds a cluster's row, another replica's claim does not claim it (and
    // does not wait for it): the cluster is reported held, so its runs are left to the claim that holds
    // it. A cluster that is gone has no row and is neither.
    void aClaimPlansOnlyTheClustersItCouldLock() {
        const std::string database = createDatabase("claims");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("claims");
        const SparkJob a = jobOn(*first, uid, "a");
        SparkJob orphaned = a;
        orphaned.cluster = "gone";
        for (const auto& id : {"run-1", "run-2"})
            QVERIFY(first->runs().insert(queuedRun(uid, a, id, {})));
        QVERIFY(first->runs().insert(queuedRun(uid, orphaned, "orphan", {})));
        using ClusterKey = std::pair<std::string, std::string>;
        const std::set<ClusterKey> withQueue{{uid, a.cluster}};
        const auto inStep = [](Stores& stores) {
            return stores.unitOfWork().run([&] { return stores.runs().clustersWithQueue(); });
        };
        QCOMPARE(inStep(*second).claimed, withQueue);
        QVERIFY(inStep(*second).held.empty());
        {
            HeldStep holder(*first, [&] { return first->runs().clustersWithQueue().claimed == withQueue; });
            QTRY_VERIFY_WITH_TIMEOUT(holder.holding(), 30000);
            const auto during = inStep(*second);
            QVERIFY(during.claimed.empty());
            QCOMPARE(during.held, withQueue);
            QCOMPARE(second->runs().clustersWithQueue().claimed, withQueue); // outside a step nothing is held
            const auto orphans =
                second->unitOfWork().run([&] { return second->runs().queuedOn(uid, "gone", 10); });
            QCOMPARE(orphans.size(), std::size_t(1));
            QCOMPARE(orphans[0].run.run.jobRunId, std::string("orphan"));
        }
        QCOMPARE(inStep(*second).claimed, withQueue);
    }

    // A run's transition is conditional on the status it was decided on: a write from QUEUED to FAILED
    // after another step moved the run to RUNNING is a lost race (false) and changes nothing.
    void aTransitionFromAStatusThatChangedMeanwhileIsALostRace() {
        const std::string database = createDatabase("transitions");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("transitions");
        const SparkJob a = jobOn(*first, uid, "a");
        QVERIFY(first->runs().insert(queuedRun(uid, a, "run-1", {})));
        const RunRecord seenByFirst = *first->runs().findById("run-1");
        const RunRecord seenBySecond = *second->runs().findById("run-1");
        RunRecord started = seenBySecond;
        started.run.status = JobRunStatus::Running;
        QVERIFY(second->unitOfWork().run(
            [&] { return second->runs().updateIfOwner(started, seenBySecond, false); }));
        RunRecord failed = seenByFirst;
        failed.run.status = JobRunStatus::Failed;
        failed.run.message = "decided on QUEUED";
        QVERIFY(!first->unitOfWork().run(
            [&] { return first->runs().updateIfOwner(failed, seenByFirst, false); }));
        const auto now = first->runs().findById("run-1");
        QCOMPARE(now->run.status, JobRunStatus::Running);
        QVERIFY(!now->run.message);
    }

    // Steps run at once on PostgreSQL, so durable audit writes on several threads each flush the
    // deferred queue inside their own step: the flushes take turns, every entry is written once, and
    // each thread's deferred entry comes before the durable one it wrote after it.
    void deferredAndDurableAuditFromConcurrentStepsAreAllWritten() {
        const std::string database = createDatabase("audit");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("audit");
        constexpr int threads = 4;
        constexpr int rounds = 60;
        const auto entry = [&](int thread, int round, const char* kind) {
            AuditEntry e;
            e.at = timestampNow();
            e.projectUid = uid;
            e.role = "admin";
            e.statement = std::string(kind) + " " + std::to_string(thread) + " " + std::to_string(round);
            e.outcome = ApiOperationStatus::Success;
            e.requestId = e.statement;
            return e;
        };
        std::atomic<int> failures{0};
        std::vector<std::thread> writers;
        for (int t = 0; t < threads; ++t)
            writers.emplace_back([&, t] {
                for (int r = 0; r < rounds; ++r) {
                    try {
                        stores->audit().deferAudit(entry(t, r, "deferred"));
                        stores->unitOfWork().run(
                            [&] { stores->audit().appendAudit(entry(t, r, "durable")); });
                    } catch (const std::exception&) {
                        ++failures;
                    }
                }
            });
        for (auto& writer : writers)
            writer.join();
        QCOMPARE(failures.load(), 0);
        const auto audit = stores->audit().recentAudit(uid, threads * rounds * 4);
        QCOMPARE(int(audit.size()), threads * rounds * 2);
        std::map<std::string, std::int64_t> seqOf;
        for (const auto& e : audit)
            QVERIFY2(seqOf.emplace(e.statement, e.seq).second, e.statement.c_str());
        for (int t = 0; t < threads; ++t)
            for (int r = 0; r < rounds; ++r) {
                const std::string suffix = " " + std::to_string(t) + " " + std::to_string(r);
                QVERIFY2(seqOf.at("deferred" + suffix) < seqOf.at("durable" + suffix), suffix.c_str());
            }
    }

    void changeStampMovesWhenAWriteCommits() {
        const auto writer = PgStores::open(uri());
        const auto reader = PgStores::open(uri());
        // With nothing written it stays (a transaction of the server's own may move it now and then).
        bool steady = false;
        for (int i = 0; i < 20 && !steady; ++i)
            steady = reader->changeStamp().current() == reader->changeStamp().current();
        QVERIFY(steady);
        const std::uint64_t before = reader->changeStamp().current();
        std::uint64_t duringStep = 0;
        writer->unitOfWork().run([&] {
            writer->projects().createProject("stamp");
            std::thread other([&] { duringStep = reader->changeStamp().current(); });
            other.join();
        });
        // What is cached under a stamp read while the write was not committed yet is read again after.
        const std::uint64_t after = reader->changeStamp().current();
        QVERIFY(after != before);
        QVERIFY(after != duringStep);
        QVERIFY(after != 0 && duringStep != 0);
        // No row is written to move it: commits of all writers do not pass through one row.
        auto connection = PgConnection::open(uri());
        QCOMPARE(countRows(*connection, "SELECT count(*) FROM pg_trigger WHERE tgname LIKE '%\\_stamp'"), 0);
    }

    // Seqs are drawn as events are inserted, and transactions commit in any order: an event committed
    // with a higher seq while a lower one's transaction is in progress is held back until that ended,
    // so a long poll that handed it out never misses the lower one.
    void anEventIsHandedOutOnlyOnceNothingBelowItCanStillCommit() {
        const auto stores = PgStores::open(createDatabase("settling"));
        const std::string project = stores->projects().createProject("settling");
        auto& events = stores->events();
        for (const bool commits : {true, false}) {
            const std::int64_t from = events.latestEventSeqOverall();
            EventStepLeftOpen slow(*stores, project, namedEvent("low"), commits);
            const std::int64_t low = slow.seq();
            const std::int64_t high = events.appendEvent(project, namedEvent("high")); // committed
            QVERIFY(low < high);
            const auto during = events.eventsAfter(project, from, 10);
            QVERIFY2(during.events.empty(), "an event was handed out before a lower seq could commit");
            QVERIFY(during.heldBack);
            slow.end();
            const auto settled = settledEventsAfter(events, project, from);
            QCOMPARE(settled.size(), commits ? std::size_t(2) : std::size_t(1));
            QCOMPARE(settled.back().seq, high);
            if (commits)
                QCOMPARE(settled.front().seq, low);
        }
    }

    // A transaction still running whose id is newer than any that completed is not in a snapshot's list
    // of running ones: its lower seq is still waited for when an older transaction commits a higher one.
    void aRunningTransactionNewerThanAnyCompletedHoldsBackHigherSeqs() {
        const std::string database = createDatabase("newer_running");
        const auto stores = PgStores::open(database);
        const std::string project = stores->projects().createProject("newer");
        auto& events = stores->events();
        const std::int64_t from = events.latestEventSeqOverall();
        const std::string insert =
            "INSERT INTO events(project_uid, type, job_name, at) VALUES (?, 'JOB_CREATED', ?, ?)";
        const std::string at = formatTimestamp(timestampNow());
        auto older = PgConnection::open(database);
        auto newer = PgConnection::open(database);
        older->executeScript("BEGIN");
        older->query("SELECT pg_current_xact_id()").step(); // the older id
        newer->executeScript("BEGIN");
        newer->execute(insert, project, std::string("low"), at); // a newer id, the lower seq
        const auto rollBack = qScopeGuard([&] { newer->executeScript("ROLLBACK"); });
        older->execute(insert, project, std::string("high"), at);
        older->executeScript("COMMIT");
        const auto during = events.eventsAfter(project, from, 10);
        QVERIFY2(during.events.empty(), "an event was handed out before a lower seq could commit");
        QVERIFY(during.heldBack);
        newer->executeScript("COMMIT");
        const auto settled = settledEventsAfter(events, project, from);
        QCOMPARE(settled.size(), std::size_t(2));
        QCOMPARE(settled.front().jobName, std::string("low"));
        QCOMPARE(settled.back().jobName, std::string("high"));
    }

    // Under a burst of announcements a listener is woken once per spacing (10 ms) for the projects
    // announced meanwhile, not once per commit: 200 announcements about a millisecond apart make at most
    // one notification per 10 ms of the burst, one more at each end; the last one is not lost. The
    // bound follows the burst's own length, however long a loaded machine makes it.
    void aBurstOfAnnouncementsIsNotifiedOncePerSpacing() {
        HeardNews heard(uri());
        PgConnections connections(uri());
        const auto burstMs = announcedMs(connections, [](PgEventNotifier& notifier) {
            for (int i = 0; i < 200; ++i) {
                notifier.announce("burst");
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        heard.awaitEnd();
        const auto bound = burstMs / 10 + 2;
        QVERIFY2(heard.events("burst") >= 1 && heard.events("burst") <= bound,
                 qPrintable(QString("%1 notifications in %2 ms").arg(heard.events("burst")).arg(burstMs)));
        QCOMPARE(heard.admissions(), 0);
    }

    // Admissions are told on a channel of their own, spaced as events are: a listener hears them as
    // admissions only, never as events of a project (or as news missed, which wakes every long poll),
    // and events never as admissions.
    void admissionsAreToldApartFromEventsAndSpaced() {
        HeardNews heard(uri());
        PgConnections connections(uri());
        const auto burstMs = announcedMs(connections, [](PgEventNotifier& notifier) {
            notifier.announce("project");
            for (int i = 0; i < 200; ++i) {
                notifier.announceAdmissions();
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        });
        heard.awaitEnd();
        QVERIFY2(heard.admissions() >= 1 && heard.admissions() <= burstMs / 10 + 2,
                 qPrintable(QString("%1 admission notices in %2 ms").arg(heard.admissions()).arg(burstMs)));
        QCOMPARE(heard.projects(), (std::set<std::string>{"end", "listening", "project"}));
        QCOMPARE(heard.events("project"), 1);
    }

    // A prune waits for its project's row, here held as a change of the project's settings holds it; the
    // request whose event asked for the prune does not: its publish returns while the row is held, and
    // the prune goes through once the row is let go.
    void aPruneHeldUpHoldsUpNoRequest() {
        const std::string database = createDatabase("prune_held");
        const auto stores = PgStores::open(database);
        const std::string uid = stores->projects().createProject("prune");
        EventBus bus(stores->events(), 10); // prunes every 100 events of the project
        const auto holder = PgConnection::open(database);
        holder->executeScript("SET idle_in_transaction_session_timeout = 0; BEGIN");
        const auto count = [&] {
            auto q = holder->query("SELECT count(*) FROM events WHERE project_uid = ?", uid);
            return q.step() ? q.int64(0) : -1;
        };
        {
            auto q = holder->query("SELECT 1 FROM projects WHERE uid = ? FOR NO KEY UPDATE", uid);
            QVERIFY(q.step());
        }
        for (int i = 0; i < 100; ++i)
            bus.publish(uid, namedEvent("e" + std::to_string(i)));
        QCOMPARE(count(), std::int64_t(100)); // the 100th event's prune waits for the row
        holder->execute("COMMIT");
        bus.settlePrunes();
        QCOMPARE(count(), std::int64_t(10));
    }

    // A long poll whose events are held back gets them when the transaction below them ends, with no
    // other news (its commit's notification may have come before, or be lost).
    void aLongPollGetsHeldBackEventsWithoutNews() {
        const auto stores = PgStores::open(createDatabase("held_back"));
        const std::string project = stores->projects().createProject("held");
        auto& events = stores->events();
        std::promise<EventsPage> answered; // outlives the bus, which answers every waiter as it stops
        EventBus bus(events);
        EventStepLeftOpen slow(*stores, project, namedEvent("low"), true);
        slow.seq();
        events.appendEvent(project, namedEvent("high"));
        bus.waitForEvents(project, 0, std::chrono::seconds(120),
                          [&](EventsPage page) { answered.set_value(std::move(page)); });
        auto answer = answered.get_future();
        QVERIFY(answer.wait_for(std::chrono::milliseconds(300)) == std::future_status::timeout);
        slow.end();
        // Far sooner than the poll's own end (2 minutes): a hang guard, not a duration.
        QVERIFY(answer.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
        const EventsPage page = answer.get();
        QCOMPARE(page.events.size(), std::size_t(2));
        QCOMPARE(page.events[0].jobName, std::string("low"));
        QCOMPARE(page.events[1].jobName, std::string("high"));
    }

    // Settling from snapshots alone: what each one's transactions settle once they all ended.
    void settledSeqsFollowTheTransactionsInProgress() {
        SettledEventSeqs seqs;
        QCOMPARE(seqs.observe(10, 12, 5), std::int64_t(0)); // 10 and 11 may still commit below 5
        QCOMPARE(seqs.observe(11, 13, 7), std::int64_t(0));
        QCOMPARE(seqs.observe(12, 14, 8), std::int64_t(5)); // what 10 and 11 drew has ended
        QCOMPARE(seqs.observe(12, 15, 6), std::int64_t(5)); // an older view adds nothing
        QCOMPARE(seqs.observe(14, 14, 8), std::int64_t(8)); // nothing in progress
        QCOMPARE(seqs.observe(14, 16, 3), std::int64_t(8)); // below what is settled
        QCOMPARE(seqs.observe(20, 20, 9), std::int64_t(9));
        // A transaction that stays in progress: what is kept is bounded, and settles once it ends.
        for (std::int64_t i = 1; i <= std::int64_t(SettledEventSeqs::kWaitingLimit) + 100; ++i)
            QCOMPARE(seqs.observe(21, 21 + i, 9 + i), std::int64_t(9));
        const std::int64_t last = 21 + std::int64_t(SettledEventSeqs::kWaitingLimit) + 100;
        QVERIFY(seqs.observe(last, last, 9) > 9);
        QCOMPARE(seqs.observe(last + 1, last + 1, last), last);
    }

    void aKeyRevokedByAnotherProcessIsRefused() {
        const auto serving = PgStores::open(uri());
        const auto tool = PgStores::open(uri());
        const CreatedKey key = tool->keys().createKey("keys", Role::Operator);
        const auto principal = serving->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret);
        QVERIFY(principal);
        QCOMPARE(principal->role, Role::Operator);
        QVERIFY(!serving->keys().authenticate(key.projectUid, key.apiKey, "wrong"));
        QVERIFY(tool->keys().revokeKey(key.apiKey));
        QVERIFY(!serving->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret));
    }

private:
    std::string uri() const { return m_cluster.connectionUri().toStdString(); }

    static ProjectEvent namedEvent(const std::string& jobName) {
        ProjectEvent e;
        e.type = "JOB_CREATED";
        e.jobName = jobName;
        e.at = timestampNow();
        return e;
    }

    // A fresh database on the cluster; its URI.
    // A job (and, with `withCluster`, its cluster `c`) of the project.
    static SparkJob jobOn(Stores& stores, const std::string& uid, const std::string& name,
                          bool withCluster = true) {
        if (withCluster) {
            Cluster c;
            c.clusterId = "cluster-c";
            c.name = "c";
            c.type = "Spark";
            c.maxOcu = 2;
            c.minOcu = 1;
            c.createdAt = c.updatedAt = timestampNow();
            stores.clusters().insertCluster(uid, c);
        }
        SparkJob j;
        j.jobId = "job-" + name;
        j.name = name;
        j.type = JobType::Jar;
        j.cluster = "c";
        j.parameters = {"--class", "Main", "app.jar"};
        j.maxConcurrentRuns = 3;
        j.createdAt = j.updatedAt = timestampNow();
        stores.jobs().insertJob(uid, j);
        return j;
    }

    static RunRecord queuedRun(const std::string& uid, const SparkJob& job, const std::string& runId,
                               std::optional<std::string> key) {
        RunRecord r;
        r.projectUid = uid;
        r.cluster = job.cluster;
        r.run.jobRunId = runId;
        r.run.jobName = job.name;
        r.run.jobId = job.jobId;
        r.run.status = JobRunStatus::Queued;
        r.run.idempotencyKey = std::move(key);
        r.run.queuedAt = timestampNow();
        return r;
    }

    std::string createDatabase(const std::string& name) {
        auto connection = PgConnection::open(uri());
        connection->executeScript("CREATE DATABASE " + name);
        std::string database = uri();
        return database.substr(0, database.rfind('/') + 1) + name;
    }

    PostgresCluster m_cluster;
};

JOBDECK_TEST_GUILESS_MAIN(TestPgStores)
#include "tst_pgstores.moc"
