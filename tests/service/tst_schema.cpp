// The one schema of both backends (service/stores/Migrations): the type map, the shared numbering of
// the released histories, a fresh SQLite and a fresh PostgreSQL database with the same tables, columns,
// types (after the type map), keys and indexes, every released version of either upgraded to the fresh
// schema with its rows kept, one appended entry migrating both, a newer schema refused untouched, and
// replicas starting together on an empty database taking turns.
// SQLite files in a temporary directory; PostgreSQL databases on a private cluster.
#include "service/stores/Migrations.h"
#include "service/stores/SqliteSchema.h"
#include "service/stores/SqliteStores.h"
#include "service/stores/postgres/PgSchema.h"
#include "service/stores/postgres/PgStores.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

using namespace jobdeck;

namespace {

// What introspection tells of a schema, one line per fact, so two are compared as sets.
struct Description {
    std::set<std::string> shape;    // tables, columns, keys, indexes: the same in both dialects
    std::set<std::string> triggers; // the same within one dialect only
};

std::string joined(const std::vector<std::string>& parts) {
    std::string text;
    for (const auto& part : parts)
        text += (text.empty() ? "" : ",") + part;
    return text;
}

std::string columnLine(const std::string& table, const std::string& column, std::string type, bool notNull,
                       const std::optional<std::string>& byDefault) {
    return "column " + table + "." + column + " " + type + (notNull ? " not null" : " null") +
           " default=" + byDefault.value_or("-");
}

template <class Db> std::vector<std::string> strings(Db& db, const std::string& sql) {
    std::vector<std::string> values;
    auto q = db.query(sql);
    while (q.step())
        values.push_back(q.text(0));
    return values;
}

void describeSqliteColumns(SqliteDatabase& db, const std::string& table, Description& d) {
    std::map<int, std::string> key;
    auto q = db.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid",
                      table);
    while (q.step()) {
        const int inKey = q.integer(4);
        if (inKey > 0)
            key[inKey] = q.text(0);
        // A key column is NOT NULL in PostgreSQL; SQLite's keys admit NULL only by an old quirk.
        d.shape.insert(
            columnLine(table, q.text(0), q.text(1), q.integer(2) != 0 || inKey > 0, q.optionalText(3)));
    }
    std::vector<std::string> columns;
    for (const auto& [position, column] : key)
        columns.push_back(column);
    if (!columns.empty())
        d.shape.insert("primary key " + table + "(" + joined(columns) + ")");
}

void describeSqliteIndexes(SqliteDatabase& db, const std::string& table, Description& d) {
    struct Index {
        std::string name, origin;
        bool unique, partial;
    };
    std::vector<Index> indexes;
    {
        auto q = db.query("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?)", table);
        while (q.step())
            indexes.push_back({q.text(0), q.text(2), q.integer(1) != 0, q.integer(3) != 0});
    }
    for (const auto& index : indexes) {
        const std::string columns =
            joined(strings(db, "SELECT name FROM pragma_index_info('" + index.name + "') ORDER BY seqno"));
        if (index.origin == "u")
            d.shape.insert("unique " + table + "(" + columns + ")");
        else if (index.origin == "c")
            d.shape.insert("index " + table + "." + index.name + "(" + columns + ") unique=" +
                           std::to_string(index.unique) + " partial=" + std::to_string(index.partial));
    }
}

void describeSqliteForeignKeys(SqliteDatabase& db, const std::string& table, Description& d) {
    std::map<int, std::vector<std::string>> from, to;
    std::map<int, std::string> target, onDelete;
    auto q = db.query("SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?) "
                      "ORDER BY id, seq",
                      table);
    while (q.step()) {
        const int id = q.integer(0);
        target[id] = q.text(1);
        from[id].push_back(q.text(2));
        to[id].push_back(q.text(3));
        onDelete[id] = q.text(4);
    }
    for (const auto& [id, columns] : from)
        d.shape.insert("foreign key " + table + "(" + joined(columns) + ") references " + target[id] + "(" +
                       joined(to[id]) + ") on delete " + onDelete[id]);
}

Description describe(SqliteDatabase& db) {
    Description d;
    for (const auto& table :
         strings(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")) {
        d.shape.insert("table " + table);
        describeSqliteColumns(db, table, d);
        describeSqliteIndexes(db, table, d);
        describeSqliteForeignKeys(db, table, d);
    }
    for (const auto& trigger :
         strings(db, "SELECT name || ' on ' || tbl_name FROM sqlite_master WHERE type = 'trigger'"))
        d.triggers.insert("trigger " + trigger);
    return d;
}

// A PostgreSQL type in SQLite's spelling, through the type map.
std::string sqliteType(std::string type) {
    std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::toupper(c); });
    for (const auto& spelling : schema::typeMap())
        if (spelling.postgresql == type)
            return std::string(spelling.sqlite);
    return type;
}

// Column names of one table by their numbers, as an array expression over `numbers` (int2vector/array).
std::string columnNames(const std::string& numbers, const std::string& table) {
    return "(SELECT string_agg(a.attname, ',' ORDER BY k.o) FROM unnest(" + numbers +
           ") WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = " + table + " AND a.attnum = k.n)";
}

void describePgColumns(PgConnection& db, Description& d) {
    static const std::regex cast("::[a-z ]+$");
    auto q = db.query("SELECT table_name, column_name, data_type, is_nullable, column_default "
                      "FROM information_schema.columns WHERE table_schema = 'public'");
    while (q.step()) {
        std::optional<std::string> byDefault = q.optionalText(4);
        if (byDefault)
            byDefault = std::regex_replace(*byDefault, cast, "");
        d.shape.insert(columnLine(q.text(0), q.text(1), sqliteType(q.text(2)), q.text(3) == "NO", byDefault));
    }
}

void describePgIndexes(PgConnection& db, Description& d) {
    auto q =
        db.query("SELECT t.relname, i.relname, x.indisunique, x.indisprimary, x.indpred IS NOT NULL, "
                 "EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid), " +
                 columnNames("x.indkey::int2[]", "t.oid") +
                 " FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = "
                 "x.indexrelid JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'");
    while (q.step()) {
        const std::string table = q.text(0), columns = q.text(6);
        if (q.text(3) == "t")
            d.shape.insert("primary key " + table + "(" + columns + ")");
        else if (q.text(5) == "t")
            d.shape.insert("unique " + table + "(" + columns + ")");
        else
            d.shape.insert("index " + table + "." + q.text(1) + "(" + columns + ") unique=" +
                           (q.text(2) == "t" ? "1" : "0") + " partial=" + (q.text(4) == "t" ? "1" : "0"));
    }
}

void describePgForeignKeys(PgConnection& db, Description& d) {
    static const std::map<std::string, std::string> actions{
        {"a", "NO ACTION"}, {"r", "RESTRICT"}, {"c", "CASCADE"}, {"n", "SET NULL"}, {"d", "SET DEFAULT"}};
    auto q = db.query("SELECT c.conrelid::regclass::text, c.confrelid::regclass::text, " +
                      columnNames("c.conkey", "c.conrelid") + ", " + columnNames("c.confkey", "c.confrelid") +
                      ", c.confdeltype FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace "
                      "WHERE c.contype = 'f' AND n.nspname = 'public'");
    while (q.step())
        d.shape.insert("foreign key " + q.text(0) + "(" + q.text(2) + ") references " + q.text(1) + "(" +
                       q.text(3) + ") on delete " + actions.at(q.text(4)));
}

Description describe(PgConnection& db) {
    Description d;
    for (const auto& table : strings(db, "SELECT table_name FROM information_schema.tables WHERE "
                                         "table_schema = 'public' AND table_type = 'BASE TABLE'"))
        d.shape.insert("table " + table);
    describePgColumns(db, d);
    describePgIndexes(db, d);
    describePgForeignKeys(db, d);
    for (const auto& trigger :
         strings(db, "SELECT tgname || ' on ' || tgrelid::regclass::text FROM pg_trigger "
                     "WHERE NOT tgisinternal"))
        d.triggers.insert("trigger " + trigger);
    return d;
}

// What only PostgreSQL has, each for its reason (PgSchema.h): the change stamp, and requests.seq,
// which SQLite's rowid is.
std::set<std::string> withoutPostgresqlOnly(const std::set<std::string>& lines) {
    std::set<std::string> kept;
    for (const auto& line : lines)
        if (line.find("change_stamp") == std::string::npos &&
            line.find("requests.seq") == std::string::npos && line.find("requests(seq)") == std::string::npos)
            kept.insert(line);
    return kept;
}

// Empty when `a` and `b` hold the same lines; else the lines each has alone.
QByteArray difference(const std::set<std::string>& a, const char* aName, const std::set<std::string>& b,
                      const char* bName) {
    std::string text;
    std::vector<std::string> only;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only));
    for (const auto& line : only)
        text += std::string("\n  only in ") + aName + ": " + line;
    only.clear();
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only));
    for (const auto& line : only)
        text += std::string("\n  only in ") + bName + ": " + line;
    return QByteArray::fromStdString(text);
}

#define COMPARE_SCHEMAS(a, aName, b, bName)                                                                  \
    do {                                                                                                     \
        const QByteArray diff = difference(a, aName, b, bName);                                              \
        QVERIFY2(diff.isEmpty(), diff.constData());                                                          \
    } while (false)

int scalar(SqliteDatabase& db, const std::string& sql) {
    auto q = db.query(sql);
    q.step();
    return q.integer(0);
}

int scalar(PgConnection& db, const std::string& sql) {
    auto q = db.query(sql);
    q.step();
    return q.integer(0);
}

// The released scripts 1..version run as the jobdeckd of that release ran them, with a project in it.
template <class Db> void createReleased(Db& db, std::span<const char* const> released, int version) {
    if constexpr (std::is_same_v<Db, SqliteDatabase>)
        db.executeScript("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    else
        db.executeScript("CREATE TABLE schema_version (version BIGINT NOT NULL)");
    for (int i = 0; i < version; ++i)
        db.executeScript(released[static_cast<std::size_t>(i)]);
    db.execute("INSERT INTO schema_version(version) VALUES (?)", version);
    db.execute("INSERT INTO projects(uid, name, created_at) VALUES ('uid-kept', 'kept', "
               "'2026-01-01T00:00:00.000Z')");
}

// The shared migrations and one more: the kind of entry that comes next (a partial unique index).
std::vector<schema::Migration> withOneMore() {
    std::vector<schema::Migration> list(schema::migrations().begin(), schema::migrations().end());
    list.push_back({"CREATE UNIQUE INDEX test_runs_by_submission_id ON runs(submission_id) "
                    "WHERE submission_id IS NOT NULL;"});
    return list;
}

} // namespace

class TestSchema final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY2(m_cluster.start(), qPrintable(m_cluster.lastError())); }
    void cleanupTestCase() { m_cluster.stop(); }

    void typeMapSpellsEachDialect() {
        const std::string neutral = "a {INTEGER}, b {BLOB}, c {BOOLEAN}, d {TIMESTAMP}, e TEXT DEFAULT '{}'";
        QCOMPARE(schema::dialectSql(schema::Dialect::Sqlite, neutral),
                 std::string("a INTEGER, b BLOB, c INTEGER, d TEXT, e TEXT DEFAULT '{}'"));
        QCOMPARE(schema::dialectSql(schema::Dialect::Postgresql, neutral),
                 std::string("a BIGINT, b BYTEA, c BIGINT, d TEXT, e TEXT DEFAULT '{}'"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error,
                                 schema::dialectSql(schema::Dialect::Sqlite, "x {DECIMAL}"));
    }

    // SQLite 6 and PostgreSQL 4 are both shared 6; from 7 on both record the shared number.
    void releasedVersionsMapToTheSharedNumbering() {
        using schema::Dialect;
        QCOMPARE(schema::sharedVersion(Dialect::Sqlite, 6), 6);
        QCOMPARE(schema::sharedVersion(Dialect::Postgresql, 4), 6);
        QCOMPARE(schema::sharedVersion(Dialect::Postgresql, 1), 3);
        QCOMPARE(schema::sharedVersion(Dialect::Postgresql, 7), 7);
        QCOMPARE(schema::recordedVersion(Dialect::Postgresql, 6), 4);
        QCOMPARE(schema::recordedVersion(Dialect::Sqlite, 6), 6);
        QCOMPARE(schema::recordedVersion(Dialect::Postgresql, 7), 7);
        QCOMPARE(SqliteStores::schemaVersion(), PgStores::schemaVersion());
        QCOMPARE(static_cast<int>(SqliteSchema::releasedMigrations().size()), schema::baselineVersion);
        QCOMPARE(static_cast<int>(PgSchema::releasedMigrations().size()) + 2, schema::baselineVersion);
    }

    void freshSchemasMatchAcrossBackends() {
        const Description sqlite = describe(*freshSqlite());
        const Description postgresql = describe(*freshPostgresql("fresh_match"));
        // Each kind of fact is seen in both, so a comparison of empty descriptions cannot pass.
        for (const Description* d : {&sqlite, &postgresql}) {
            QVERIFY(d->shape.contains("index jobs.jobs_summary(project_uid,name,type,cluster,"
                                      "max_concurrent_runs,updated_at,job_id) unique=0 partial=0"));
            QVERIFY(d->shape.contains("unique projects(name)"));
            QVERIFY(d->shape.contains("primary key project_allowlist(project_uid,entry)"));
            QVERIFY(d->shape.contains("foreign key jobs(project_uid,cluster) references "
                                      "clusters(project_uid,name) on delete NO ACTION"));
            QVERIFY(d->shape.contains("column api_keys.salt BLOB not null default=-"));
            QVERIFY(d->shape.contains("column runs.deploy_mode TEXT not null default='client'"));
            QVERIFY(d->shape.contains("table replica_leases"));
        }
        COMPARE_SCHEMAS(sqlite.shape, "SQLite", withoutPostgresqlOnly(postgresql.shape), "PostgreSQL");
    }

    void everyReleasedSqliteVersionUpgradesToTheFreshSchema() {
        const Description fresh = describe(*freshSqlite());
        for (int version = 1; version <= static_cast<int>(SqliteSchema::releasedMigrations().size());
             ++version) {
            QTemporaryDir dir;
            const std::string path = dir.filePath("jobdeck.db").toStdString();
            createReleased(*SqliteDatabase::open(path), SqliteSchema::releasedMigrations(), version);
            {
                const auto stores = SqliteStores::open(path);
                QCOMPARE(stores->projects().findProjectUidByName("kept").value_or(""),
                         std::string("uid-kept"));
            }
            const auto db = SqliteDatabase::open(path);
            QCOMPARE(scalar(*db, "SELECT version FROM schema_version"), SqliteStores::schemaVersion());
            const Description upgraded = describe(*db);
            COMPARE_SCHEMAS(upgraded.shape, qPrintable(QStringLiteral("SQLite v%1").arg(version)),
                            fresh.shape, "fresh");
            COMPARE_SCHEMAS(upgraded.triggers, "upgraded", fresh.triggers, "fresh");
        }
    }

    void everyReleasedPostgresqlVersionUpgradesToTheFreshSchema() {
        const Description fresh = describe(*freshPostgresql("fresh_released"));
        for (int version = 1; version <= static_cast<int>(PgSchema::releasedMigrations().size()); ++version) {
            const std::string url = createDatabase("released_" + std::to_string(version));
            createReleased(*PgConnection::open(url), PgSchema::releasedMigrations(), version);
            {
                const auto stores = PgStores::open(url);
                QCOMPARE(stores->projects().findProjectUidByName("kept").value_or(""),
                         std::string("uid-kept"));
            }
            const auto db = PgConnection::open(url);
            QCOMPARE(scalar(*db, "SELECT max(version) FROM schema_version"),
                     schema::recordedVersion(schema::Dialect::Postgresql, PgStores::schemaVersion()));
            const Description upgraded = describe(*db);
            COMPARE_SCHEMAS(upgraded.shape, qPrintable(QStringLiteral("PostgreSQL v%1").arg(version)),
                            fresh.shape, "fresh");
            COMPARE_SCHEMAS(upgraded.triggers, "upgraded", fresh.triggers, "fresh");
        }
    }

    // Appending one entry migrates an empty database and a released one of either backend to the
    // shared version after the latest.
    void oneAppendedEntryMigratesBothBackends() {
        const auto list = withOneMore();
        const int next = schema::latestVersion(schema::migrations()) + 1;
        QTemporaryDir dir;
        const auto freshLite = SqliteDatabase::open(dir.filePath("fresh.db").toStdString());
        SqliteSchema::migrate(*freshLite, list);
        const auto releasedLite = SqliteDatabase::open(dir.filePath("released.db").toStdString());
        createReleased(*releasedLite, SqliteSchema::releasedMigrations(), 6);
        SqliteSchema::migrate(*releasedLite, list);

        const std::string freshUrl = createDatabase("one_more_fresh");
        const std::string releasedUrl = createDatabase("one_more_released");
        createReleased(*PgConnection::open(releasedUrl), PgSchema::releasedMigrations(), 4);
        for (const auto& url : {freshUrl, releasedUrl}) {
            PgConnections connections(url);
            PgSchema::migrate(connections, url, list);
        }
        const auto freshPg = PgConnection::open(freshUrl);
        const auto releasedPg = PgConnection::open(releasedUrl);

        QCOMPARE(scalar(*freshLite, "SELECT version FROM schema_version"), next);
        QCOMPARE(scalar(*releasedLite, "SELECT version FROM schema_version"), next);
        QCOMPARE(scalar(*freshPg, "SELECT max(version) FROM schema_version"), next);
        QCOMPARE(scalar(*releasedPg, "SELECT max(version) FROM schema_version"), next);
        const Description lite = describe(*freshLite);
        QVERIFY(
            lite.shape.contains("index runs.test_runs_by_submission_id(submission_id) unique=1 partial=1"));
        COMPARE_SCHEMAS(lite.shape, "SQLite", withoutPostgresqlOnly(describe(*freshPg).shape), "PostgreSQL");
        COMPARE_SCHEMAS(describe(*releasedLite).shape, "SQLite v6", lite.shape, "fresh");
        COMPARE_SCHEMAS(describe(*releasedPg).shape, "PostgreSQL v4", describe(*freshPg).shape, "fresh");
    }

    // A jobdeckd that knows the latest shared version (an older replica in a rolling upgrade) on a
    // database at the next.
    void aNewerSharedVersionIsRefusedUntouched() {
        const auto list = withOneMore();
        const int latest = schema::latestVersion(schema::migrations());
        QTemporaryDir dir;
        const std::string path = dir.filePath("jobdeck.db").toStdString();
        SqliteSchema::migrate(*SqliteDatabase::open(path), list);
        const std::string url = createDatabase("newer_shared");
        {
            PgConnections connections(url);
            PgSchema::migrate(connections, url, list);
        }
        const std::string expected = "has schema version " + std::to_string(latest + 1) +
                                     ", newer than this jobdeckd understands (" + std::to_string(latest) +
                                     "); use a newer jobdeckd. The database was not changed.";
        try {
            SqliteStores::open(path);
            QFAIL("SQLite at a newer shared version was opened");
        } catch (const DatabaseError& e) {
            QVERIFY2(std::string(e.what()).find(expected) != std::string::npos, e.what());
        }
        try {
            PgStores::open(url);
            QFAIL("PostgreSQL at a newer shared version was opened");
        } catch (const DatabaseError& e) {
            QVERIFY2(std::string(e.what()).find(expected) != std::string::npos, e.what());
        }
        QCOMPARE(scalar(*SqliteDatabase::open(path), "SELECT version FROM schema_version"), latest + 1);
        QCOMPARE(scalar(*PgConnection::open(url), "SELECT max(version) FROM schema_version"), latest + 1);
    }

    // Replicas started together on an empty database (a deployment's first start): each waits for the
    // migration lock before it reads the version, so one creates the schema and the others find it. The
    // test holds the lock until all three wait, so they all start migrating at the same moment.
    void replicasStartingTogetherTakeTurns() {
        const std::string url = createDatabase("started_together");
        auto holder = PgConnection::open(url);
        holder->executeScript("BEGIN");
        holder->query("SELECT pg_advisory_xact_lock($1)", PgSchema::kMigrationLock).step();
        std::mutex mutex;
        std::vector<std::string> failures;
        std::vector<std::thread> replicas;
        for (int i = 0; i < 3; ++i)
            replicas.emplace_back([&] {
                try {
                    PgStores::open(url);
                } catch (const std::exception& e) {
                    const std::lock_guard lock(mutex);
                    failures.emplace_back(e.what());
                }
            });
        bool released = false;
        const auto releaseAndJoin = [&] {
            if (std::exchange(released, true))
                return;
            holder->executeScript("COMMIT");
            for (auto& replica : replicas)
                replica.join();
        };
        const auto onFailure = qScopeGuard(releaseAndJoin); // no thread outlives a failed QTRY
        auto observer = PgConnection::open(url);
        const auto waiting = [&] {
            return scalar(*observer,
                          "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        };
        QTRY_COMPARE_WITH_TIMEOUT(waiting(), 3, 30000);
        releaseAndJoin();
        QCOMPARE(failures, std::vector<std::string>());
        QCOMPARE(scalar(*observer, "SELECT count(*) FROM schema_version"), 1);
        QCOMPARE(scalar(*observer, "SELECT max(version) FROM schema_version"),
                 schema::recordedVersion(schema::Dialect::Postgresql, PgStores::schemaVersion()));
    }

private:
    std::unique_ptr<SqliteDatabase> freshSqlite() {
        const std::string path = m_dir.filePath("fresh-" + QString::number(++m_files) + ".db").toStdString();
        SqliteStores::open(path);
        return SqliteDatabase::open(path);
    }

    std::unique_ptr<PgConnection> freshPostgresql(const std::string& name) {
        const std::string url = createDatabase(name);
        PgStores::open(url);
        return PgConnection::open(url);
    }

    // A new empty database on the cluster; its URI.
    std::string createDatabase(const std::string& name) {
        const std::string uri = m_cluster.connectionUri().toStdString();
        PgConnection::open(uri)->executeScript("CREATE DATABASE " + name);
        return uri.substr(0, uri.rfind('/') + 1) + name;
    }

    PostgresCluster m_cluster;
    QTemporaryDir m_dir;
    int m_files = 0;
};

JOBDECK_TEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
