// GET /v1/status holds a PENDING request for its final status (`--status-hold-seconds`, `Prefer: wait` on
// the GET), so that a client that polls once right after its POST and then sleeps long is answered at
// that first poll. Driven as the Airflow provider's hook polls: POST, one GET at once, then a 10 s sleep
// whenever the answer is PENDING (counted here, not slept). Through the real jobdeckd, on both backends.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tst_runsupport.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::runtest;
using json = nlohmann::json;

namespace {

// The Airflow hook's sleep after a PENDING status.
constexpr int kHookSleepSeconds = 10;
// Well above what any statement of the flow takes on a busy test machine, so that "final at the first
// GET" is about the hold and not about the machine; the default (2 s) is measured in
// docs/performance.md.
const QString kHoldSeconds = QStringLiteral("10");

// The apiStatus of an answer, "" when it is not a status object.
std::string apiStatusOf(const HttpResult& answer) {
    const json body = answer.json();
    return body.is_object() ? body.value("apiStatus", std::string()) : std::string();
}

HttpHeaders preferWait(int seconds) {
    return {{"Prefer", "wait=" + QByteArray::number(seconds)}};
}

} // namespace

class TestStatusHold final : public QObject {
    Q_OBJECT

    TestService m_service{{"--status-hold-seconds", kHoldSeconds}};
    Project m_project;
    int m_sleeps = 0;          // simulated 10 s sleeps of the hook
    QString m_finishedRequest; // a request whose status is final, for the concurrency checks

    // POST /v1/resource/ without Prefer: the request id (empty when refused).
    QString post(const ApiCredentials& who, const QString& statement) {
        const auto answer =
            request(m_service.url("/v1/resource/"), "POST",
                    QByteArray::fromStdString(json{{"statement", statement.toStdString()}}.dump()),
                    who.headers() + HttpHeaders{{"Content-Type", "application/json"}}, 30000);
        if (answer.status != 200)
            qWarning() << "POST" << statement << "->" << answer.status << answer.body << answer.error;
        return QString::fromStdString(answer.json().value("requestId", std::string()));
    }
    HttpResult get(const ApiCredentials& who, const QString& requestId, const HttpHeaders& extra = {},
                   int timeoutMs = 60000) {
        return request(m_service.url("/v1/status/" + requestId), "GET", {}, who.headers() + extra, timeoutMs);
    }

    // One statement as the hook sends it: POST, GET at once, and after a PENDING answer a 10 s sleep and
    // another GET. The sleep is counted, not slept: the test polls without a hold until the status is
    // final, which is what the hook's next GET would find. Returns the final status; `finalAtFirst` says
    // whether the first GET had it.
    json asTheHook(const QString& statement, bool* finalAtFirst) {
        const QString id = post(m_project.op, statement);
        *finalAtFirst = false;
        if (id.isEmpty())
            return json::object();
        HttpResult answer = get(m_project.op, id);
        *finalAtFirst = apiStatusOf(answer) != "API_OPERATION_STATUS_PENDING";
        if (!*finalAtFirst)
            ++m_sleeps;
        QDeadlineTimer deadline(60000);
        while (apiStatusOf(answer) == "API_OPERATION_STATUS_PENDING" && !deadline.hasExpired()) {
            QThread::msleep(50);
            answer = get(m_project.op, id, preferWait(0));
        }
        m_finishedRequest = id;
        const json status = answer.json();
        return status.is_object() ? status : json::object();
    }

    // Makes ALTER JOB slowjob take long inside the database, whatever the service does: PostgreSQL waits
    // for the test's lock on `jobs` until release(); SQLite runs a trigger that counts 36 million rows
    // (a few seconds at least; the writer is the one connection such a trigger can slow down, as SQLite
    // also writes every request's acknowledgement). release() ends the PostgreSQL wait; SQLite's ends on
    // its own.
    struct SlowAlter {
        std::unique_ptr<ServiceDatabase> db;
        bool postgres = false;
        void release() {
            if (postgres)
                db->release();
        }
    };
    std::unique_ptr<SlowAlter> slowAlter() {
        auto slow = std::make_unique<SlowAlter>();
        slow->db = std::make_unique<ServiceDatabase>(m_service);
        slow->postgres = TestService::isPostgresBackend();
        if (slow->postgres) {
            if (!slow->db->holdWriteLock("jobs"))
                qWarning() << "cannot lock jobs:" << slow->db->lastError();
            return slow;
        }
        for (const char* sql :
             {"CREATE TABLE IF NOT EXISTS slow_rows(x INTEGER)", "DELETE FROM slow_rows",
              "INSERT INTO slow_rows WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x "
              "< "
              "6000) SELECT x FROM n",
              "CREATE TRIGGER IF NOT EXISTS slow_alter BEFORE UPDATE ON jobs WHEN NEW.name = 'slowjob' BEGIN "
              "SELECT count(*) FROM slow_rows a, slow_rows b WHERE a.x + b.x > 0; END"})
            if (slow->db->execute(sql) < 0)
                qWarning() << sql << slow->db->lastError();
        return slow;
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        for (const char* cluster : {"main", "other"})
            QVERIFY(statementSucceeds(
                m_service, m_project.op,
                QString("CREATE CLUSTER %1 TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 0").arg(cluster)));
    }

    // The nine statements of a create-run-alter-cancel-delete flow, each final at its first GET on an
    // idle service: the hook never sleeps.
    void theHooksFirstPollIsFinal() {
        QElapsedTimer flow;
        flow.start();
        m_sleeps = 0;
        QStringList late;
        const auto step = [&](const QString& statement) {
            bool finalAtFirst = false;
            json status = asTheHook(statement, &finalAtFirst);
            if (!finalAtFirst)
                late << statement;
            if (statusOf(status) != kSuccess)
                qWarning() << statement << "->" << status.dump().c_str();
            return status;
        };
        QCOMPARE(statusOf(step("CREATE CLUSTER flow TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 0")),
                 std::string(kSuccess));
        QCOMPARE(statusOf(step("CREATE JOB flowjob TYPE = 'PYTHON' PARAMETERS = " +
                               tuple({kPythonApp, "--sleep", "120"}) + " CLUSTER = 'flow'")),
                 std::string(kSuccess));
        QCOMPARE(statusOf(step("DESCRIBE JOB flowjob")), std::string(kSuccess));
        const QString run = runIdOf(step("RUN JOB flowjob"));
        QVERIFY(!run.isEmpty());
        const QString runRef = "`" + run + "` JOB_NAME = 'flowjob'";
        QCOMPARE(statusOf(step("DESCRIBE JOB_RUN " + runRef)), std::string(kSuccess));
        QCOMPARE(statusOf(step("ALTER JOB flowjob SET CLUSTER = 'flow'")), std::string(kSuccess));
        QCOMPARE(statusOf(step("CANCEL JOB_RUN " + runRef)), std::string(kSuccess));
        QCOMPARE(statusOf(step("SHOW JOB_RUNS JOB_NAME = 'flowjob'")), std::string(kSuccess));
        // The sensor's polling until the run has ended, as the DAG would do before deleting.
        QCOMPARE(waitForRun(m_service, m_project.op, "flowjob", run, hasEnded(), 60000)
                     .value("status", std::string()),
                 std::string(kCanceled));
        QCOMPARE(statusOf(step("DELETE JOB flowjob")), std::string(kSuccess));
        qInfo("the nine statements as the Airflow hook polls them: %lld ms, %d simulated 10 s sleeps "
              "(%lld ms with them)",
              flow.elapsed(), m_sleeps, flow.elapsed() + 1000LL * kHookSleepSeconds * m_sleeps);
        QVERIFY2(late.isEmpty(), qPrintable("PENDING at the first GET: " + late.join(" | ")));
    }

    // A statement still running when the hold ends is answered PENDING; `Prefer: wait=0` answers at once.
    void aStatementLongerThanTheHoldIsPending() {
        QVERIFY(statementSucceeds(m_service, m_project.op,
                                  "CREATE JOB slowjob TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp}) +
                                      " CLUSTER = 'main'"));
        const auto slow = slowAlter();
        const QString id = post(m_project.op, "ALTER JOB slowjob SET CLUSTER = 'other'");
        QVERIFY(!id.isEmpty());

        QElapsedTimer timer;
        timer.start();
        const auto atOnce = get(m_project.op, id, preferWait(0));
        QCOMPARE(atOnce.status, 200);
        QCOMPARE(apiStatusOf(atOnce), std::string("API_OPERATION_STATUS_PENDING"));
        QCOMPARE(atOnce.header("Preference-Applied"), QByteArray("wait=0"));
        // Hang guard with a wide margin: not held for the service's 10 s.
        QVERIFY2(timer.elapsed() < 5000, "Prefer: wait=0 was held");

        timer.restart();
        const auto held = get(m_project.op, id, preferWait(1));
        QCOMPARE(apiStatusOf(held), std::string("API_OPERATION_STATUS_PENDING"));
        QVERIFY2(timer.elapsed() >= 1000, "answered PENDING before its hold ran out");

        slow->release();
        // Once it has run, a held GET answers as soon as the status is final.
        std::string final;
        for (int i = 0; i < 30 && (final.empty() || final == "API_OPERATION_STATUS_PENDING"); ++i)
            final = apiStatusOf(get(m_project.op, id));
        QCOMPARE(final, std::string(kSuccess));
        m_finishedRequest = id;
    }

    // Held GETs hold no worker: with more of them than workers, other requests are answered meanwhile.
    void aHeldGetDelaysNoOtherRequest() {
        QVERIFY(statementSucceeds(m_service, m_project.op,
                                  "CREATE JOB slowjob2 TYPE = 'PYTHON' PARAMETERS = " + tuple({kPythonApp}) +
                                      " CLUSTER = 'main'"));
        const auto slow = slowAlter();
        if (!TestService::isPostgresBackend()) // the trigger slows the one job it names
            QVERIFY(slow->db->execute("DROP TRIGGER slow_alter") >= 0 &&
                    slow->db->execute("CREATE TRIGGER slow_alter BEFORE UPDATE ON jobs WHEN NEW.name = "
                                      "'slowjob2' BEGIN SELECT count(*) FROM slow_rows a, slow_rows b WHERE "
                                      "a.x + b.x > 0; END") >= 0);
        const QString id = post(m_project.op, "ALTER JOB slowjob2 SET CLUSTER = 'other'");
        QVERIFY(!id.isEmpty());

        // Raw connections of this thread: the blocking requests below run event loops that serve them too.
        constexpr int kHeld = 8; // the service has 4 workers
        int answered = 0;
        std::vector<std::unique_ptr<QTcpSocket>> held;
        QByteArray raw = "GET /v1/status/" + id.toUtf8() +
                         " HTTP/1.1\r\nHost: 127.0.0.1\r\nPrefer: wait=30\r\nConnection: close\r\n";
        for (const auto& [name, value] : m_project.op.headers())
            raw += name + ": " + value + "\r\n";
        raw += "\r\n";
        for (int i = 0; i < kHeld; ++i) {
            auto socket = std::make_unique<QTcpSocket>();
            QTcpSocket* s = socket.get();
            QObject::connect(s, &QTcpSocket::connected, s, [s, raw] { s->write(raw); });
            QObject::connect(s, &QTcpSocket::disconnected, s, [&answered] { ++answered; });
            s->connectToHost(QHostAddress::LocalHost, m_service.port());
            held.push_back(std::move(socket));
        }
        QTest::qWait(300); // lets the GETs arrive; nothing below depends on it
        const auto health = request(m_service.url("/v1/health"), "GET");
        QCOMPARE(health.status, 200);
        const auto other = get(m_project.op, m_finishedRequest);
        QCOMPARE(apiStatusOf(other), std::string(kSuccess));
        // A statement that runs on a worker.
        QCOMPARE(statusOf(runStatement(m_service, m_project.op, "SHOW JOB_RUNS LIMIT 1")),
                 std::string(kSuccess));
        const int answeredMeanwhile = answered;
        slow->release();
        QTRY_COMPARE_WITH_TIMEOUT(answered, kHeld, 60000);
        // On PostgreSQL the lock makes sure the GETs were still held; SQLite's trigger may be done sooner.
        if (TestService::isPostgresBackend())
            QCOMPARE(answeredMeanwhile, 0);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestStatusHold)
#include "tst_statushold.moc"
