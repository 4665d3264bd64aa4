// RUN JOB with Idempotency-Keys through three jobdeckd replicas on one PostgreSQL database while one of
// them is killed with -9 and another is paused (SIGSTOP) for three leases (CONTRACT §4, docs/scale-out.md
// "Several replicas"). 200 keys are sent by 8 clients, round-robin over the replicas; a client whose
// request fails (refused, reset, no answer within 6 s, PENDING, FAILED) sends the same statement with the
// same key to the next replica, a bounded number of times. Then: every key has exactly one run; every run a
// client was told about (a SUCCESS with its jobRunId: acknowledged) exists with its key and has its audit
// entry; every answer of one key names the same run, and so does the same request sent again once all is
// over. The keyed runs wait QUEUED behind a blocker that fills their cluster's one driver slot, held by the
// replica that is neither killed nor paused: a key whose run has ended may start a new one (CONTRACT §4),
// so no keyed run may end while its key can still be retried.
// Why it cannot flake on a loaded 2-core machine: no duration or count of ticks is asserted; the lease is
// 5 s and the pause 15 s (three leases), as in tst_fencing; every wait is only a bound (each request in
// time, each key in attempts). The keys from the 100th on are sent only once the failures are in, so
// some requests meet the killed replica however fast or slow the machine is.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestBackend.h"

#include <QDir>
#include <QFile>
#include <QUuid>

#include <signal.h>

#include <array>
#include <atomic>
#include <map>
#include <optional>
#include <set>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr int kReplicas = 3;
constexpr int kLeaseSeconds = 5;
constexpr int kPauseMs = 15000; // three leases
constexpr int kKeys = 200;
constexpr int kClients = 8;
constexpr int kAcknowledgedBeforeFailures = 60;
constexpr int kFirstKeyAfterFailures = 100; // keys from here on are sent once a replica is killed
constexpr int kAttemptsPerKey = 20;
// A request gives up after kRequestTimeoutMs (its answer may be PENDING after kPreferWaitSeconds): a few
// times in a pause, so that a paused replica holds requests whose retries were answered elsewhere.
constexpr int kPreferWaitSeconds = 3;
constexpr int kRequestTimeoutMs = 6000;
const QString kJob = QStringLiteral("keyed");

using Replicas = std::array<std::unique_ptr<TestService>, kReplicas>;

// One request of a key: the replica it went to and what came back (a final status, PENDING, or the
// transport or HTTP failure as runStatement reports it).
struct Attempt final {
    int replica = 0;
    nlohmann::json answer;
};

struct KeyHistory final {
    QByteArray key;
    std::vector<Attempt> attempts;
};

// The jobRunId of a SUCCESS answer; empty for any other answer.
QString acknowledgedRunOf(const nlohmann::json& answer) {
    return statusOf(answer) == kSuccess ? runIdOf(answer) : QString();
}

// RUN JOB kJob with `key`, sent by an impatient client: the status object (final or PENDING), or, as
// runStatement gives it, an object with the HTTP status and the transport error.
nlohmann::json keyedRunJob(const TestService& service, const ApiCredentials& who, const QByteArray& key) {
    const HttpHeaders headers =
        who.headers() +
        HttpHeaders{{"Prefer", "wait=" + QByteArray::number(kPreferWaitSeconds)}, {"Idempotency-Key", key}};
    const auto body = nlohmann::json{{"statement", ("RUN JOB " + kJob).toStdString()}}.dump();
    const HttpResult result = request(service.url("/v1/resource/"), "POST", QByteArray::fromStdString(body),
                                      headers, kRequestTimeoutMs);
    auto status = result.json();
    if (result.status == 200 && status.is_object() && status.contains("apiStatus"))
        return status;
    return nlohmann::json{{"httpStatus", result.status},
                          {"error", result.error.toStdString()},
                          {"body", result.body.toStdString()}};
}

// What kind of failure an answer that is not a SUCCESS is, for the summary: "timed out", "no answer",
// "HTTP 503", "PENDING", "FAILED".
QString failureKind(const nlohmann::json& answer) {
    if (answer.contains("apiStatus"))
        return QString::fromStdString(statusOf(answer)).remove("API_OPERATION_STATUS_");
    if (answer.value("httpStatus", 0) != 0)
        return QString("HTTP %1").arg(answer.value("httpStatus", 0));
    return QString::fromStdString(answer.value("error", std::string())).startsWith("timed out") ? "timed out"
                                                                                                : "no answer";
}

// "k-7: replica 1 {...}; replica 2 {...}" for failure messages.
QString describe(const KeyHistory& history) {
    QStringList attempts;
    for (const Attempt& attempt : history.attempts)
        attempts << QString("replica %1 %2")
                        .arg(attempt.replica)
                        .arg(QString::fromStdString(attempt.answer.dump()));
    return QString::fromLatin1(history.key) + ": " + attempts.join("; ");
}

// kClients threads sending RUN JOB kJob with key k-<i>, i in [0, kKeys): key i goes to replica
// i % kReplicas first and, after each failure, to the next one, kAttemptsPerKey times at most. Keys from
// kFirstKeyAfterFailures on wait for failuresInjected(). Destroying it stops the clients and joins them.
class KeyedClients final {
public:
    KeyedClients(const Replicas& replicas, const ApiCredentials& who)
        : m_replicas(replicas)
        , m_who(who)
        , m_histories(kKeys) {}
    ~KeyedClients() {
        m_stopping = true;
        join();
    }
    KeyedClients(const KeyedClients&) = delete;
    KeyedClients& operator=(const KeyedClients&) = delete;

    void start() {
        for (int client = 0; client < kClients; ++client) {
            m_threads.emplace_back(QThread::create([this, client] { runClient(client); }));
            m_threads.back()->start();
        }
    }
    void failuresInjected() { m_failuresInjected = true; }
    int acknowledged() const { return m_acknowledged; }
    bool finished() const { return m_finishedClients == kClients; }
    // What each key's requests got, in key order; waits for the clients first.
    const std::vector<KeyHistory>& histories() {
        join();
        return m_histories;
    }

private:
    void join() {
        for (auto& thread : m_threads)
            thread->wait();
    }

    void runClient(int client) {
        for (int index = client; index < kKeys && !m_stopping; index += kClients) {
            if (index >= kFirstKeyAfterFailures && !waitForFailures())
                break;
            sendKey(m_histories[static_cast<std::size_t>(index)], index);
        }
        ++m_finishedClients;
    }

    bool waitForFailures() const {
        while (!m_failuresInjected && !m_stopping)
            QThread::msleep(20);
        return !m_stopping;
    }

    void sendKey(KeyHistory& history, int index) {
        history.key = "k-" + QByteArray::number(index);
        for (int attempt = 0; attempt < kAttemptsPerKey && !m_stopping; ++attempt) {
            const int replica = (index + attempt) % kReplicas;
            auto answer = keyedRunJob(*m_replicas[static_cast<std::size_t>(replica)], m_who, history.key);
            const bool acknowledged = !acknowledgedRunOf(answer).isEmpty();
            history.attempts.push_back({replica, std::move(answer)});
            if (acknowledged) {
                ++m_acknowledged;
                return;
            }
            QThread::msleep(200);
        }
    }

    const Replicas& m_replicas;
    const ApiCredentials m_who;
    std::vector<KeyHistory> m_histories; // entry i written by the client of key i only
    std::vector<std::unique_ptr<QThread>> m_threads;
    std::atomic<bool> m_stopping{false};
    std::atomic<bool> m_failuresInjected{false};
    std::atomic<int> m_acknowledged{0};
    std::atomic<int> m_finishedClients{0};
};

// A process stopped with SIGSTOP until resume() or the end of the scope, so that no replica is left
// stopped when a test returns early.
class Paused final {
public:
    explicit Paused(qint64 pid)
        : m_pid(static_cast<pid_t>(pid))
        , m_stopped(::kill(m_pid, SIGSTOP) == 0) {}
    ~Paused() { resume(); }
    Paused(const Paused&) = delete;
    Paused& operator=(const Paused&) = delete;

    bool stopped() const { return m_stopped; }
    bool resume() {
        if (!m_stopped)
            return true;
        m_stopped = false;
        return ::kill(m_pid, SIGCONT) == 0;
    }

private:
    pid_t m_pid;
    bool m_stopped;
};

// Each idempotency key's runs of kJob as SHOW JOB_RUNS lists them (every run: the LIMIT is above their
// number); runs without a key under "". nullopt, with the answer logged, when the SHOW failed.
std::optional<std::map<QString, QStringList>> runsByKey(const TestService& service,
                                                        const ApiCredentials& who) {
    auto shown = must(service, who, "SHOW JOB_RUNS JOB_NAME = '" + kJob + "' LIMIT 100000");
    if (statusOf(shown) != kSuccess)
        return std::nullopt;
    std::map<QString, QStringList> runs;
    for (const auto& run : shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"]) {
        const auto key = run.value("idempotencyKey", nlohmann::json());
        runs[key.is_string() ? QString::fromStdString(key.get<std::string>()) : QString()]
            << QString::fromStdString(run.value("jobRunId", std::string()));
    }
    return runs;
}

// Request ids of the project's audited RUN JOB kJob statements that SUCCEEDED, read from the database.
std::set<QString> auditedRunRequests(const TestService& service, const ApiCredentials& who) {
    ServiceDatabase db(service);
    std::set<QString> ids;
    const auto rows = db.rows("SELECT request_id FROM audit WHERE project_uid = ? AND statement = ? AND "
                              "outcome = ?",
                              {who.projectUid, "RUN JOB " + kJob, QString::fromLatin1(kSuccess)});
    if (!rows)
        qWarning("reading the audit: %s", qPrintable(db.lastError()));
    for (const QStringList& row : rows.value_or(QList<QStringList>{}))
        ids.insert(row.value(0));
    return ids;
}

} // namespace

class TestKeyedFailover final : public QObject {
    Q_OBJECT

    // On every driver's command line, so that cleanup finds the drivers the replicas leave behind.
    const QString m_token = "keyedfailover-suite-" + QUuid::createUuid().toString(QUuid::WithoutBraces);

    QStringList sleeper(int seconds) const {
        return {kPythonApp, "--sleep", QString::number(seconds), "--suite", m_token};
    }

    void killLeftoverDrivers() const { killProcessesWithToken(m_token); }

    // Three replicas with `arguments` on a new database of their own.
    static bool startReplicas(Replicas& replicas, const QStringList& arguments) {
        QString error;
        const QString database = TestBackend::createPostgresDatabase(error);
        if (database.isEmpty()) {
            qWarning("no database: %s", qPrintable(error));
            return false;
        }
        for (auto& replica : replicas) {
            replica = std::make_unique<TestService>(QStringList{"--database", database} + arguments);
            if (!replica->start()) {
                qWarning("replica did not start: %s", qPrintable(replica->lastError()));
                return false;
            }
        }
        return true;
    }

    // Cluster `one` with one driver slot; `blocker` (one long run) and kJob (short runs, up to 1000 at
    // once) on it.
    bool createJobs(const TestService& service, const Project& project) const {
        return statementSucceeds(
                   service, project.admin,
                   "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 1000") &&
               statementSucceeds(service, project.op,
                                 "CREATE CLUSTER one TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1") &&
               statementSucceeds(service, project.op,
                                 "CREATE JOB blocker TYPE = 'PYTHON' PARAMETERS = " + tuple(sleeper(600)) +
                                     " CLUSTER = 'one'") &&
               statementSucceeds(service, project.op,
                                 "CREATE JOB " + kJob + " TYPE = 'PYTHON' PARAMETERS = " + tuple(sleeper(2)) +
                                     " CLUSTER = 'one' MAX_CONCURRENT_RUNS = 1000");
    }

private slots:
    void cleanupTestCase() { killLeftoverDrivers(); }

    void everyKeyHasOneRunThroughAKillAndAPause();

private:
    static int replicaThatLaunched(const Replicas& replicas, const QString& runId);
    void verifyAnswers(const std::vector<KeyHistory>& histories, std::map<QString, QString>& acknowledged);
    void verifyRuns(const TestService& service, const ApiCredentials& who,
                    const std::map<QString, QString>& acknowledged);
    void verifyAudit(const TestService& service, const ApiCredentials& who,
                     const std::vector<KeyHistory>& histories);
    void verifyRepeats(const Replicas& replicas, const std::vector<int>& live, const ApiCredentials& who,
                       const std::map<QString, QString>& acknowledged);
};

// The index of the replica whose data directory holds run `runId`'s driver, or kReplicas.
int TestKeyedFailover::replicaThatLaunched(const Replicas& replicas, const QString& runId) {
    for (int i = 0; i < kReplicas; ++i)
        if (launchedOn(*replicas[static_cast<std::size_t>(i)], runId))
            return i;
    return kReplicas;
}

void TestKeyedFailover::everyKeyHasOneRunThroughAKillAndAPause() {
    Replicas nodes;
    QVERIFY(startReplicas(nodes, {"--lease-seconds", QString::number(kLeaseSeconds)}));
    Project project;
    QVERIFY(project.create(*nodes[0]));
    const ApiCredentials& who = project.op;
    QVERIFY(createJobs(*nodes[0], project));
    const QString blocker = runIdOf(runJob(*nodes[1], who, "blocker"));
    QVERIFY(!blocker.isEmpty());
    const auto blocking = waitForRun(*nodes[1], who, "blocker", blocker, hasStatus(kRunning), 60000);
    QCOMPARE(blocking.value("status", std::string()), std::string(kRunning));
    // The replica holding the slot stays up; of the other two, one is killed and one paused.
    const int survivor = replicaThatLaunched(nodes, blocker);
    QVERIFY2(survivor < kReplicas, "no replica's data directory holds the blocker's driver");
    const int killed = (survivor + 1) % kReplicas;
    const int paused = (survivor + 2) % kReplicas;
    qInfo("replica %d holds the slot, %d is killed, %d is paused", survivor, killed, paused);

    KeyedClients clients(nodes, who);
    clients.start();
    QTRY_VERIFY_WITH_TIMEOUT(clients.acknowledged() >= kAcknowledgedBeforeFailures, 120000);
    nodes[static_cast<std::size_t>(killed)]->kill9();
    Paused pause(nodes[static_cast<std::size_t>(paused)]->processId());
    QVERIFY(pause.stopped());
    clients.failuresInjected();
    QTest::qWait(kPauseMs);
    QVERIFY(pause.resume());
    QTRY_VERIFY_WITH_TIMEOUT(clients.finished(), 300000);
    const std::vector<KeyHistory>& histories = clients.histories();

    std::map<QString, QString> acknowledged; // key -> the run id its clients were given
    verifyAnswers(histories, acknowledged);
    if (QTest::currentTestFailed())
        return;
    const TestService& live = *nodes[static_cast<std::size_t>(survivor)];
    verifyRuns(live, who, acknowledged);
    if (QTest::currentTestFailed())
        return;
    verifyAudit(live, who, histories);
    if (QTest::currentTestFailed())
        return;
    verifyRepeats(nodes, {survivor, paused}, who, acknowledged);
    if (QTest::currentTestFailed())
        return;
    verifyRuns(*nodes[static_cast<std::size_t>(paused)], who, acknowledged);
}

// Every key was acknowledged (its run is QUEUED, so a retry is answered with it), some after a failed
// request, and every SUCCESS of one key names the same run.
void TestKeyedFailover::verifyAnswers(const std::vector<KeyHistory>& histories,
                                      std::map<QString, QString>& acknowledged) {
    int retriedKeys = 0;
    std::map<QString, int> failures; // kind -> requests
    for (const KeyHistory& history : histories) {
        std::set<QString> runIds;
        for (const Attempt& attempt : history.attempts)
            if (const QString id = acknowledgedRunOf(attempt.answer); !id.isEmpty())
                runIds.insert(id);
            else
                ++failures[QString("%1 on replica %2").arg(failureKind(attempt.answer)).arg(attempt.replica)];
        QVERIFY2(!runIds.empty(), qPrintable("never acknowledged: " + describe(history)));
        QVERIFY2(runIds.size() == 1, qPrintable("answered with different runs: " + describe(history)));
        acknowledged[QString::fromLatin1(history.key)] = *runIds.begin();
        retriedKeys += history.attempts.size() > 1;
    }
    QStringList summary;
    for (const auto& [kind, count] : failures)
        summary << QString("%1 %2").arg(count).arg(kind);
    qInfo("%d of %d keys were sent again after a failed request (%s)", retriedKeys, kKeys,
          qPrintable(summary.join(", ")));
    QVERIFY2(retriedKeys > 0, "no request met the killed or the paused replica: the test showed nothing");
}

// Through `service`: each key has exactly one run, the one acknowledged, and there are no other runs.
void TestKeyedFailover::verifyRuns(const TestService& service, const ApiCredentials& who,
                                   const std::map<QString, QString>& acknowledged) {
    const auto shown = runsByKey(service, who);
    QVERIFY2(shown, "SHOW JOB_RUNS failed (its answer is logged above)");
    const auto& runs = *shown;
    for (const auto& [key, runId] : acknowledged) {
        const QStringList found = runs.count(key) ? runs.at(key) : QStringList();
        QVERIFY2(found.size() == 1, qPrintable(QString("key %1 has %2 run(s): %3 (acknowledged: %4)")
                                                   .arg(key)
                                                   .arg(found.size())
                                                   .arg(found.join(", "), runId)));
        QVERIFY2(found.front() == runId, qPrintable("acknowledged run " + runId + " of key " + key +
                                                    " is lost; it has " + found.front()));
    }
    QStringList unexpected;
    for (const auto& [key, ids] : runs)
        if (!acknowledged.count(key))
            unexpected << key + ": " + ids.join(", ");
    QVERIFY2(unexpected.isEmpty(), qPrintable("runs of no key sent: " + unexpected.join("; ")));
}

// Every SUCCESS a client got has its request's audit entry (a RUN JOB is audited with its admission).
void TestKeyedFailover::verifyAudit(const TestService& service, const ApiCredentials& who,
                                    const std::vector<KeyHistory>& histories) {
    const std::set<QString> audited = auditedRunRequests(service, who);
    for (const KeyHistory& history : histories)
        for (const Attempt& attempt : history.attempts) {
            if (acknowledgedRunOf(attempt.answer).isEmpty())
                continue;
            const QString requestId =
                QString::fromStdString(attempt.answer.value("requestId", std::string()));
            QVERIFY2(!requestId.isEmpty() && audited.count(requestId),
                     qPrintable("no audit entry for " + requestId + ": " + describe(history)));
        }
}

// The same RUN JOB with each key, sent again through the live replicas in turn, names the same run.
void TestKeyedFailover::verifyRepeats(const Replicas& replicas, const std::vector<int>& live,
                                      const ApiCredentials& who,
                                      const std::map<QString, QString>& acknowledged) {
    std::size_t turn = 0;
    for (const auto& [key, runId] : acknowledged) {
        const int replica = live[turn++ % live.size()];
        const auto answer =
            runJob(*replicas[static_cast<std::size_t>(replica)], who, kJob, {}, key.toLatin1());
        QVERIFY2(acknowledgedRunOf(answer) == runId,
                 qPrintable(QString("key %1 sent again to replica %2: %3 (acknowledged: %4)")
                                .arg(key)
                                .arg(replica)
                                .arg(QString::fromStdString(answer.dump()), runId)));
    }
}

JOBDECK_TEST_GUILESS_MAIN(TestKeyedFailover)
#include "tst_keyedfailover.moc"
