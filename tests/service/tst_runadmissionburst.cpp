// RUN JOB admission in bursts against the real jobdeckd (CONTRACT §4, docs/runs.md, Admission):
// concurrent admissions are committed together, and still keep the concurrency limit and the
// Idempotency-Key rules exactly, count their refusals, show their runs while they wait, and are on
// disk once acknowledged, with their audit entries, even when jobdeckd is killed in the middle of a
// burst.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include <set>

using namespace jobdeck;
using namespace jobdeck::runtest;

namespace {

constexpr int kBurst = 64;

std::vector<QByteArray> distinctKeys(const QByteArray& prefix, int n) {
    std::vector<QByteArray> keys;
    for (int i = 0; i < n; ++i)
        keys.push_back(prefix + QByteArray::number(i));
    return keys;
}

// The value of the sample written exactly as `series` in Prometheus text, 0 when absent.
double metricSample(const QByteArray& text, const QByteArray& series) {
    const qsizetype at = text.indexOf("\n" + series + ' ');
    if (at < 0)
        return 0;
    const qsizetype value = at + 1 + series.size() + 1;
    return text.mid(value, text.indexOf('\n', value) - value).toDouble();
}

} // namespace

class TestRunAdmissionBurst final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    Project m_project;

    nlohmann::json st(const QString& statement) { return runStatement(m_service, m_project.op, statement); }

    bool createJob(const QString& name, const QString& cluster, int maxConcurrentRuns) {
        return statusOf(must(m_service, m_project.op,
                             "CREATE JOB " + name + " TYPE = 'PYTHON' PARAMETERS = " +
                                 tuple({kPythonApp, "--sleep", "60"}) + " CLUSTER = '" + cluster +
                                 "' MAX_CONCURRENT_RUNS = " + QString::number(maxConcurrentRuns))) ==
               kSuccess;
    }

    std::string jobId(const QString& name) {
        return st("DESCRIBE JOB " + name)["apiResponse"]["describeJobApiResponse"]["sparkJob"].value(
            "jobId", std::string());
    }

    double refusalsCounted(const char* reason) {
        const auto metrics = request(m_service.url(QStringLiteral("/metrics")), "GET");
        return metricSample(metrics.body,
                            QByteArray("jobdeck_run_admission_refusals_total{reason=\"") + reason + "\"}");
    }

    // Cancels the runs and waits until each has ended, so their drivers do not outlive the suite.
    void cancelAll(const QString& job, const std::set<QString>& ids) {
        for (const auto& id : ids)
            st("CANCEL JOB_RUN `" + id + "` JOB_NAME = '" + job + "'");
        for (const auto& id : ids)
            QVERIFY2(hasEnded()(waitForRun(m_service, m_project.op, job, id, hasEnded())), qPrintable(id));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QCOMPARE(
            statusOf(must(m_service, m_project.admin, "ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 100")),
            std::string(kSuccess));
        QCOMPARE(statusOf(st("CREATE CLUSTER small TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")),
                 std::string(kSuccess));
    }

    void burstAgainstALimitOfFiveAdmitsFive() {
        QVERIFY(createJob("five", "small", 5));
        const double countedBefore = refusalsCounted("max_concurrent_runs");
        const auto results =
            concurrentStatements(m_service, m_project.op, std::vector<QString>(kBurst, "RUN JOB five"),
                                 distinctKeys("five-", kBurst));
        const std::string refusal = "Spark Job " + jobId("five") + " already has 5 active run(s) (max 5)";
        std::set<QString> ids;
        int refused = 0;
        for (const auto& r : results) {
            if (statusOf(r) == kSuccess)
                ids.insert(runIdOf(r));
            else if (statusOf(r) == kApiFailed && errorOf(r) == refusal)
                ++refused;
            else
                qWarning("unexpected: %s", r.dump().c_str());
        }
        QCOMPARE(ids.size(), std::size_t(5));
        QCOMPARE(refused, kBurst - 5);
        QCOMPARE(refusalsCounted("max_concurrent_runs") - countedBefore, double(kBurst - 5));
        // Two driver slots: each admitted run runs or waits, saying why.
        for (const auto& id : ids) {
            const auto run = describeRun(m_service, m_project.op, "five", id);
            const std::string status = run.value("status", std::string());
            QVERIFY2(status == kQueued || status == kRunning, run.dump().c_str());
            if (status == kQueued)
                QVERIFY2(!run.value("queueReason", std::string()).empty(), run.dump().c_str());
        }
        const auto waiting = st("SHOW JOB_RUNS JOB_NAME = 'five' ACTIVE");
        QCOMPARE(waiting["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(5));
        cancelAll("five", ids);
    }

    void burstWithOneKeyStartsOneRunAndRefusesOtherArguments() {
        QVERIFY(createJob("onekey", "small", 5));
        // Half the burst asks for one date, half for another, all with the same key: whichever is
        // admitted first is the run; the same arguments get its id, the others the conflict.
        std::vector<QString> statements;
        for (int i = 0; i < kBurst; ++i)
            statements.push_back(QString("RUN JOB onekey ARGUMENTS = ( '--date' = 'd%1' )").arg(i % 2));
        const auto results = concurrentStatements(m_service, m_project.op, statements,
                                                  std::vector<QByteArray>(kBurst, "the-one-key"));
        std::set<QString> ids;
        for (const auto& r : results)
            if (statusOf(r) == kSuccess)
                ids.insert(runIdOf(r));
        QCOMPARE(ids.size(), std::size_t(1));
        const QString id = *ids.begin();
        const auto run = describeRun(m_service, m_project.op, "onekey", id);
        const std::string admittedDate = run["argumentOverrides"].at(0).value("value", std::string());
        QVERIFY2(admittedDate == "d0" || admittedDate == "d1", run.dump().c_str());
        for (int i = 0; i < kBurst; ++i) {
            const auto& r = results[static_cast<std::size_t>(i)];
            if ("d" + std::to_string(i % 2) == admittedDate) {
                QCOMPARE(runIdOf(r), id);
            } else {
                QCOMPARE(statusOf(r), std::string(kApiFailed));
                QCOMPARE(errorOf(r),
                         std::string("Idempotency key the-one-key was already used with different "
                                     "arguments."));
            }
        }
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'onekey'");
        QCOMPARE(shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(1));
        cancelAll("onekey", ids);
    }

    // Killed (SIGKILL) once half the burst is answered: every run acknowledged before is there after the
    // restart, and nothing was admitted twice.
    void acknowledgedAdmissionsSurviveKill9MidBurst() {
        QVERIFY(createJob("durable", "small", 100));
        bool killed = false;
        const auto results =
            concurrentStatements(m_service, m_project.op, std::vector<QString>(kBurst, "RUN JOB durable"),
                                 distinctKeys("durable-", kBurst), 30000, [this, &killed](int closed) {
                                     if (!killed && closed >= kBurst / 2) {
                                         killed = true;
                                         m_service.kill9();
                                     }
                                 });
        QVERIFY(killed);
        std::set<QString> acknowledged;
        std::set<std::string> requests;
        for (const auto& r : results) { // those cut off by the kill have no status object
            if (r.is_object() && statusOf(r) == kSuccess) {
                acknowledged.insert(runIdOf(r));
                requests.insert(r.value("requestId", std::string()));
            }
        }
        QVERIFY2(acknowledged.size() >= std::size_t(kBurst / 2),
                 qPrintable(QString::number(acknowledged.size())));

        QVERIFY2(m_service.restart(), qPrintable(m_service.lastError()));
        for (const auto& id : acknowledged) {
            const auto run = describeRun(m_service, m_project.op, "durable", id);
            QVERIFY2(run.is_object(), qPrintable("acknowledged run " + id + " is gone after kill -9"));
        }
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'durable' LIMIT 1000");
        std::set<QString> all;
        for (const auto& run : shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"])
            all.insert(QString::fromStdString(run.value("jobRunId", std::string())));
        qInfo("%zu of %d acknowledged before the kill, %zu runs after the restart", acknowledged.size(),
              kBurst, all.size());
        QVERIFY(all.size() <= std::size_t(kBurst));
        QVERIFY(std::includes(all.begin(), all.end(), acknowledged.begin(), acknowledged.end()));
        // The audit entry of each acknowledged admission was committed with it.
        const auto log = runStatement(m_service, m_project.admin, "SHOW AUDIT_LOG LIMIT 1000");
        std::set<std::string> audited;
        for (const auto& entry : log["apiResponse"]["showAuditLogApiResponse"]["auditEntries"])
            if (entry.value("statement", std::string()) == "RUN JOB durable" &&
                entry.value("outcome", "") == kSuccess)
                audited.insert(entry.value("requestId", std::string()));
        QVERIFY(std::includes(audited.begin(), audited.end(), requests.begin(), requests.end()));
        cancelAll("durable", all);
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestRunAdmissionBurst)
#include "tst_runadmissionburst.moc"
