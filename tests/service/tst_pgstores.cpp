// jobdeckd's PostgreSQL stores against a private PostgreSQL cluster (tests/support/PostgresCluster):
// schema and migrations, the refusal of a newer schema, errors that never show a password, the step
// lock that keeps a count-then-insert exact across processes, the change stamp, and keys revoked by
// another process. Two PgStores on one database stand for two jobdeckd processes.
#include "service/stores/Migrations.h"
#include "service/stores/postgres/PgStores.h"
#include "tests/support/PostgresCluster.h"

#include <QTcpServer>
#include <QTest>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
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

    // Admission's pattern (count the active rows, insert when below the limit) in steps from two
    // processes at once: exactly the limit gets in.
    void countThenInsertIsExactAcrossProcesses() {
        const std::string database = createDatabase("admission");
        const auto first = PgStores::open(database);
        const auto second = PgStores::open(database);
        const std::string uid = first->projects().createProject("admission");
        constexpr int limit = 3;
        std::atomic<int> admitted{0};
        std::vector<std::thread> clients;
        for (int i = 0; i < 16; ++i)
            clients.emplace_back([&, i] {
                Stores& stores = i % 2 ? *first : *second;
                stores.unitOfWork().run([&] {
                    const auto settings = stores.projects().projectSettings(uid);
                    if (static_cast<int>(settings.hudiConfigAllowlist.size()) >= limit)
                        return;
                    auto updated = settings;
                    updated.hudiConfigAllowlist.push_back("hoodie.entry." + std::to_string(i));
                    stores.projects().saveProjectSettings(uid, updated);
                    ++admitted;
                });
            });
        for (auto& client : clients)
            client.join();
        QCOMPARE(admitted.load(), limit);
        QCOMPARE(static_cast<int>(second->projects().projectSettings(uid).hudiConfigAllowlist.size()), limit);
    }

    void changeStampMovesWhenAWriteCommits() {
        const auto writer = PgStores::open(uri());
        const auto reader = PgStores::open(uri());
        const std::uint64_t before = reader->changeStamp().current();
        std::uint64_t duringStep = 0;
        writer->unitOfWork().run([&] {
            writer->projects().createProject("stamp");
            // Another process does not see the uncommitted write move the stamp.
            std::thread other([&] { duringStep = reader->changeStamp().current(); });
            other.join();
        });
        QCOMPARE(duringStep, before);
        QVERIFY(reader->changeStamp().current() != before);
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

    // A fresh database on the cluster; its URI.
    std::string createDatabase(const std::string& name) {
        auto connection = PgConnection::open(uri());
        connection->executeScript("CREATE DATABASE " + name);
        std::string database = uri();
        return database.substr(0, database.rfind('/') + 1) + name;
    }

    PostgresCluster m_cluster;
};

QTEST_GUILESS_MAIN(TestPgStores)
#include "tst_pgstores.moc"
