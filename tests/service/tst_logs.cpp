// GET /v1/jobs/<name>/runs/<runId>/log: read by offset while the driver is still writing, complete
// once the run has ended, limits, and clear refusals for bad requests.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

using namespace jobdeck;
using namespace jobdeck::runtest;

class TestLogs final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;
    QString m_runId;

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QVERIFY(createClusterAndPythonJob(m_service, m_project.op, "lc", "slow",
                                          {"--lines", "30", "--interval-ms", "100"}));
    }

    void readsWhileGrowingThenComplete() {
        m_runId = runIdOf(runJob(m_service, m_project.op, "slow"));
        QVERIFY(!m_runId.isEmpty());
        QByteArray all;
        qint64 offset = 0;
        int partialReads = 0; // reads that returned data while the run was still going
        bool complete = false;
        QElapsedTimer timer;
        timer.start();
        while (!complete && timer.elapsed() < 30000) {
            const auto page = logPage(m_service, m_project.op, "slow", m_runId, offset);
            QCOMPARE(page.status, 200);
            QVERIFY(page.header("Content-Type").startsWith("text/plain"));
            const qint64 next = page.header("X-Log-Next-Offset").toLongLong();
            QCOMPARE(next, offset + page.body.size());
            complete = page.header("X-Log-Complete") == "true";
            QVERIFY(complete || page.header("X-Log-Complete") == "false");
            if (!complete && !page.body.isEmpty())
                ++partialReads;
            all += page.body;
            offset = next;
            QThread::msleep(150);
        }
        QVERIFY(complete);
        QVERIFY2(partialReads >= 3, qPrintable(QString::number(partialReads)));
        const QStringList lines = QString::fromUtf8(all).split('\n', Qt::SkipEmptyParts);
        QStringList numbered = lines.filter(QRegularExpression("^line \\d+$"));
        QCOMPARE(numbered.size(), 30);
        for (int i = 0; i < 30; ++i)
            QCOMPARE(numbered[i], QString("line %1").arg(i + 1));
        QCOMPARE(lines.last(), QString("done"));
        QCOMPARE(all, fullLog(m_service, m_project.op, "slow", m_runId));
    }

    void limitAndOffset() {
        const auto page = logPage(m_service, m_project.op, "slow", m_runId, 2, 5);
        QCOMPARE(page.status, 200);
        QCOMPARE(page.body, fullLog(m_service, m_project.op, "slow", m_runId).mid(2, 5));
        QCOMPARE(page.header("X-Log-Next-Offset"), QByteArray("7"));
        QCOMPARE(page.header("X-Log-Complete"), QByteArray("false"));
        const auto beyond = logPage(m_service, m_project.op, "slow", m_runId, 1 << 20);
        QCOMPARE(beyond.status, 200);
        QVERIFY(beyond.body.isEmpty());
        QCOMPARE(beyond.header("X-Log-Complete"), QByteArray("true"));
    }

    void viewersReadLogs() {
        const auto viewer = m_service.createKey("runs", "viewer");
        const auto page = logPage(m_service, viewer, "slow", m_runId, 0);
        QCOMPARE(page.status, 200);
        QVERIFY(page.body.startsWith("run-id: " + m_runId.toUtf8()));
    }

    void refusals() {
        const auto bad = request(m_service.url("/v1/jobs/slow/runs/" + m_runId + "/log", "offset=-1"), "GET",
                                 {}, m_project.op.headers());
        QCOMPARE(bad.status, 400);
        QCOMPARE(bad.header("grpc-message"), QByteArray("offset must be a non-negative integer, got '-1'"));
        const auto unknown = logPage(m_service, m_project.op, "slow", "nope", 0);
        QCOMPARE(unknown.status, 404);
        QCOMPARE(unknown.header("grpc-message"), QByteArray("Job run nope of Job slow does not exist"));
        const auto wrongJob = logPage(m_service, m_project.op, "other", m_runId, 0);
        QCOMPARE(wrongJob.status, 404);
        const auto anonymous = request(m_service.url("/v1/jobs/slow/runs/" + m_runId + "/log"), "GET");
        QCOMPARE(anonymous.status, 401);
        const auto otherProject = m_service.createKey("elsewhere", "admin");
        QCOMPARE(logPage(m_service, otherProject, "slow", m_runId, 0).status, 404);
    }

    // A run id or job name with a NUL or bytes that are not UTF-8 names nothing: 404 as an unknown
    // one, on both backends (PostgreSQL's text ends at a NUL: `<runId>%00` found the run).
    void textThatNamesNothingIsNotFound() {
        const QByteArray id = m_runId.toUtf8();
        const QList<QByteArray> targets{
            "/v1/jobs/slow/runs/" + id + "%00/log", "/v1/jobs/slow/runs/" + id + "%00x/log",
            "/v1/jobs/slow%00/runs/" + id + "/log", "/v1/jobs/slow/runs/" + id + "%FF/log",
            "/v1/jobs/%C3%28/runs/" + id + "/log"};
        for (const QByteArray& target : targets) {
            QByteArray head = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
            for (const auto& [name, value] : m_project.op.headers())
                head += name + ": " + value + "\r\n";
            const QByteArray answer = rawExchange(m_service.port(), head + "\r\n");
            QVERIFY2(rawStatus(answer) == 404, (target + " -> " + answer.left(300)).constData());
        }
        QVERIFY2(!m_service.errorOutput().contains(QStringLiteral("[error]")),
                 qPrintable(m_service.errorOutput()));
    }

    // The driver prints what it was given (the test app echoes its Spark configs and arguments): the
    // run's secret values are **** in the log, whoever reads it and in whatever parts, and the log is
    // read to its end as without them.
    void secretValuesAreMaskedInTheLog() {
        QVERIFY(statusOf(must(m_service, m_project.op,
                              "CREATE CLUSTER sc TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH "
                              "'spark.hadoop.fs.s3a.secret.key' = 'Cluster-S3cret'")) == kSuccess);
        QVERIFY(statusOf(must(m_service, m_project.op,
                              "CREATE JOB secretive TYPE = 'PYTHON' PARAMETERS = ( '--conf', "
                              "'spark.db.password=Conf-Passw0rd', '" +
                                  kPythonApp +
                                  "', '--db-password', 'Arg-Hunter2', '--api-token=Inline-T0ken', "
                                  "'--lines', '3' ) CLUSTER = 'sc'")) == kSuccess);
        const QString runId =
            runIdOf(runJob(m_service, m_project.op, "secretive", {{"--db-password", "Override-Hunter3"}}));
        QVERIFY(!runId.isEmpty());
        QVERIFY(hasEnded()(waitForRun(m_service, m_project.op, "secretive", runId, hasEnded())));
        const QByteArray log = fullLog(m_service, m_project.op, "secretive", runId);
        QVERIFY2(log.contains("spark-conf: spark.db.password=****\n"), log.constData());
        QVERIFY2(log.contains("spark-conf: spark.hadoop.fs.s3a.secret.key=****\n"), log.constData());
        QVERIFY2(log.contains("arg: ****\n"), log.constData());
        QVERIFY2(log.contains("arg: --api-token=****\n"), log.constData());
        QVERIFY2(log.contains("done\n"), log.constData());
        const auto viewer = m_service.createKey("runs", "viewer");
        for (const QByteArray& secret :
             {QByteArray("Conf-Passw0rd"), QByteArray("Arg-Hunter2"), QByteArray("Inline-T0ken"),
              QByteArray("Override-Hunter3"), QByteArray("Cluster-S3cret")}) {
            QVERIFY2(!log.contains(secret), log.constData());
            QVERIFY(!fullLog(m_service, viewer, "secretive", runId).contains(secret));
        }
        // Read 5 bytes at a time: no secret is split over two parts, and the parts add up to the log.
        QByteArray inParts;
        qint64 offset = 0;
        for (int i = 0; i < 2000; ++i) {
            const auto page = logPage(m_service, m_project.op, "secretive", runId, offset, 5);
            QCOMPARE(page.status, 200);
            inParts += page.body;
            const qint64 next = page.header("X-Log-Next-Offset").toLongLong();
            if (page.header("X-Log-Complete") == "true")
                break;
            QVERIFY(next > offset);
            offset = next;
        }
        QCOMPARE(inParts, log);
    }

    // A log is masked with the secret values its run was started with: neither a Job nor a cluster
    // changed or deleted since shows an old value in it.
    void anOlderRunKeepsItsSecretsMaskedAfterTheyChange() {
        QVERIFY(statusOf(must(m_service, m_project.op,
                              "CREATE CLUSTER rotating TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH "
                              "'spark.hadoop.fs.s3a.secret.key' = 'Old-Cluster-S3cret'")) == kSuccess);
        const QString parameters =
            "'--conf', 'spark.db.password=%1', '" + kPythonApp + "', '--db-password', '%2', '--lines', '1'";
        QVERIFY(statusOf(must(m_service, m_project.op,
                              "CREATE JOB rotated TYPE = 'PYTHON' PARAMETERS = ( " +
                                  parameters.arg("Old-Passw0rd", "Old-Hunter2") +
                                  " ) CLUSTER = 'rotating'")) == kSuccess);
        const QString runId = runIdOf(runJob(m_service, m_project.op, "rotated"));
        QVERIFY(!runId.isEmpty());
        QVERIFY(hasEnded()(waitForRun(m_service, m_project.op, "rotated", runId, hasEnded())));
        const QList<QByteArray> secrets{"Old-Cluster-S3cret", "Old-Passw0rd", "Old-Hunter2"};
        const auto showsNone = [&](const char* after) {
            const QByteArray log = fullLog(m_service, m_project.op, "rotated", runId);
            for (const QByteArray& secret : secrets)
                QVERIFY2(!log.contains(secret), qPrintable(QString("%1: %2").arg(after, log)));
            QVERIFY2(log.contains("done\n"), qPrintable(QString("%1: %2").arg(after, log)));
        };
        showsNone("as started");
        QVERIFY(statusOf(must(m_service, m_project.op,
                              "ALTER JOB rotated SET PARAMETERS = ( " +
                                  parameters.arg("New-Passw0rd", "New-Hunter2") + " )")) == kSuccess);
        QVERIFY(
            statusOf(must(m_service, m_project.op,
                          "ALTER CLUSTER rotating WITH 'spark.hadoop.fs.s3a.secret.key' = 'New-S3cret'")) ==
            kSuccess);
        showsNone("after ALTER JOB and ALTER CLUSTER");
        QVERIFY(statusOf(must(m_service, m_project.op, "DELETE JOB rotated")) == kSuccess);
        QCOMPARE(logPage(m_service, m_project.op, "rotated", runId, 0).status, 404); // gone with its Job
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestLogs)
#include "tst_logs.moc"
