// jobdeckd's libpq connection and its pool when statements fail and the server goes away under them:
// every failure is a DatabaseError (never a crash: each libpq result has exactly one owner), a
// connection the server dropped is not lent again, and the pool serves again on fresh connections; a
// transaction left idle ends on the server and frees its rows.
#include "service/stores/DatabaseError.h"
#include "service/stores/DatabaseTimeouts.h"
#include "service/stores/postgres/PgConnections.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"

#include <QTest>

#include <memory>
#include <stdexcept>
#include <string>

using namespace jobdeck;

class TestPgConnection final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.lastError())); }
    void cleanupTestCase() { m_cluster.stop(); }

    // A failed script (schema scripts, BEGIN, COMMIT) reports its error and frees its result once.
    void aFailedScriptThrowsItsError() {
        auto connection = PgConnection::open(uri());
        for (int i = 0; i < 3; ++i) {
            try {
                connection->executeScript("SELECT * FROM no_such_table");
                QFAIL("a script reading a missing table succeeded");
            } catch (const DatabaseError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("no_such_table")), e.what());
                QVERIFY(!e.isUnavailable());
            }
        }
        auto q = connection->query("SELECT 1");
        QVERIFY(q.step());
        QCOMPARE(q.integer(0), 1);
    }

    void aFailedQueryThrowsItsError() {
        auto connection = PgConnection::open(uri());
        for (int i = 0; i < 3; ++i) {
            try {
                connection->execute("INSERT INTO no_such_table VALUES (?)", 1);
                QFAIL("an insert into a missing table succeeded");
            } catch (const DatabaseError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("no_such_table")), e.what());
            }
        }
    }

    // A read snapshot whose server connection is terminated under it: ending the snapshot (its COMMIT
    // fails) neither crashes nor lends the dead connection again.
    void aSnapshotOutlivingItsConnectionEndsCleanly() {
        PgConnections connections(uri());
        auto snapshot = connections.snapshot();
        QVERIFY(snapshot);
        const int terminatedPid = backendPidOf(connections); // the snapshot's connection
        QVERIFY(terminatedPid != 0);
        terminate(terminatedPid);
        try {
            auto lease = connections.connection();
            lease->query("SELECT 1").step();
            QFAIL("a query on a terminated connection succeeded");
        } catch (const DatabaseError& e) {
            QVERIFY2(e.isUnavailable(), e.what());
        }
        snapshot.reset(); // its COMMIT fails: the connection is dropped, not lent again
        QVERIFY(backendPidOf(connections) != terminatedPid);
    }

    // A step whose connection is terminated between its statements fails with Unavailable, and the
    // pool's next step runs on a fresh connection.
    void aStepOutlivingItsConnectionFailsAndThePoolRecovers() {
        PgConnections connections(uri());
        try {
            connections.run([&] {
                auto lease = connections.connection();
                auto q = lease->query("SELECT pg_backend_pid()");
                q.step();
                terminate(q.integer(0));
                lease->execute("SELECT 1");
            });
            QFAIL("a step on a terminated connection committed");
        } catch (const DatabaseError& e) {
            QVERIFY2(e.isUnavailable(), e.what());
        }
        int answer = 0;
        connections.run([&] {
            auto lease = connections.connection();
            auto q = lease->query("SELECT 41 + 1");
            q.step();
            answer = q.integer(0);
        });
        QCOMPARE(answer, 42);
    }

    // A write whose outcome is not read goes with the step's next statement or its COMMIT: the step reads
    // it, the commit keeps it, and outside a step it is written at once.
    void aHeldBackWriteGoesWithTheNextStatement() {
        PgConnections connections(uri());
        connections.run([&] {
            connections.connection()->executeScript("CREATE TABLE held_back (k integer PRIMARY KEY, v text)");
        });
        int seenInStep = 0;
        connections.run([&] {
            auto lease = connections.connection();
            lease->prepare("INSERT INTO held_back VALUES (1, 'a')").runLater();
            auto q = lease->query("SELECT count(*) FROM held_back");
            q.step();
            seenInStep = q.integer(0);
            lease->prepare("INSERT INTO held_back VALUES (2, 'b')").runLater(); // goes with the COMMIT
        });
        QCOMPARE(seenInStep, 1);
        // The first statement of a step held back: BEGIN, it and COMMIT in one round trip.
        connections.run(
            [&] { connections.connection()->prepare("INSERT INTO held_back VALUES (3, 'c')").runLater(); });
        auto outside = connections.connection();
        outside->prepare("INSERT INTO held_back VALUES (4, 'd')").runLater();
        auto fresh = PgConnection::open(uri());
        auto q = fresh->query("SELECT string_agg(v, '' ORDER BY k) FROM held_back");
        QVERIFY(q.step());
        QCOMPARE(q.text(0), std::string("abcd"));
    }

    // A held-back write that fails fails the statement it went with, or the commit, with its own
    // error: the step writes nothing, and the pool's connection serves the next step.
    void aFailedHeldBackWriteFailsItsStep() {
        PgConnections connections(uri());
        connections.run([&] {
            connections.connection()->executeScript(
                "CREATE TABLE unique_held (k integer PRIMARY KEY); INSERT INTO unique_held VALUES (1)");
        });
        for (const bool withRead : {true, false}) {
            try {
                connections.run([&] {
                    auto lease = connections.connection();
                    lease->execute("INSERT INTO unique_held VALUES (2)");
                    lease->prepare("INSERT INTO unique_held VALUES (1)").runLater();
                    if (withRead)
                        lease->query("SELECT 1").step();
                });
                QFAIL("a step whose held-back write broke a key committed");
            } catch (const DatabaseError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("duplicate key")), e.what());
                QVERIFY(e.cause() == DatabaseError::Cause::ConstraintViolation);
            }
        }
        // A step that throws drops what it held back.
        try {
            connections.run([&] {
                connections.connection()->prepare("INSERT INTO unique_held VALUES (3)").runLater();
                throw std::runtime_error("the step gives up");
            });
        } catch (const std::runtime_error&) {
        }
        int rows = 0;
        connections.run([&] {
            auto q = connections.connection()->query("SELECT count(*) FROM unique_held");
            q.step();
            rows = q.integer(0);
        });
        QCOMPARE(rows, 1);
    }

    // A row statement is prepared on the server once per connection and then only bound and run: the
    // same text with other values gives their answers; transaction control is never prepared; a
    // statement whose PREPARE fails is reported as its own failure and not kept.
    void aRepeatedStatementIsPreparedOnce() {
        auto connection = PgConnection::open(uri());
        // What the server holds for this session; the count's own statement is one of them.
        const auto preparedOnServer = [&] {
            auto q = connection->query("SELECT count(*) FROM pg_prepared_statements");
            return q.step() ? q.integer(0) : -1;
        };
        for (int i = 0; i < 3; ++i) {
            auto q = connection->query("SELECT CAST(? AS integer) + 1", i);
            QVERIFY(q.step());
            QCOMPARE(q.integer(0), i + 1);
        }
        QCOMPARE(preparedOnServer(), 2);
        connection->executeScript("BEGIN");
        connection->execute("COMMIT");
        QCOMPARE(preparedOnServer(), 2);
        // Twice: a failed PREPARE kept as if prepared would fail the second time for a missing statement.
        for (int i = 0; i < 2; ++i) {
            try {
                connection->query("SELECT missing_column FROM pg_class").step();
                QFAIL("a query of a missing column succeeded");
            } catch (const DatabaseError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("missing_column")), e.what());
            }
        }
        QCOMPARE(preparedOnServer(), 2);
    }

    // A table changed under a prepared statement (another replica's migration): the statement is planned
    // again by the server and reads the table as it is now.
    void aPreparedStatementFollowsASchemaChange() {
        auto connection = PgConnection::open(uri());
        connection->executeScript("CREATE TABLE widened (a integer); INSERT INTO widened VALUES (7)");
        const auto readA = [&] {
            auto q = connection->query("SELECT a FROM widened WHERE a = ?", 7);
            return q.step() ? q.integer(0) : -1;
        };
        QCOMPARE(readA(), 7);
        auto other = PgConnection::open(uri());
        other->executeScript(
            "ALTER TABLE widened ADD COLUMN b text; ALTER TABLE widened ALTER COLUMN a TYPE bigint");
        QCOMPARE(readA(), 7);
        connection->executeScript("DROP TABLE widened");
    }

    // A lookup of several keys planned for its values each time (prepareCustomPlanned) reads a table
    // that grew since it was last analysed through its index, where the prepared statement keeps the
    // generic plan it settled on while the table was small: a scan of the whole table. The server counts
    // the transaction's scans (pg_stat_xact_user_tables); autovacuum, which would plan the statement
    // again after analysing the table, is off for it.
    void aCustomPlannedLookupFollowsItsTableAsItGrows() {
        auto connection = PgConnection::open(uri());
        connection->executeScript("CREATE TABLE grown (id bigserial PRIMARY KEY, key text NOT NULL UNIQUE, "
                                  "payload text) WITH (autovacuum_enabled = false); "
                                  "INSERT INTO grown(key) VALUES ('k1'), ('k2'); ANALYZE grown");
        std::string lookup = "SELECT id, payload FROM grown WHERE key IN (?";
        for (int i = 1; i < 32; ++i)
            lookup += ", ?";
        lookup += ")";
        // Counted before and after it in one transaction: the server's count for the session also holds
        // the scans of earlier transactions that it has not published yet.
        const auto seqScans = [&] {
            auto q = connection->query("SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = ?",
                                       std::string("grown"));
            return q.step() ? q.integer(0) : -1;
        };
        const auto scansOfALookup = [&](bool customPlanned) {
            connection->executeScript("BEGIN");
            const int before = seqScans();
            auto q = customPlanned ? connection->prepareCustomPlanned(lookup) : connection->prepare(lookup);
            for (int i = 1; i <= 32; ++i)
                q.bind(i, "k" + std::to_string(i));
            while (q.step()) {
            }
            const int after = seqScans();
            connection->execute("COMMIT");
            return after - before;
        };
        for (int i = 0; i < 8; ++i) { // past the five runs after which a statement may keep a generic plan
            QCOMPARE(scansOfALookup(false), 1);
            QCOMPARE(scansOfALookup(true), 1);
        }
        connection->executeScript("INSERT INTO grown(key, payload) SELECT 'g' || n, md5(n::text) "
                                  "FROM generate_series(1, 20000) AS n");
        QCOMPARE(scansOfALookup(false), 1); // the generic plan: what the next line would see unprepared
        QCOMPARE(scansOfALookup(true), 0);
        connection->executeScript("DROP TABLE grown");
    }

    // A transaction left idle (its process stopped between two statements) ends on the server after
    // DatabaseTimeouts::idleInTransaction, so the row it held is not held for as long as it is stopped:
    // another session waiting for the row (up to its own lock wait, 10 s) gets it, and the idle session's
    // next statement fails.
    void anIdleTransactionEndsAndFreesItsRows() {
        const DatabaseTimeouts saved = DatabaseTimeouts::current();
        DatabaseTimeouts quick = saved;
        quick.statement = std::chrono::seconds(2); // lock wait 2 s, idle in transaction 1 s
        DatabaseTimeouts::set(quick);
        auto holder = PgConnection::open(uri());
        DatabaseTimeouts::set(saved);
        auto waiter = PgConnection::open(uri());
        waiter->executeScript("CREATE TABLE held (a integer); INSERT INTO held VALUES (1)");
        holder->executeScript("BEGIN");
        QVERIFY(holder->query("SELECT a FROM held FOR UPDATE").step());

        bool locked = false;
        try {
            locked = waiter->query("SELECT a FROM held FOR UPDATE").step();
        } catch (const DatabaseError& e) {
            QFAIL(qPrintable(QString("the idle transaction kept its row: ") + e.what()));
        }
        QVERIFY(locked);
        bool failed = false;
        try {
            holder->query("SELECT a FROM held").step();
        } catch (const DatabaseError&) {
            failed = true;
        }
        QVERIFY2(failed, "the idle transaction's session went on");
        waiter->executeScript("DROP TABLE held");
    }

private:
    std::string uri() const { return m_cluster.connectionUri().toStdString(); }

    void terminate(int pid) {
        auto admin = PgConnection::open(uri());
        admin->query("SELECT pg_terminate_backend(?)", pid).step();
    }

    static int backendPidOf(PgConnections& connections) {
        auto lease = connections.connection();
        auto q = lease->query("SELECT pg_backend_pid()");
        q.step();
        return q.integer(0);
    }

    PostgresCluster m_cluster;
};

JOBDECK_TEST_GUILESS_MAIN(TestPgConnection)
#include "tst_pgconnection.moc"
