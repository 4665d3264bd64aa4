// The private PostgreSQL cluster the service-postgresql suites run against (tests/support/
// PostgresCluster): it starts, takes SQL over loopback TCP through libpq, and is gone after stop() or
// its destructor. With JOBDECK_TEST_BACKEND=postgresql (TestBackend) a test process has one cluster,
// each TestService a database of its own that reaches every jobdeckd it runs, and the cluster is gone
// when the process ends: passed, failed or killed. Without PostgreSQL installed this suite fails,
// naming the install script.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/ProcessState.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestBackend.h"
#include "tests/support/TestService.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

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

// Set in the copy of this suite that sharedClusterEndsWithItsProcess() runs: how that copy ends.
const char* const kChildEnding = "JOBDECK_TEST_CLUSTER_CHILD_ENDING";

// The `--database` value of a jobdeckd command line; empty when there is none or several.
QString databaseArgument(const QStringList& arguments) {
    if (arguments.count(QStringLiteral("--database")) != 1)
        return {};
    const qsizetype at = arguments.indexOf(QStringLiteral("--database"));
    return at + 1 < arguments.size() ? arguments.at(at + 1) : QString();
}

// A jobdeckd either serves on the database, or (in a build without the PostgreSQL backend) refuses
// it for that reason alone: either way the URI reached its command line intact.
bool startedOrRefusedForThisBuild(TestService& service) {
    return service.start() || service.lastError().contains(
                                  QLatin1String("PostgreSQL databases are not supported in this build"));
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

    // A paused cluster's port stays its own: outside the ports the kernel hands out by itself, and held
    // by a lock the other test processes' reservations respect, until the cluster is stopped.
    void aPausedClustersPortIsKeptFromOtherSuites() {
        PostgresCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
        QVERIFY2(cluster.pause(), qPrintable(cluster.lastError()));
        const quint16 port = cluster.port();
        QFile range(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
        QVERIFY(range.open(QIODevice::ReadOnly));
        const QList<QByteArray> ephemeral = range.readAll().simplified().split(' ');
        QCOMPARE(ephemeral.size(), 2);
        QVERIFY2(port < ephemeral[0].toInt() || port > ephemeral[1].toInt(),
                 qPrintable(QString::number(port)));
        QVERIFY(!portLockIsFree(port));
        QVERIFY2(cluster.resume(), qPrintable(cluster.lastError()));
        cluster.stop();
        QVERIFY(portLockIsFree(port));
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

    // Each TestService gets its own database on the one cluster of the process, passed to serve
    // (first start and restarts alike) and to keys create; its own --database wins.
    void eachTestServiceGetsADatabaseOfItsOwn() {
        qputenv("JOBDECK_TEST_BACKEND", "postgresql");
        TestService first;
        TestService second;
        QVERIFY2(startedOrRefusedForThisBuild(first), qPrintable(first.lastError()));
        QVERIFY2(startedOrRefusedForThisBuild(second), qPrintable(second.lastError()));
        const PostgresCluster* cluster = TestBackend::postgresCluster();
        QVERIFY(cluster);
        const QString firstUri = databaseArgument(first.lastArguments());
        const QString secondUri = databaseArgument(second.lastArguments());
        QVERIFY2(firstUri.startsWith(cluster->connectionUri(QStringLiteral("jobdeck_"))),
                 qPrintable(first.lastArguments().join(' ')));
        QVERIFY2(secondUri.startsWith(cluster->connectionUri(QStringLiteral("jobdeck_"))),
                 qPrintable(second.lastArguments().join(' ')));
        QVERIFY(firstUri != secondUri);
        QCOMPARE(first.databaseUri(), firstUri);
        for (const QString& uri : {firstUri, secondUri}) {
            ServiceDatabase db(uri);
            QVERIFY2(db.isOpen(), qPrintable(db.lastError()));
            QCOMPARE(db.value(QStringLiteral("SELECT current_database()")), uri.section('/', -1));
        }

        first.stop();
        QVERIFY2(startedOrRefusedForThisBuild(first), qPrintable(first.lastError()));
        QCOMPARE(databaseArgument(first.lastArguments()), firstUri);
        first.createKey(QStringLiteral("p"), QStringLiteral("admin"));
        QCOMPARE(first.lastArguments().mid(0, 2), QStringList({"keys", "create"}));
        QCOMPARE(databaseArgument(first.lastArguments()), firstUri);
        QCOMPARE(TestBackend::postgresCluster(), cluster);

        const QString own = QStringLiteral("sqlite:") + first.dataDir() + QStringLiteral("/own.db");
        TestService explicitDatabase({QStringLiteral("--database"), own});
        QVERIFY2(explicitDatabase.start(), qPrintable(explicitDatabase.lastError()));
        QCOMPARE(databaseArgument(explicitDatabase.lastArguments()), own);
        QCOMPARE(explicitDatabase.databaseUri(), own);
        qunsetenv("JOBDECK_TEST_BACKEND");
    }

    // The same SQL, `?` placeholders and text values on both backends; a '?' in a literal stays.
    void serviceDatabaseSpeaksBothBackends() {
        qputenv("JOBDECK_TEST_BACKEND", "postgresql");
        QString error;
        const QString postgres = TestBackend::createPostgresDatabase(error);
        qunsetenv("JOBDECK_TEST_BACKEND");
        QVERIFY2(!postgres.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        for (const QString& uri :
             {postgres, QStringLiteral("sqlite:") + dir.filePath(QStringLiteral("t.db"))}) {
            if (uri.startsWith(QLatin1String("sqlite:")))
                QFile(dir.filePath(QStringLiteral("t.db"))).open(QIODevice::WriteOnly);
            ServiceDatabase db(uri);
            QVERIFY2(db.isOpen(), qPrintable(db.lastError()));
            QCOMPARE(db.execute("CREATE TABLE jobs (name TEXT PRIMARY KEY, runs INTEGER, note TEXT)"), 0);
            QCOMPARE(db.execute("INSERT INTO jobs VALUES (?, ?, 'why?'), (?, ?, NULL)", {"a", "1", "b", "2"}),
                     2);
            QCOMPARE(db.execute("UPDATE jobs SET runs = ? WHERE name = ?", {"7", "b"}), 1);
            const auto rows = db.rows("SELECT name, runs, note FROM jobs ORDER BY name");
            QVERIFY2(rows, qPrintable(db.lastError()));
            QCOMPARE(*rows, QList<QStringList>({{"a", "1", "why?"}, {"b", "7", QString()}}));
            QVERIFY(db.value("SELECT note FROM jobs WHERE name = 'b'").isNull());
            QCOMPARE(db.execute("SELECT nothing FROM nowhere"), -1);
            QVERIFY(!db.lastError().isEmpty());
            QVERIFY2(db.holdWriteLock(QStringLiteral("jobs")), qPrintable(db.lastError()));
            QCOMPARE(db.execute("DELETE FROM jobs"), 2);
            QVERIFY(db.release());
            QCOMPARE(db.value("SELECT count(*) FROM jobs"), QString("2"));
        }
    }

    void unknownBackendsFailLoudly() {
        qputenv("JOBDECK_TEST_BACKEND", "mysql");
        TestService service;
        QVERIFY(!service.start());
        qunsetenv("JOBDECK_TEST_BACKEND");
        QVERIFY2(service.lastError().contains(QLatin1String("JOBDECK_TEST_BACKEND=mysql")),
                 qPrintable(service.lastError()));
    }

    // However a test process ends, its cluster ends with it: at exit (passed or failed), else by the
    // watchdog (killed). A copy of this suite runs just this function in the given way.
    void sharedClusterEndsWithItsProcess_data() {
        QTest::addColumn<QString>("ending");
        if (!qEnvironmentVariableIsSet(kChildEnding))
            for (const char* ending : {"pass", "fail", "kill"})
                QTest::newRow(ending) << QString::fromLatin1(ending);
        else
            QTest::newRow("child") << qEnvironmentVariable(kChildEnding);
    }

    void sharedClusterEndsWithItsProcess() {
        QFETCH(QString, ending);
        if (qEnvironmentVariableIsSet(kChildEnding))
            return endAsTold(ending);
        QProcess child;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("JOBDECK_TEST_BACKEND"), QStringLiteral("postgresql"));
        environment.insert(QString::fromLatin1(kChildEnding), ending);
        child.setProcessEnvironment(environment);
        child.start(QCoreApplication::applicationFilePath(),
                    test::runningSuiteArguments() << QStringLiteral("sharedClusterEndsWithItsProcess"));
        QVERIFY(child.waitForFinished(120000));
        const QString output = QString::fromUtf8(child.readAllStandardOutput());
        static const QRegularExpression reported(QStringLiteral("^cluster (\\d+) (\\S+)$"),
                                                 QRegularExpression::MultilineOption);
        const auto match = reported.match(output);
        QVERIFY2(match.hasMatch(), qPrintable(output + QString::fromUtf8(child.readAllStandardError())));
        QCOMPARE(child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0, ending == "pass");
        const qint64 server = match.captured(1).toLongLong();
        const QString directory = match.captured(2);
        // Gone at exit, or once the watchdog noticed the killed process: a hang guard, no timing.
        const QDeadlineTimer deadline(30000);
        while ((test::processIsRunning(server) || QDir(directory).exists()) && !deadline.hasExpired())
            QThread::msleep(100);
        QVERIFY2(!test::processIsRunning(server), qPrintable(QString::number(server)));
        QVERIFY2(!QDir(directory).exists(), qPrintable(directory));
    }

private:
    // In the copy: starts the process's cluster through a TestService, says where it is, ends.
    // Whether another process could reserve `port` now (PortReservation's lock file).
    static bool portLockIsFree(quint16 port) {
        const QByteArray path =
            QFile::encodeName(QDir::tempPath() + QStringLiteral("/jobdeck-test-ports/%1").arg(port));
        const int fd = ::open(path.constData(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
        const bool free = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
        if (fd >= 0)
            ::close(fd);
        return free;
    }
    static void endAsTold(const QString& ending) {
        TestService service;
        service.createKey(QStringLiteral("p"), QStringLiteral("admin")); // creates its database
        const PostgresCluster* cluster = TestBackend::postgresCluster();
        QVERIFY2(cluster, qPrintable(service.lastError()));
        std::printf("\ncluster %lld %s\n", static_cast<long long>(cluster->serverProcessId()),
                    qPrintable(cluster->directory()));
        std::fflush(stdout);
        if (ending == QLatin1String("kill"))
            std::raise(SIGKILL);
        QVERIFY2(ending == QLatin1String("pass"), "this copy was told to fail");
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestPostgresCluster)
#include "tst_postgrescluster.moc"
