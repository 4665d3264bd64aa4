// The private PostgreSQL cluster the service-postgresql suites run against (tests/support/
// PostgresCluster): it starts, takes SQL over loopback TCP through libpq, and is gone after stop() or
// its destructor. Without PostgreSQL installed this suite fails, naming the install script.
#include "tests/support/PostgresCluster.h"
#include "tests/support/ProcessState.h"

#include <QDir>
#include <QTcpSocket>
#include <QTest>

#ifdef JOBDECK_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include <memory>

using namespace jobdeck;

namespace {

#ifdef JOBDECK_HAVE_LIBPQ
struct ConnectionDeleter {
    void operator()(PGconn* connection) const { PQfinish(connection); }
};
struct ResultDeleter {
    void operator()(PGresult* result) const { PQclear(result); }
};
using Connection = std::unique_ptr<PGconn, ConnectionDeleter>;
using Result = std::unique_ptr<PGresult, ResultDeleter>;

Connection openConnection(const QString& uri) {
    return Connection(PQconnectdb(uri.toUtf8().constData()));
}

// A statement's result; its status and error are checked by the caller.
Result exec(PGconn* connection, const char* sql) {
    return Result(PQexec(connection, sql));
}
#endif

bool acceptsTcp(quint16 port) {
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    return socket.waitForConnected(5000);
}

} // namespace

class TestPostgresCluster final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
#ifndef JOBDECK_HAVE_LIBPQ
        QFAIL("libpq was not found when the build was configured; install it with "
              "`bash packaging/install-deps.sh` (libpq-dev) and configure again");
#endif
    }

    void startsTakesSqlAndStops() {
#ifdef JOBDECK_HAVE_LIBPQ
        PostgresCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
        QVERIFY(cluster.connectionUri().startsWith(
            QStringLiteral("postgresql://jobdeck@127.0.0.1:%1/").arg(cluster.port())));
        const qint64 server = cluster.serverProcessId();
        QVERIFY(test::processIsRunning(server));
        const QString directory = cluster.directory();
        QVERIFY(QDir(directory).exists());

        {
            const Connection db = openConnection(cluster.connectionUri());
            QVERIFY2(PQstatus(db.get()) == CONNECTION_OK, PQerrorMessage(db.get()));
            QCOMPARE(QString::fromUtf8(PQdb(db.get())), cluster.databaseName());
            for (const char* sql : {"CREATE TABLE runs (id integer PRIMARY KEY, state text NOT NULL)",
                                    "INSERT INTO runs VALUES (1, 'QUEUED'), (2, 'RUNNING')"}) {
                const Result done = exec(db.get(), sql);
                QVERIFY2(PQresultStatus(done.get()) == PGRES_COMMAND_OK, PQresultErrorMessage(done.get()));
            }
            const Result rows = exec(db.get(), "SELECT state FROM runs WHERE id = 2");
            QVERIFY2(PQresultStatus(rows.get()) == PGRES_TUPLES_OK, PQresultErrorMessage(rows.get()));
            QCOMPARE(PQntuples(rows.get()), 1);
            QCOMPARE(QString::fromUtf8(PQgetvalue(rows.get(), 0, 0)), QString("RUNNING"));
        }

        const quint16 port = cluster.port();
        cluster.stop();
        QVERIFY(!cluster.isStarted());
        QVERIFY(!test::processIsRunning(server));
        QVERIFY(!QDir(directory).exists());
        QVERIFY(!acceptsTcp(port));
#endif
    }

    // A test that fails leaves its cluster to the destructor.
    void destructorStopsTheCluster() {
        qint64 server = 0;
        QString directory;
        {
            PostgresCluster cluster;
            QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
            server = cluster.serverProcessId();
            directory = cluster.directory();
            QVERIFY(test::processIsRunning(server));
        }
        QVERIFY(!test::processIsRunning(server));
        QVERIFY(!QDir(directory).exists());
    }
};

QTEST_GUILESS_MAIN(TestPostgresCluster)
#include "tst_postgrescluster.moc"
