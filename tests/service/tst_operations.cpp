// What an operator watches: GET /metrics (Prometheus text, aggregate only, checked by promtool) and
// GET /v1/health, which says whether the database answers and is still the one the service opened.
#include "core/wire/DatabaseFaults.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;

namespace {

// The value of the sample written exactly as `series` (name plus labels), 0 when it is absent.
double sampleValue(const QByteArray& text, const QByteArray& series) {
    for (const QByteArray& line : text.split('\n'))
        if (line.startsWith(series + ' '))
            return line.mid(series.size() + 1).toDouble();
    return 0;
}

} // namespace

class TestOperations : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;

    QByteArray scrape() {
        const auto metrics = request(m_service.url(QStringLiteral("/metrics")), "GET");
        [&] {
            QCOMPARE(metrics.status, 200);
            QVERIFY2(metrics.header("Content-Type").startsWith("text/plain; version=0.0.4"),
                     metrics.header("Content-Type").constData());
        }();
        return metrics.body;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("ops-secret-project"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
    }

    void countersMoveAndNameNothing() {
        const QByteArray before = scrape();
        for (int i = 0; i < 3; ++i)
            QCOMPARE(request(m_service.url(QStringLiteral("/v1/health")), "GET").status, 200);
        QVERIFY(statementSucceeds(
            m_service, m_admin,
            QStringLiteral("CREATE CLUSTER ops_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")));
        QCOMPARE(statusOf(runStatement(m_service, m_admin, QStringLiteral("FROBNICATE ops_job"))), kInvalid);
        QVERIFY(statementSucceeds(
            m_service, m_admin,
            QStringLiteral("ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 3")));
        QVERIFY(statementSucceeds(m_service, m_admin,
                                  QStringLiteral("CREATE JOB ops_job TYPE = 'JAR' PARAMETERS = ('app.jar') "
                                                 "CLUSTER = 'ops_cluster' MAX_CONCURRENT_RUNS = 2")));
        // Above 1 concurrent run, RUN JOB needs an Idempotency-Key: refused at admission.
        QCOMPARE(statusOf(runStatement(m_service, m_admin, QStringLiteral("RUN JOB ops_job"))), kFailed);
        const QByteArray after = scrape();

        auto moved = [&](const QByteArray& series) {
            return sampleValue(after, series) - sampleValue(before, series);
        };
        QCOMPARE(moved(R"(jobdeck_http_requests_total{method="GET",route="/v1/health",status="200"})"), 3.0);
        QCOMPARE(moved(R"(jobdeck_http_request_duration_seconds_count{route="/v1/health"})"), 3.0);
        QCOMPARE(moved(R"(jobdeck_http_request_duration_seconds_bucket{route="/v1/health",le="+Inf"})"), 3.0);
        QCOMPARE(moved(R"(jobdeck_http_requests_total{method="POST",route="/v1/resource",status="200"})"),
                 5.0);
        QCOMPARE(moved(R"(jobdeck_statements_total{kind="create_cluster",outcome="success"})"), 1.0);
        QCOMPARE(moved(R"(jobdeck_statements_total{kind="unparsed",outcome="invalid"})"), 1.0);
        QCOMPARE(moved(R"(jobdeck_statements_total{kind="run_job",outcome="failed"})"), 1.0);
        QCOMPARE(moved(R"(jobdeck_run_admission_refusals_total{reason="idempotency_key_required"})"), 1.0);
        QVERIFY(moved(R"(jobdeck_database_statement_duration_seconds_count{kind="commit"})") >= 4);
        QVERIFY(sampleValue(after, R"(jobdeck_database_statement_duration_seconds_count{kind="read"})") > 0);
        QVERIFY(after.contains(R"(jobdeck_runs{state="queued"} 0)"));
        QVERIFY(after.contains("jobdeck_run_queue_length 0"));

        // Aggregate only: no project, job, cluster or key, and the route pattern rather than a path.
        for (const QByteArray& name :
             {QByteArray("ops-secret-project"), QByteArray("ops_job"), QByteArray("ops_cluster"),
              m_admin.projectUid.toUtf8(), m_admin.apiKey.toUtf8(), m_admin.apiSecret.toUtf8()})
            QVERIFY2(!after.contains(name), name.constData());
    }

    void pathsBecomeRoutePatterns() {
        const QString id = QStringLiteral("00000000-0000-7000-8000-00000000abcd");
        QCOMPARE(
            request(m_service.url(QStringLiteral("/v1/status/") + id), "GET", {}, m_admin.headers()).status,
            404);
        QCOMPARE(request(m_service.url(QStringLiteral("/no/such/place-") + id), "GET").status, 404);
        QCOMPARE(request(m_service.url(QStringLiteral("/v1/health")), "FROB").status, 405);
        const QByteArray text = scrape();
        QVERIFY(!text.contains(id.toUtf8()));
        QVERIFY(!text.contains("FROB"));
        QVERIFY(sampleValue(
                    text, R"(jobdeck_http_requests_total{method="GET",route="/v1/status/",status="404"})") >=
                1);
        QVERIFY(sampleValue(text, R"(jobdeck_http_requests_total{method="GET",route="none",status="404"})") >=
                1);
        QVERIFY(sampleValue(text,
                            R"(jobdeck_http_requests_total{method="other",route="none",status="405"})") >= 1);
    }

    void metricsPassPromtool() {
        const QString promtool = QStandardPaths::findExecutable(QStringLiteral("promtool"));
        QVERIFY2(!promtool.isEmpty(), "promtool is missing: install the Debian package prometheus");
        QProcess check;
        check.setProcessChannelMode(QProcess::MergedChannels);
        check.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
        QVERIFY(check.waitForStarted(10000));
        check.write(scrape());
        check.closeWriteChannel();
        QVERIFY(check.waitForFinished(30000));
        const QByteArray output = check.readAll();
        QVERIFY2(check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0, output.constData());
        QVERIFY2(output.trimmed().isEmpty(), output.constData());
    }

    void healthSaysWhenTheDatabaseDoesNotAnswer() {
        if (TestService::isPostgresBackend()) {
            healthSaysWhenPostgresDoesNotAnswer();
            return;
        }
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const auto fine = request(service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(fine.status, 200);
        QVERIFY2(fine.json() == (nlohmann::json{{"status", "ok"}, {"version", JOBDECK_VERSION}}),
                 fine.body.constData());

        // Another file takes the database's place under the open connections.
        const QString database = QDir(service.dataDir()).filePath(QStringLiteral("jobdeck.db"));
        QFile impostor(database + QStringLiteral(".new"));
        QVERIFY(impostor.open(QIODevice::WriteOnly));
        impostor.write("not a database");
        impostor.close();
        QVERIFY(QFile::remove(database));
        QVERIFY(QFile::rename(impostor.fileName(), database));
        auto unhealthy = request(service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(unhealthy.status, 503);
        QVERIFY2(unhealthy.header("grpc-message").contains("was replaced"), unhealthy.body.constData());
        QVERIFY2(unhealthy.json() ==
                     (nlohmann::json{{"error", unhealthy.header("grpc-message").toStdString()}}),
                 unhealthy.body.constData());

        QVERIFY(QFile::remove(database));
        unhealthy = request(service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(unhealthy.status, 503);
        QVERIFY2(unhealthy.header("grpc-message").startsWith("Database unavailable: the database file"),
                 unhealthy.body.constData());
        QVERIFY2(unhealthy.header("grpc-message").contains("cannot be found"), unhealthy.body.constData());
        service.kill9(); // its data are gone; nothing to shut down gracefully
    }

    // The database is dropped and created again, empty, under the running service: health says so
    // instead of serving an empty project set, and no statement succeeds on it.
    void healthSaysWhenTheDatabaseIsNoLongerTheOneOpened() {
        if (TestService::isPostgresBackend()) {
            healthSaysWhenPostgresIsCreatedAgain();
            return;
        }
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(request(service.url(QStringLiteral("/v1/health")), "GET").status, 200);
        const QString database = QDir(service.dataDir()).filePath(QStringLiteral("jobdeck.db"));
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
            QFile::remove(database + suffix);
        QProcess sqlite;
        sqlite.start(
            QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('CREATE TABLE t(x)')"),
             database});
        QVERIFY(sqlite.waitForFinished(30000) && sqlite.exitCode() == 0);
        const auto unhealthy = request(service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(unhealthy.status, 503);
        QVERIFY2(unhealthy.header("grpc-message").contains("was replaced"), unhealthy.body.constData());
        service.kill9();
    }

private:
    void healthSaysWhenPostgresIsCreatedAgain() {
        PostgresCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
        TestService service({QStringLiteral("--database"), cluster.connectionUri()});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials admin = service.createKey(QStringLiteral("again"), QStringLiteral("admin"));
        QVERIFY2(admin.isValid(), qPrintable(service.lastError()));
        QVERIFY(statementSucceeds(
            service, admin, QStringLiteral("CREATE CLUSTER kept TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")));
        QCOMPARE(request(service.url(QStringLiteral("/v1/health")), "GET").status, 200);

        const QStringList where{QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                                QStringLiteral("-p"), QString::number(cluster.port()),
                                QStringLiteral("-U"), cluster.userName()};
        for (const auto& [tool, extra] :
             {std::pair{QStringLiteral("dropdb"), QStringList{QStringLiteral("--force")}},
              std::pair{QStringLiteral("createdb"), QStringList{}}}) {
            QProcess process;
            process.setProcessChannelMode(QProcess::MergedChannels);
            process.start(PostgresCluster::binDirectory() + "/" + tool,
                          where + extra + QStringList{cluster.databaseName()});
            QVERIFY(process.waitForFinished(30000));
            QVERIFY2(process.exitCode() == 0, process.readAll().constData());
        }

        const std::string expected = databaseReplacedReason(false);
        HttpResult unhealthy;
        QTRY_VERIFY_WITH_TIMEOUT(
            (unhealthy = request(service.url(QStringLiteral("/v1/health")), "GET")).status == 503 &&
                unhealthy.header("grpc-message").toStdString() == "Database unavailable: " + expected,
            30000);
        // Nothing is served from the empty database as if it were the service's.
        QVERIFY(statusOf(runStatement(service, admin, QStringLiteral("SHOW CLUSTERS"))) != kSuccess);
        QVERIFY(service.isRunning());
        service.kill9();
    }

    // The same on PostgreSQL, whose server is stopped under the service: a cluster of the test's own,
    // so the process's shared one keeps serving the other tests.
    void healthSaysWhenPostgresDoesNotAnswer() {
        PostgresCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
        TestService service({QStringLiteral("--database"), cluster.connectionUri()});
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(request(service.url(QStringLiteral("/v1/health")), "GET").status, 200);
        QVERIFY2(cluster.pause(), qPrintable(cluster.lastError()));
        const auto unhealthy = request(service.url(QStringLiteral("/v1/health")), "GET");
        QCOMPARE(unhealthy.status, 503);
        QVERIFY2(
            unhealthy.header("grpc-message").startsWith("Database unavailable: the database does not answer"),
            unhealthy.body.constData());
        QVERIFY2(unhealthy.json() ==
                     (nlohmann::json{{"error", unhealthy.header("grpc-message").toStdString()}}),
                 unhealthy.body.constData());
        QVERIFY(service.isRunning());
        service.kill9();
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestOperations)
#include "tst_operations.moc"
