// The SQLite stores, SqliteDatabase and EventBus in-process, on a temporary data directory: what only
// SQLite has (its file, its connections, its transactions); the contract of every store on both
// backends is tst_storecontract's.
#include "core/statements/StatementRefusals.h"
#include "service/runs/EventBus.h"
#include "service/statements/RequestRegistry.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/DatabaseFaultError.h"
#include "service/stores/DatabaseTimeouts.h"
#include "service/stores/OpenStores.h"
#include "service/stores/SqliteStores.h"
#include "tests/runner/SuiteRegistry.h"

#include <boost/asio/io_context.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <future>
#include <memory>
#include <optional>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

std::string dbPath(const QTemporaryDir& dir) {
    return dir.filePath("jobdeck.db").toStdString();
}

int scalar(SqliteDatabase& db, const std::string& sql) {
    auto q = db.query(sql);
    q.step();
    return q.integer(0);
}

AuditEntry auditEntry(const std::string& projectUid, const std::string& statement) {
    AuditEntry e;
    e.at = timestampNow();
    e.projectUid = projectUid;
    e.keyId = "k";
    e.role = "viewer";
    e.statement = statement;
    e.outcome = ApiOperationStatus::Success;
    e.requestId = "r-" + statement;
    return e;
}

std::vector<std::string> auditStatements(AuditStore& audit, const std::string& projectUid) {
    std::vector<std::string> statements;
    for (const auto& entry : audit.recentAudit(projectUid, 100))
        statements.push_back(entry.statement);
    return statements;
}

// How long a write transaction on `db` took to be refused as timed out; nullopt when it was not.
std::optional<std::chrono::milliseconds> refusedWrite(SqliteDatabase& db) {
    const auto started = std::chrono::steady_clock::now();
    try {
        db.transaction(
            [&] { db.execute("INSERT INTO projects(uid, name, created_at) VALUES ('x', 'x', 'x')"); });
    } catch (const std::exception& e) {
        if (DatabaseFaultError::faultOf(e) != DatabaseFault::TimedOut) {
            qWarning("refused, but not as timed out: %s", e.what());
            return std::nullopt;
        }
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                     started);
    }
    qWarning("the write went through a lock held elsewhere");
    return std::nullopt;
}

ProjectEvent jobEvent(std::string type, std::string job) {
    ProjectEvent e;
    e.type = std::move(type);
    e.jobName = std::move(job);
    return e;
}

} // namespace

class TestStorage final : public QObject {
    Q_OBJECT

private slots:
    void createsTheSchemaAtOpen() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open("sqlite:" + dbPath(dir));
        auto& db = stores->database();
        QCOMPARE(scalar(db, "SELECT version FROM schema_version"), SqliteStores::schemaVersion());
        for (const char* table :
             {"projects", "api_keys", "jobs", "clusters", "runs", "requests", "audit", "events"})
            QVERIFY2(
                scalar(db, std::string("SELECT count(*) FROM sqlite_master WHERE type='table' AND name='") +
                               table + "'") == 1,
                table);
        auto mode = db.query("PRAGMA journal_mode");
        QVERIFY(mode.step());
        QCOMPARE(mode.text(0), std::string("wal"));
        QCOMPARE(scalar(db, "PRAGMA foreign_keys"), 1);
        QCOMPARE(scalar(db, "PRAGMA synchronous"), 2); // FULL
    }

    void reopeningKeepsDataAndDoesNotMigrateAgain() {
        QTemporaryDir dir;
        std::string uid;
        {
            auto stores = SqliteStores::open(dbPath(dir)); // a plain path works as well
            uid = stores->keys().createKey("alpha", Role::Admin).projectUid;
        }
        auto stores = SqliteStores::open("sqlite:" + dbPath(dir));
        QCOMPARE(stores->projects().findProjectUidByName("alpha").value_or(""), uid);
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM schema_version"), 1);
    }

    void refusesANewerSchemaAndLeavesItAlone() {
        QTemporaryDir dir;
        {
            auto stores = SqliteStores::open("sqlite:" + dbPath(dir));
            stores->database().execute("UPDATE schema_version SET version = ?",
                                       SqliteStores::schemaVersion() + 5);
        }
        try {
            SqliteStores::open("sqlite:" + dbPath(dir));
            QFAIL("a newer schema was accepted");
        } catch (const DatabaseError& e) {
            const std::string message = e.what();
            QVERIFY2(message.find("newer than this jobdeckd") != std::string::npos, e.what());
            QVERIFY2(message.find("was not changed") != std::string::npos, e.what());
        }
        auto db = SqliteDatabase::open(dbPath(dir));
        QCOMPARE(scalar(*db, "SELECT version FROM schema_version"), SqliteStores::schemaVersion() + 5);
    }

    void refusesUnsupportedUrls() {
        // A PostgreSQL URL is openStores' to hand to PgStores, never a SQLite file name.
        QVERIFY_THROWS_EXCEPTION(DatabaseError, SqliteStores::open("postgresql://localhost/jobdeck"));
        QVERIFY_THROWS_EXCEPTION(DatabaseError, SqliteStores::open("sqlite:"));
        try {
            openStores("mysql://localhost/jobdeck");
            QFAIL("a mysql:// URL was opened");
        } catch (const DatabaseError& e) {
            // The refusal names what is accepted.
            QVERIFY2(std::string(e.what()).find("postgresql://") != std::string::npos, e.what());
        }
    }

    void refusesAFileThatIsNotADatabase() {
        QTemporaryDir dir;
        QFile file(dir.filePath("jobdeck.db"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        QVERIFY_THROWS_EXCEPTION(DatabaseError, SqliteStores::open(dbPath(dir)));
    }

    void authenticatesOnlyTheRightSecret() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const CreatedKey key = stores->keys().createKey("alpha", Role::Operator);
        QCOMPARE(key.apiKey.size(), std::size_t(32));
        QCOMPARE(key.apiSecret.size(), std::size_t(64));
        QCOMPARE(key.projectUid.size(), std::size_t(36));

        const auto principal = stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret);
        QVERIFY(principal);
        QCOMPARE(principal->projectUid, key.projectUid);
        QCOMPARE(principal->projectName, std::string("alpha"));
        QCOMPARE(principal->keyId, key.apiKey);
        QVERIFY(principal->role == Role::Operator);

        std::string wrong = key.apiSecret;
        wrong.back() = wrong.back() == '0' ? '1' : '0';
        QVERIFY(!stores->keys().authenticate(key.projectUid, key.apiKey, wrong));
        QVERIFY(!stores->keys().authenticate(key.projectUid, key.apiKey, ""));
        QVERIFY(!stores->keys().authenticate(key.projectUid, "unknown", key.apiSecret));
        QVERIFY(!stores->keys().authenticate("other-project", key.apiKey, key.apiSecret));

        // The secret is not stored, only a salted hash of it.
        auto q = stores->database().query("SELECT count(*) FROM api_keys WHERE secret_hash = ? OR salt = ?",
                                          key.apiSecret, key.apiSecret);
        q.step();
        QCOMPARE(q.integer(0), 0);
    }

    void rolesHaveNames() {
        for (const Role role : {Role::Viewer, Role::Operator, Role::Admin})
            QVERIFY(roleFromName(roleName(role)) == role);
        QVERIFY(!roleFromName("root"));
        QVERIFY(!roleFromName("Admin"));
    }

    void transactionsRollBackOnException() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        auto& db = stores->database();
        try {
            db.transaction([&] {
                db.execute("INSERT INTO projects(uid, name, created_at) VALUES ('u', 'n', 'now')");
                throw std::runtime_error("abort");
            });
        } catch (const std::runtime_error&) {
        }
        QCOMPARE(scalar(db, "SELECT count(*) FROM projects"), 0);
        // A nested transaction joins the outer one.
        const int n = db.transaction([&] {
            db.execute("INSERT INTO projects(uid, name, created_at) VALUES ('u', 'n', 'now')");
            return db.transaction([&] { return scalar(db, "SELECT count(*) FROM projects"); });
        });
        QCOMPARE(n, 1);
        // Constraint violations are reported as such.
        try {
            db.execute("INSERT INTO projects(uid, name, created_at) VALUES ('u2', 'n', 'now')");
            QFAIL("duplicate name accepted");
        } catch (const DatabaseError& e) {
            QVERIFY(e.isConstraintViolation());
        }
    }

    // Another process holds the database's write lock. The first write waits the whole lock wait;
    // the writes behind it are refused at once while the lock stays held (each waiting again would
    // answer the n-th only after n lock waits); once the lock is free, writes go through and the next
    // lock held elsewhere is waited for in full again. Lower bounds are exact; the upper one is a
    // third of the lock wait against the few milliseconds it takes.
    void writesBehindAGivenUpLockWaitAreRefusedAtOnce() {
        QTemporaryDir dir;
        const DatabaseTimeouts saved = DatabaseTimeouts::current();
        DatabaseTimeouts quick = saved;
        quick.statement = 3s;
        DatabaseTimeouts::set(quick);
        auto stores = SqliteStores::open(dbPath(dir));
        DatabaseTimeouts::set(saved);
        const auto lockWait = std::chrono::duration_cast<std::chrono::milliseconds>(quick.lockWait());
        sqlite3* raw = nullptr;
        const int opened = sqlite3_open(dbPath(dir).c_str(), &raw);
        const std::unique_ptr<sqlite3, int (*)(sqlite3*)> holder(raw, &sqlite3_close); // closed on any exit
        QCOMPARE(opened, SQLITE_OK);
        const auto exec = [&](const char* sql) {
            return sqlite3_exec(holder.get(), sql, nullptr, nullptr, nullptr) == SQLITE_OK;
        };
        QVERIFY(exec("BEGIN EXCLUSIVE"));
        auto& writer = stores->database();
        const auto first = refusedWrite(writer);
        QVERIFY(first && *first >= lockWait);
        for (int i = 0; i < 3; ++i) {
            const auto refusedIn = refusedWrite(writer);
            QVERIFY(refusedIn);
            QVERIFY2(*refusedIn < lockWait / 3,
                     qPrintable(QString("write %1 waited %2 ms").arg(i).arg(refusedIn->count())));
        }
        QVERIFY(exec("COMMIT"));
        writer.transaction(
            [&] { writer.execute("INSERT INTO projects(uid, name, created_at) VALUES ('y', 'y', 'y')"); });
        QVERIFY(exec("BEGIN EXCLUSIVE"));
        const auto again = refusedWrite(writer);
        QVERIFY(again && *again >= lockWait);
        QVERIFY(exec("ROLLBACK"));
    }

    void concurrentWritersAllSucceed() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto uid = stores->keys().createKey("alpha", Role::Admin).projectUid;
        std::vector<std::future<void>> writers;
        for (int t = 0; t < 4; ++t)
            writers.push_back(std::async(std::launch::async, [&, t] {
                for (int i = 0; i < 25; ++i)
                    stores->statuses().saveRequestStatus(uid,
                                                         "r" + std::to_string(t) + "-" + std::to_string(i),
                                                         StatusJson(ApiStatus::success({})));
            }));
        for (auto& w : writers)
            w.get();
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM requests"), 100);
    }

    void eventsArePersistedInOrderPerProject() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        const auto b = stores->keys().createKey("beta", Role::Admin).projectUid;
        EventBus bus(stores->events());
        const auto s1 = bus.publish(a, jobEvent("JOB_CREATED", "j1"));
        const auto s2 = bus.publish(b, jobEvent("JOB_CREATED", "other"));
        const auto s3 = bus.publish(a, jobEvent("JOB_DELETED", "j1"));
        QVERIFY(s1 < s2 && s2 < s3);
        const auto page = bus.page(a, 0);
        QCOMPARE(page.events.size(), std::size_t(2));
        QCOMPARE(page.events[0].seq, s1);
        QCOMPARE(page.events[0].type, std::string("JOB_CREATED"));
        QCOMPARE(page.events[1].seq, s3);
        QCOMPARE(page.next, s3);
        QVERIFY(page.events[0].at != TimePoint{});
        QVERIFY(bus.page(a, s3).events.empty());
        QCOMPARE(bus.page(a, s3).next, s3);
    }

    void waitAnswersWhenTheWaitRunsOut() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        EventBus bus(stores->events());
        std::promise<EventsPage> answered;
        auto future = answered.get_future();
        QElapsedTimer timer;
        timer.start();
        bus.waitForEvents(a, 0, 2s, [&](EventsPage p) { answered.set_value(std::move(p)); });
        // The caller's thread is not held: it is back long before the wait can run out.
        QVERIFY(future.wait_for(0s) == std::future_status::timeout);
        QVERIFY(future.wait_for(10s) == std::future_status::ready);
        const auto page = future.get();
        QVERIFY(timer.elapsed() >= 1990);
        QVERIFY(page.events.empty());
        QVERIFY(!page.reload);
        QCOMPARE(page.next, std::int64_t(0));
    }

    void waitWakesUpOnPublishOfItsProjectOnly() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        const auto b = stores->keys().createKey("beta", Role::Admin).projectUid;
        EventBus bus(stores->events());
        std::promise<EventsPage> answered;
        std::atomic<int> calls = 0;
        QElapsedTimer timer;
        timer.start();
        bus.waitForEvents(a, 0, 10s, [&](EventsPage p) {
            ++calls;
            answered.set_value(std::move(p));
        });
        bus.publish(b, jobEvent("JOB_CREATED", "not-for-a"));
        auto future = answered.get_future();
        QVERIFY(future.wait_for(300ms) == std::future_status::timeout);
        const auto seq = bus.publish(a, jobEvent("JOB_CREATED", "j1"));
        QVERIFY(future.wait_for(5s) == std::future_status::ready);
        const auto page = future.get();
        QVERIFY2(timer.elapsed() < 9500,
                 "hang guard: woken by the publish, not by its 10 s wait running out");
        QCOMPARE(page.events.size(), std::size_t(1));
        QCOMPARE(page.events[0].jobName, std::string("j1"));
        QCOMPARE(page.next, seq);
        std::this_thread::sleep_for(50ms);
        QCOMPARE(calls.load(), 1);
    }

    void waitAnswersAtOnceWhenEventsAreThere() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        EventBus bus(stores->events());
        bus.publish(a, jobEvent("JOB_CREATED", "j1"));
        std::promise<EventsPage> answered;
        QElapsedTimer timer;
        timer.start();
        bus.waitForEvents(a, 0, 10s, [&](EventsPage p) { answered.set_value(std::move(p)); });
        auto future = answered.get_future();
        QVERIFY(future.wait_for(5s) == std::future_status::ready);
        QVERIFY2(timer.elapsed() < 9500, "hang guard: answered at once, not when its 10 s wait ran out");
        QCOMPARE(future.get().events.size(), std::size_t(1));
    }

    void stopAnswersPendingWaiters() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        EventBus bus(stores->events());
        std::atomic<int> calls = 0;
        for (int i = 0; i < 3; ++i)
            bus.waitForEvents(a, 0, 60s, [&](EventsPage) { ++calls; });
        QElapsedTimer timer;
        timer.start();
        bus.stop();
        QVERIFY2(timer.elapsed() < 30000, "hang guard: stop() answers the waiters without their 60 s waits");
        QCOMPARE(calls.load(), 3);
        bus.waitForEvents(a, 0, 60s, [&](EventsPage) { ++calls; }); // after stop: answered at once
        QCOMPARE(calls.load(), 4);
        bus.stop();
    }

    void executorIsSafeUnderConcurrentStatements() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        EventBus bus(stores->events());
        StatementExecutor executor(*stores, bus);
        const auto key = stores->keys().createKey("alpha", Role::Operator);
        RequestContext context;
        context.principal = *stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret);
        QCOMPARE(
            executor.execute(context, "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0").apiStatus(),
            ApiOperationStatus::Success);
        // Eight threads race to create the same job: exactly one wins, the others are told it exists.
        std::vector<std::future<StatusJson>> racers;
        for (int t = 0; t < 8; ++t)
            racers.push_back(std::async(std::launch::async, [&] {
                return executor.execute(context,
                                        "CREATE JOB same TYPE = 'JAR' PARAMETERS = ('a.jar') CLUSTER = 'c'");
            }));
        int won = 0;
        for (auto& r : racers) {
            const StatusJson status = r.get();
            if (status.apiStatus() == ApiOperationStatus::Success)
                ++won;
            else
                QCOMPARE(status.errorMessage().value_or(""), std::string("Job same already exists"));
        }
        QCOMPARE(won, 1);
        // Distinct jobs, reads and alters interleaved: all succeed, and every statement is audited once.
        std::vector<std::future<bool>> workers;
        for (int t = 0; t < 4; ++t)
            workers.push_back(std::async(std::launch::async, [&, t] {
                bool ok = true;
                for (int i = 0; i < 10; ++i) {
                    const std::string name = "j" + std::to_string(t) + "_" + std::to_string(i);
                    ok &= executor
                              .execute(context, "CREATE JOB " + name +
                                                    " TYPE = 'JAR' PARAMETERS = ('a.jar') "
                                                    "CLUSTER = 'c'")
                              .apiStatus() == ApiOperationStatus::Success;
                    ok &= executor.execute(context, "ALTER JOB " + name + " SET PARAMETERS = ('b.jar')")
                              .apiStatus() == ApiOperationStatus::Success;
                    ok &= executor.execute(context, "SHOW JOBS").apiStatus() == ApiOperationStatus::Success;
                }
                return ok;
            }));
        for (auto& w : workers)
            QVERIFY(w.get());
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM jobs"), 41);
        stores->flushDeferred(); // the reads' entries are committed in groups
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM audit"), 1 + 8 + 4 * 10 * 3);
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM events WHERE type = 'JOB_CREATED'"), 41);
        // Run statements without a run manager fail, never succeed silently.
        const StatusJson run = executor.execute(context, "RUN JOB same");
        QCOMPARE(run.apiStatus(), ApiOperationStatus::Failed);
        QCOMPARE(run.errorMessage().value_or(""), std::string("Runs are not available on this service"));
    }

    void prunedHistoryAsksForAReload() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        EventBus bus(stores->events(), 10);
        std::int64_t last = 0;
        for (int i = 0; i < 100; ++i) // with 10 kept, pruning happens every 100 events of a project
            last = bus.publish(a, jobEvent("JOB_ALTERED", "j" + std::to_string(i)));
        bus.settlePrunes(); // the bus prunes on a thread of its own
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM events"), 10);
        const auto stale = bus.page(a, 5);
        QVERIFY(stale.reload);
        QVERIFY(stale.events.empty());
        QCOMPARE(stale.next, last);
        const auto fresh = bus.page(a, last - 3);
        QVERIFY(!fresh.reload);
        QCOMPARE(fresh.events.size(), std::size_t(3));
        // A seq this database never handed out: the client followed another database.
        QVERIFY(bus.page(a, last + 1000).reload);
    }

    // With 1,500 kept, pruning comes every 150 events (a tenth), not every 100: the 1,600th event leaves
    // them all, the 1,650th brings the project back to the 1,500 newest.
    void pruningComesEveryTenthOfTheKeptNumber() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto a = stores->keys().createKey("alpha", Role::Admin).projectUid;
        EventBus bus(stores->events(), 1500);
        for (int i = 0; i < 1649; ++i) {
            bus.publish(a, jobEvent("JOB_ALTERED", "j"));
            bus.settlePrunes(); // each prune as the event that asked for it left the count
        }
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM events"), 1649);
        bus.publish(a, jobEvent("JOB_ALTERED", "j"));
        bus.settlePrunes();
        QCOMPARE(scalar(stores->database(), "SELECT count(*) FROM events"), 1500);
    }

    void describeIsCachedUnderTheStampOfEachRequestOnly() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto key = stores->keys().createKey("alpha", Role::Operator);
        EventBus bus(stores->events());
        StatementExecutor executor(*stores, bus);
        // A context per request, as the HTTP routes build one when the request's key is checked.
        const auto contextOfARequest = [&] {
            RequestContext context;
            const auto principal =
                stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret, &context.changeStamp);
            if (principal)
                context.principal = *principal;
            return context;
        };
        const RequestContext setup = contextOfARequest();
        QCOMPARE(
            executor.execute(setup, "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0").apiStatus(),
            ApiOperationStatus::Success);
        QCOMPARE(executor.execute(setup, "CREATE JOB j TYPE = 'JAR' PARAMETERS = ('a.jar') CLUSTER = 'c'")
                     .apiStatus(),
                 ApiOperationStatus::Success);
        const RequestContext first = contextOfARequest(); // the key is cached from here on
        QVERIFY(first.changeStamp != 0);
        const StatusJson before = executor.execute(first, "DESCRIBE JOB j");
        QVERIFY(before.text().find("a.jar") != std::string::npos);
        QCOMPARE(executor.execute(first, "ALTER JOB j SET PARAMETERS = ('b.jar')").apiStatus(),
                 ApiOperationStatus::Success);
        // The next request's key comes from the key cache: its stamp must be read for it, not kept
        // with the key, or the DESCRIBE below would get the answer cached before the ALTER.
        const RequestContext second = contextOfARequest();
        QVERIFY(second.changeStamp != first.changeStamp);
        const StatusJson after = executor.execute(second, "DESCRIBE JOB j");
        QVERIFY2(after.text().find("b.jar") != std::string::npos, after.text().c_str());
        // A context whose principal is reused without a stamp of its own reads the stamp itself.
        RequestContext reused;
        reused.principal = first.principal;
        QCOMPARE(executor.execute(first, "ALTER JOB j SET PARAMETERS = ('c.jar')").apiStatus(),
                 ApiOperationStatus::Success);
        const StatusJson reread = executor.execute(reused, "DESCRIBE JOB j");
        QVERIFY2(reread.text().find("c.jar") != std::string::npos, reread.text().c_str());
    }

    void changeStampMovesWithEveryCommitWhoeverMadeIt() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto first = stores->changeStamp().current();
        QCOMPARE(stores->changeStamp().current(), first); // nothing committed since
        const auto project =
            stores->keys().createKey("alpha", Role::Admin).projectUid; // this process's writer
        const auto second = stores->changeStamp().current();
        QVERIFY(second != first);
        {
            // Another connection, as `sqlite3` or a second process would be.
            auto other = SqliteDatabase::open(dbPath(dir));
            QCOMPARE(other->execute("UPDATE projects SET max_concurrent_runs_limit = 3"), 1);
        }
        const auto third = stores->changeStamp().current();
        QVERIFY(third != second && third != first);
        // Looked at from several threads at once (several watch connections): after a commit, every
        // look differs from the stamp read before it.
        std::vector<std::future<bool>> lookers;
        for (int t = 0; t < 4; ++t)
            lookers.push_back(std::async(std::launch::async, [&, t] {
                bool ok = true;
                for (int i = 0; i < 50; ++i) {
                    const auto before = stores->changeStamp().current();
                    stores->statuses().saveRequestStatus(project,
                                                         "r" + std::to_string(t) + "-" + std::to_string(i),
                                                         StatusJson(ApiStatus::failed("x")));
                    ok &= stores->changeStamp().current() != before;
                }
                return ok;
            }));
        for (auto& looker : lookers)
            QVERIFY(looker.get());
        // Another process (jobdeckd keys create on the same data directory), one commit after another.
        for (int i = 0; i < 3; ++i) {
            const auto before = stores->changeStamp().current();
            QProcess other;
            other.start(QStringLiteral(JOBDECKD_PATH),
                        {QStringLiteral("keys"), QStringLiteral("create"), QStringLiteral("--data-dir"),
                         dir.path(), QStringLiteral("--project"), QStringLiteral("beta"),
                         QStringLiteral("--role"), QStringLiteral("viewer")});
            QVERIFY(other.waitForFinished(10000));
            QCOMPARE(other.exitCode(), 0);
            QVERIFY(stores->changeStamp().current() != before);
            QVERIFY(stores->projects().findProjectUidByName("beta"));
        }
    }

    void cachedKeysNoticeARevocationByAnotherProcess() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const CreatedKey key = stores->keys().createKey("alpha", Role::Operator);
        QVERIFY(stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret)); // now cached
        const auto before = stores->keys().secretComparisons();
        QVERIFY(stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret));
        QVERIFY(
            !stores->keys().authenticate(key.projectUid, key.apiKey, "wrong")); // the cache checks the secret
        QCOMPARE(stores->keys().secretComparisons() - before, std::uint64_t(2));
        {
            // Another connection, as `sqlite3` or a second process would be.
            auto other = SqliteStores::open(dbPath(dir));
            QVERIFY(other->keys().revokeKey(key.apiKey));
        }
        QVERIFY(!stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret));
    }

    void deferredAuditKeepsTheOrderOfTheAnswers() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        stores->audit().deferAudit(auditEntry(project, "read 1"));
        stores->audit().appendAudit(auditEntry(project, "write 2")); // commits "read 1" first
        stores->audit().deferAudit(auditEntry(project, "read 3"));
        // Reading the audit commits what is deferred: newest first, in the order they were made.
        QCOMPARE(auditStatements(stores->audit(), project),
                 (std::vector<std::string>{"read 3", "write 2", "read 1"}));
        QVERIFY(auditStatements(stores->audit(), stores->keys().createKey("beta", Role::Admin).projectUid)
                    .empty());
    }

    void aFailedDurableWriteKeepsTheQueuedEntries() {
        // A durable write commits the queue inside its own transaction; when that transaction then rolls
        // back, the queued entries of earlier requests must not go with it. The database itself refuses
        // the durable entry (a trigger another connection adds, as a full disk or a constraint would).
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        SqliteDatabase::open(dbPath(dir))
            ->executeScript("CREATE TRIGGER refuse BEFORE INSERT ON audit WHEN NEW.statement = 'write 2' "
                            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;");
        stores->audit().deferAudit(auditEntry(project, "read 1"));
        QVERIFY_THROWS_EXCEPTION(std::exception, stores->audit().appendAudit(auditEntry(project, "write 2")));
        stores->audit().deferAudit(auditEntry(project, "read 3"));
        QCOMPARE(auditStatements(stores->audit(), project), (std::vector<std::string>{"read 3", "read 1"}));
        // A refusal caught inside the outer transaction undoes its own statement only: the rest commits.
        stores->audit().deferAudit(auditEntry(project, "read 4"));
        stores->database().transaction([&] {
            stores->audit().appendAudit(auditEntry(project, "write 5"));
            try {
                stores->audit().appendAudit(auditEntry(project, "write 2"));
            } catch (const std::exception&) {
            }
        });
        QCOMPARE(auditStatements(stores->audit(), project),
                 (std::vector<std::string>{"write 5", "read 4", "read 3", "read 1"}));
    }

    void deferredGroupsOfEverySizeKeepOrderAndFields() {
        // 75 entries: chunks of 64 and 8 rows, then single rows; the same for statuses.
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        std::vector<std::string> expected;
        for (int i = 0; i < 75; ++i) {
            AuditEntry entry = auditEntry(project, "read " + std::to_string(i));
            if (i == 70) {
                entry.outcome = ApiOperationStatus::Failed;
                entry.errorMessage = "Job j does not exist";
                entry.headers = {{"x-onehouse-region", "eu"}, {"x-onehouse-uuid", "u"}};
            }
            stores->audit().deferAudit(entry);
            expected.insert(expected.begin(), entry.statement);
        }
        for (int i = 0; i < 75; ++i) {
            const std::string id = "r" + std::to_string(i);
            if (i % 5 == 0) // acknowledged before its status was known: both rows queued
                stores->statuses().deferPendingRequest(project, id);
            if (i % 7 != 0)
                stores->statuses().deferRequestStatus(project, id,
                                                      StatusJson(ApiStatus::failed("nope " + id)));
        }
        stores->flushDeferred();
        QCOMPARE(auditStatements(stores->audit(), project), expected);
        const auto entries = stores->audit().recentAudit(project, 100);
        const AuditEntry& failed = entries[75 - 1 - 70];
        QCOMPARE(failed.statement, std::string("read 70"));
        QCOMPARE(failed.outcome, ApiOperationStatus::Failed);
        QCOMPARE(failed.errorMessage, std::optional<std::string>("Job j does not exist"));
        QCOMPARE(failed.headers.size(), std::size_t(2));
        QCOMPARE(failed.headers.at("x-onehouse-region"), std::string("eu"));
        QVERIFY(entries.front().headers.empty());
        QCOMPARE(entries.front().requestId, std::string("r-read 74"));
        for (int i = 0; i < 75; ++i) {
            const std::string id = "r" + std::to_string(i);
            const auto status = stores->statuses().findCommittedRequestStatus(project, id);
            if (i % 7 != 0) {
                QVERIFY(status);
                QCOMPARE(status->errorMessage, std::optional<std::string>("nope " + id));
            } else if (i % 5 == 0) {
                QVERIFY(status);
                QVERIFY(!status->isFinal());
            } else {
                QVERIFY(!status);
            }
        }
    }

    void deferredWritesReachTheDatabaseAtClose() {
        QTemporaryDir dir;
        std::string project;
        {
            auto stores = SqliteStores::open(dbPath(dir));
            project = stores->keys().createKey("alpha", Role::Admin).projectUid;
            stores->audit().deferAudit(auditEntry(project, "read"));
            stores->statuses().deferRequestStatus(project, "r1", StatusJson(ApiStatus::failed("nope")));
        }
        auto db = SqliteDatabase::open(dbPath(dir));
        QCOMPARE(scalar(*db, "SELECT count(*) FROM audit WHERE statement = 'read'"), 1);
        QCOMPARE(scalar(*db, "SELECT count(*) FROM requests WHERE request_id = 'r1'"), 1);
    }

    void readsSeeWhatTheirTransactionWrote() {
        QTemporaryDir dir;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        Cluster cluster;
        cluster.clusterId = "c-1";
        cluster.name = "c";
        cluster.type = "Spark";
        stores->database().transaction([&] {
            stores->clusters().insertCluster(project, cluster);
            QVERIFY(stores->clusters().findCluster(project, "c")); // through the writer, uncommitted
        });
        QVERIFY(stores->clusters().findCluster(project, "c")); // through a reader, committed
    }

    void pendingRequestsAreFailedAfterARestart() {
        QTemporaryDir dir;
        boost::asio::io_context io;
        std::string project;
        std::string pending;
        std::string finished;
        {
            auto stores = SqliteStores::open(dbPath(dir));
            project = stores->keys().createKey("alpha", Role::Admin).projectUid;
            RequestRegistry registry(stores->statuses(), io);
            pending = registry.begin(project);
            registry.acknowledge(project, pending, RequestRegistry::Durability::Durable);
            finished = registry.begin(project);
            registry.acknowledge(project, finished, RequestRegistry::Durability::Durable);
            registry.finish(project, finished, StatusJson(ApiStatus::failed("done")),
                            RequestRegistry::Stored::No);
            QVERIFY(*registry.find(project, pending) == StatusJson(ApiStatus::pending()));
        } // the process "ends" with one request unfinished
        auto stores = SqliteStores::open(dbPath(dir));
        RequestRegistry registry(stores->statuses(), io);
        const auto status = registry.find(project, pending);
        QVERIFY(status);
        QVERIFY(*status == StatusJson(ApiStatus::failed(requestInterruptedByRestartMessage())));
        QVERIFY(*registry.find(project, finished) == StatusJson(ApiStatus::failed("done")));
        QVERIFY(!registry.find(stores->keys().createKey("beta", Role::Admin).projectUid, pending));
    }

    void readStatusesAreStoredWhenSomeoneMayAskLater() {
        QTemporaryDir dir;
        boost::asio::io_context io;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        RequestRegistry registry(stores->statuses(), io);
        const StatusJson shown(ApiStatus::failed("Job x does not exist"));
        using Stored = RequestRegistry::Stored;
        // Answered at once: kept in memory only.
        const std::string inline_ = registry.begin(project);
        registry.finish(project, inline_, shown, Stored::OnlyIfAcknowledged);
        QVERIFY(*registry.find(project, inline_) == shown);
        QVERIFY(!stores->statuses().findRequestStatus(project, inline_));
        // Its id handed out first: stored.
        const std::string polled = registry.begin(project);
        registry.acknowledge(project, polled, RequestRegistry::Durability::Deferred);
        registry.finish(project, polled, shown, Stored::OnlyIfAcknowledged);
        QVERIFY(StatusJson(*stores->statuses().findRequestStatus(project, polled)) == shown);
        // Handed out after it finished: stored then.
        registry.acknowledge(project, inline_, RequestRegistry::Durability::Deferred);
        QVERIFY(StatusJson(*stores->statuses().findRequestStatus(project, inline_)) == shown);
        // Finished again (an id never handed out before): the later status replaces the first.
        const std::string twice = RequestRegistry::newId();
        registry.finish(project, twice, StatusJson(ApiStatus::failed("first")), Stored::OnlyIfAcknowledged);
        registry.finish(project, twice, shown, Stored::OnlyIfAcknowledged);
        QVERIFY(*registry.find(project, twice) == shown);
        QVERIFY(!registry.find(project, RequestRegistry::newId()));
        // A graceful stop stores the rest.
        const std::string last = registry.begin(project);
        registry.finish(project, last, shown, Stored::OnlyIfAcknowledged);
        registry.storeRemembered();
        QVERIFY(StatusJson(*stores->statuses().findRequestStatus(project, last)) == shown);
        // Leaving memory: stored, so a later lookup still finds it.
        const std::string early = registry.begin(project);
        registry.finish(project, early, shown, Stored::OnlyIfAcknowledged);
        for (int i = 0; i < 10'000; ++i)
            registry.finish(project, registry.begin(project),
                            StatusJson(ApiStatus::success(nlohmann::json::object())), Stored::Yes);
        QVERIFY(*registry.find(project, early) == shown);
        // Committed and final: found without committing the queue (as the IO threads look it up).
        QVERIFY(*registry.findQuickly(project, early) == shown);
        QVERIFY(!registry.findQuickly(project, "made-up"));
        QVERIFY(!registry.findQuickly(stores->keys().createKey("beta", Role::Admin).projectUid, early));
    }

    // Answers of large reads polled often (SHOW JOB_RUNS of a long queue every 100 ms) leave memory by
    // size, long before 10,000 of them are kept, and are stored on the way out.
    void largeReadStatusesLeaveMemoryBySize() {
        QTemporaryDir dir;
        boost::asio::io_context io;
        auto stores = SqliteStores::open(dbPath(dir));
        const auto project = stores->keys().createKey("alpha", Role::Admin).projectUid;
        RequestRegistry registry(stores->statuses(), io);
        const nlohmann::json rows{{"rows", std::string(RequestRegistry::kRememberedBytesLimit / 8, 'x')}};
        const StatusJson large(ApiStatus::success(rows));
        std::vector<std::string> ids;
        for (int i = 0; i < 12; ++i) {
            ids.push_back(registry.begin(project));
            registry.finish(project, ids.back(), large, RequestRegistry::Stored::OnlyIfAcknowledged);
        }
        // The oldest left memory for the database; the newest are still only in memory.
        QVERIFY(stores->statuses().findRequestStatus(project, ids.front()));
        QVERIFY(!stores->statuses().findRequestStatus(project, ids.back()));
        for (const std::string& id : ids)
            QVERIFY(*registry.find(project, id) == large);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestStorage)
#include "tst_storage.moc"
