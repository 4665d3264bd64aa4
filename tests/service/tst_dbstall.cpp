// jobdeckd while its database stalls without going away: on PostgreSQL the server's processes are
// stopped (SIGSTOP: a frozen host, a stuck storage), with SQLite another process holds an exclusive lock
// on jobdeck.db. GET /v1/health answers at once from what the service knows, RUN JOBs sent during the
// stall end FAILED with a reason (or are refused with 503) within about the database timeout, all of
// them, instead of staying PENDING, and the service serves again once the database moves.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/wire/DatabaseFaults.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/ProcessState.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QThread>

#include <signal.h>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr int kDatabaseTimeoutSeconds = 5;
constexpr int kRuns = 8; // twice as many as the service has workers, more than an IO thread can read at once

// The database options of the service under test: a short statement timeout, so a stall outlasts it.
QStringList timeoutArguments() {
    return {"--database-timeout", QString::number(kDatabaseTimeoutSeconds), "--database-connect-timeout",
            QString::number(kDatabaseTimeoutSeconds)};
}

// Stops every process of the server while it lives, and lets them go on however the test ends. The
// postmaster first, and its children listed once it is stopped: a backend it forked while they were
// being listed would go on serving a connection opened just then.
struct FrozenServer final {
    QList<qint64> pids;
    explicit FrozenServer(qint64 postmaster)
        : pids{postmaster} {
        ::kill(static_cast<pid_t>(postmaster), SIGSTOP);
        QDeadlineTimer deadline(30000);
        while (test::statFields(postmaster).value(0) != "T" && !deadline.hasExpired())
            QThread::msleep(10);
        for (const qint64 pid : test::childProcesses(postmaster)) {
            ::kill(static_cast<pid_t>(pid), SIGSTOP);
            pids << pid;
        }
    }
    ~FrozenServer() { thaw(); }
    void thaw() {
        for (const qint64 pid : pids)
            ::kill(static_cast<pid_t>(pid), SIGCONT);
        pids.clear();
    }
};

// A process that holds the write lock of a SQLite database (BEGIN EXCLUSIVE: in WAL mode others still
// read, none writes) until it is killed, however the test ends.
struct LockedDatabase final {
    QProcess holder;
    bool lock(const QString& path) {
        holder.setProcessChannelMode(QProcess::MergedChannels);
        holder.start("python3", {"-c",
                                 "import sqlite3, sys, time\n"
                                 "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                                 "c.execute('BEGIN EXCLUSIVE')\n"
                                 "print('locked', flush=True)\n"
                                 "time.sleep(600)\n",
                                 path});
        return holder.waitForReadyRead(30000) && holder.readAll().contains("locked");
    }
    ~LockedDatabase() { release(); }
    void release() {
        if (holder.state() != QProcess::NotRunning) {
            holder.kill();
            holder.waitForFinished(10000);
        }
    }
};

// Every answer is final and says why: a 503 with an error, or FAILED with a message that names the
// timeout (or the database that cannot be reached); none PENDING or missing.
QString notFinal(const std::vector<nlohmann::json>& answers) {
    for (const auto& answer : answers) {
        if (!answer.is_object())
            return "no answer";
        if (answer.contains("error") && !answer.value("error", std::string()).empty())
            continue;
        const std::string message = answer.value("errorMessage", std::string());
        if (answer.value("apiStatus", std::string()) == kApiFailed &&
            (message.find(databaseFaultReason(DatabaseFault::TimedOut)) != std::string::npos ||
             message.find(databaseFaultReason(DatabaseFault::Unavailable)) != std::string::npos))
            continue;
        return QString::fromStdString(answer.dump());
    }
    return {};
}

// GET /v1/status/<id> until the status is final (or a generous deadline passes); the last answer.
nlohmann::json polledToTheEnd(const TestService& service, const ApiCredentials& who, const QString& id) {
    QElapsedTimer timer;
    timer.start();
    nlohmann::json status;
    while (timer.elapsed() < 120000) {
        const HttpResult polled = request(service.url("/v1/status/" + id), "GET", {}, who.headers());
        status = polled.json();
        if (polled.status == 200 &&
            status.value("apiStatus", std::string()) != "API_OPERATION_STATUS_PENDING")
            return status;
        QThread::msleep(500);
    }
    return status;
}

} // namespace

class TestDbStall final : public QObject {
    Q_OBJECT

    // A project with a cluster and kRuns jobs (one run each), on `service`.
    bool prepare(TestService& service, Project& project) {
        if (!project.create(service) || !createClusterAndPythonJob(service, project.op, "cc", "j0", {}))
            return false;
        for (int i = 1; i < kRuns; ++i)
            if (statusOf(must(service, project.op,
                              QString("CREATE JOB j%1 TYPE = 'PYTHON' PARAMETERS = %2 CLUSTER = 'cc'")
                                  .arg(i)
                                  .arg(tuple({kPythonApp})))) != kSuccess)
                return false;
        return true;
    }

    // While the database stalls: health answers within a hang guard, and a burst of RUN JOBs ends.
    void answersDuringTheStall(TestService& service, const Project& project) {
        QElapsedTimer timer;
        timer.start();
        const HttpResult health = request(service.url("/v1/health"), "GET", {}, {}, 30000);
        const qint64 healthMs = timer.elapsed();
        QVERIFY2(healthMs < 5000,
                 qPrintable(QString("hang guard: /v1/health took %1 ms while the database stalls (status %2)")
                                .arg(healthMs)
                                .arg(health.status)));
        // A frozen server answers no probe; SQLite readers still read beside a held write lock.
        if (TestService::isPostgresBackend()) {
            QCOMPARE(health.status, 503);
            QVERIFY2(health.header("grpc-message").startsWith("Database unavailable"),
                     health.body.constData());
        } else {
            QVERIFY2(health.status == 200 || health.status == 503, qPrintable(health.error));
        }

        std::vector<QString> statements;
        for (int i = 0; i < kRuns; ++i)
            statements.push_back(QString("RUN JOB j%1").arg(i));
        auto answers =
            concurrentStatements(service, project.op, statements, std::vector<QByteArray>(kRuns), 180000);
        // One still PENDING after its `Prefer: wait` is polled as a client would, to its end.
        for (auto& answer : answers)
            if (answer.is_object() &&
                answer.value("apiStatus", std::string()) == "API_OPERATION_STATUS_PENDING")
                answer = polledToTheEnd(service, project.op,
                                        QString::fromStdString(answer.value("requestId", "")));
        const qint64 answeredMs = timer.elapsed();
        const QString pending = notFinal(answers);
        QVERIFY2(pending.isEmpty(), qPrintable("a RUN JOB during the stall: " + pending + "\nservice log:\n" +
                                               service.errorOutput().right(3000)));
        // Each is answered within about one timeout (the statements behind one that waited for the
        // database do not each wait again in turn); 6 timeouts is a hang guard's margin, one after
        // another would take kRuns or more.
        QVERIFY2(
            answeredMs < 6 * kDatabaseTimeoutSeconds * 1000,
            qPrintable(QString("hang guard: the RUN JOBs sent during the stall took %1 ms to be answered")
                           .arg(answeredMs)));
    }

    // Once the database moves again: statements succeed and health is fine, without a restart.
    void servesAgain(TestService& service, const Project& project) {
        QElapsedTimer timer;
        timer.start();
        std::string status;
        while (timer.elapsed() < 60000) {
            status = statusOf(runStatement(service, project.op, "SHOW CLUSTERS"));
            if (status == kSuccess && request(service.url("/v1/health"), "GET").status == 200)
                break;
            QThread::msleep(250);
        }
        QCOMPARE(status, std::string(kSuccess));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        QVERIFY(service.isRunning());
    }

private slots:
    void stalledDatabaseAnswersAndRecovers() {
        if (TestService::isPostgresBackend())
            frozenPostgresqlServer();
        else
            lockedSqliteDatabase();
    }

private:
    void frozenPostgresqlServer() {
        // A cluster of the test's own, so the process's shared one keeps serving.
        PostgresCluster cluster;
        QVERIFY2(cluster.start(), qPrintable(cluster.lastError()));
        TestService service(QStringList{"--database", cluster.connectionUri()} + timeoutArguments());
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        Project project;
        QVERIFY(prepare(service, project));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        {
            FrozenServer frozen(cluster.serverProcessId());
            QVERIFY(!frozen.pids.isEmpty());
            answersDuringTheStall(service, project);
        }
        if (QTest::currentTestFailed())
            return;
        servesAgain(service, project);
        QCOMPARE(service.stop(), 0);
    }

    void lockedSqliteDatabase() {
        TestService service(timeoutArguments());
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        Project project;
        QVERIFY(prepare(service, project));
        QCOMPARE(request(service.url("/v1/health"), "GET").status, 200);
        {
            LockedDatabase locked;
            QVERIFY2(locked.lock(service.dataDir() + "/jobdeck.db"), locked.holder.readAll().constData());
            answersDuringTheStall(service, project);
        }
        if (QTest::currentTestFailed())
            return;
        servesAgain(service, project);
        QCOMPARE(service.stop(), 0);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestDbStall)
#include "tst_dbstall.moc"
