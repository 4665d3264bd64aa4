// Runs against the real jobdeckd (CONTRACT §4): what a driver receives (JAR and PYTHON), admission
// under concurrency, idempotency keys, argument overrides, cluster capacity, cancel, and a missing
// application file.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

#include "core/policy/IdempotencyKey.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <signal.h>

#include <set>

using namespace jobdeck;
using namespace jobdeck::runtest;

class TestRuns final : public QObject {
    Q_OBJECT

    TestService m_service{{"--cancel-grace-seconds", "1"}};
    Project m_project;

    nlohmann::json st(const QString& statement, const HttpHeaders& headers = {}) {
        return runStatement(m_service, m_project.op, statement, headers);
    }

    // Cancels the runs of `job` and waits until each ended CANCELED.
    void cancelEach(const QString& job, const QStringList& ids) {
        for (const auto& id : ids)
            st("CANCEL JOB_RUN `" + id + "` JOB_NAME = '" + job + "'");
        for (const auto& id : ids)
            QCOMPARE(waitForRun(m_service, m_project.op, job, id, hasEnded()).value("status", std::string()),
                     std::string(kCanceled));
    }

    bool createJob(const QString& name, const QString& type, const QStringList& parameters,
                   const QString& cluster, int maxConcurrentRuns = 1) {
        const auto status = must(m_service, m_project.op,
                                 "CREATE JOB " + name + " TYPE = '" + type +
                                     "' PARAMETERS = " + tuple(parameters) + " CLUSTER = '" + cluster +
                                     "' MAX_CONCURRENT_RUNS = " + QString::number(maxConcurrentRuns));
        return statusOf(status) == kSuccess;
    }

    QString jobId(const QString& name) {
        const auto status = st("DESCRIBE JOB " + name);
        return QString::fromStdString(
            status["apiResponse"]["describeJobApiResponse"]["sparkJob"].value("jobId", std::string()));
    }

    // Runs the job (limit 1) to its end and returns the final sparkJobRun.
    nlohmann::json runToEnd(const QString& job, const QList<QPair<QString, QString>>& overrides = {}) {
        const auto status = runJob(m_service, m_project.op, job, overrides);
        const QString id = runIdOf(status);
        if (id.isEmpty()) {
            qWarning("RUN JOB failed: %s", status.dump().c_str());
            return nullptr;
        }
        return waitForRun(m_service, m_project.op, job, id, hasEnded());
    }

    QStringList lines(const nlohmann::json& run, const QString& job) {
        const QByteArray log = fullLog(m_service, m_project.op, job,
                                       QString::fromStdString(run.value("jobRunId", std::string())));
        return QString::fromUtf8(log).split('\n', Qt::SkipEmptyParts);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        QCOMPARE(statusOf(must(m_service, m_project.op,
                               "CREATE CLUSTER main TYPE = 'Spark' MAX_OCU = 100 MIN_OCU = 1 WITH "
                               "'spark.executor.memory' = '2g', 'hoodie.insert.shuffle.parallelism' = '10'")),
                 std::string(kSuccess));
    }

    void pythonDriverGetsRunIdHudiConfigsAndArguments() {
        QVERIFY(createJob("py", "PYTHON",
                          {"--conf", "spark.sql.shuffle.partitions=4", "--hudi-conf",
                           "hoodie.upsert.shuffle.parallelism=8", kPythonApp, "--date", "2024-01-01",
                           "--mode=full"},
                          "main"));
        const auto run = runToEnd("py", {{"--date", "2024-02-02"}, {"--mode", "incr"}, {"--extra", "x"}});
        QCOMPARE(run.value("status", std::string()), std::string(kCompleted));
        QCOMPARE(run.value("exitCode", -1), 0);
        const QString id = QString::fromStdString(run["jobRunId"].get<std::string>());
        const QStringList log = lines(run, "py");
        QVERIFY2(log.contains("run-id: " + id), qPrintable(log.join('\n')));
        // The run id for the driver's Spark session and the executors' environment (seed 001), with the
        // job's own Spark configs, through PYSPARK_SUBMIT_ARGS.
        QVERIFY2(log.contains("spark-conf: spark.onehouse.jobRunId=" + id), qPrintable(log.join('\n')));
        QVERIFY(log.contains("spark-conf: spark.executorEnv.ONEHOUSE_JOB_RUN_ID=" + id));
        QVERIFY(log.contains("spark-conf: spark.sql.shuffle.partitions=4"));
        QVERIFY(log.contains("spark-conf: spark.executor.memory=2g"));
        QVERIFY(log.contains("hudi-conf: hoodie.insert.shuffle.parallelism=10"));
        QVERIFY(log.contains("hudi-conf: hoodie.upsert.shuffle.parallelism=8"));
        const QStringList args = log.filter(QRegularExpression("^arg: "));
        QCOMPARE(args, (QStringList{"arg: --date", "arg: 2024-02-02", "arg: --mode=incr", "arg: --extra",
                                    "arg: x"}));
        JSON_COMPARE(run["arguments"],
                     nlohmann::json({"--date", "2024-02-02", "--mode=incr", "--extra", "x"}));
        QCOMPARE(run["argumentOverrides"].size(), std::size_t(3));
        QVERIFY(!run["queuedAt"].is_null());
        QVERIFY(!run["startedAt"].is_null());
        QVERIFY(!run["endedAt"].is_null());
        QVERIFY(run["queueReason"].is_null());
    }

    void jarDriverGetsRunIdHudiConfigsAndArguments() {
        // The jar goes where s3://apps/... is served from by default: <data-dir>/s3/apps.
        QTemporaryDir build;
        QProcess javac;
        javac.start("javac", {"-d", build.filePath("classes"), kJavaSource});
        QVERIFY(javac.waitForFinished(120000));
        QVERIFY2(javac.exitCode() == 0, javac.readAllStandardError().constData());
        QVERIFY(QDir().mkpath(m_service.dataDir() + "/s3/apps/jobs"));
        QProcess jar;
        jar.start("jar", {"cf", m_service.dataDir() + "/s3/apps/jobs/app.jar", "-C",
                          build.filePath("classes"), "."});
        QVERIFY(jar.waitForFinished(60000));
        QCOMPARE(jar.exitCode(), 0);

        QVERIFY(createJob("jar", "JAR",
                          {"--class", "JobdeckTestApp", "--hudi-conf", "hoodie.upsert.shuffle.parallelism=16",
                           "s3://apps/jobs/app.jar", "--date", "2024-01-01", "--exit-code", "0"},
                          "main"));
        const auto run = runToEnd("jar", {{"--exit-code", "4"}});
        QCOMPARE(run.value("status", std::string()), std::string(kFailed));
        QCOMPARE(run.value("exitCode", -1), 4);
        QCOMPARE(run.value("message", std::string()), std::string("The driver exited with code 4"));
        const QString id = QString::fromStdString(run["jobRunId"].get<std::string>());
        const QStringList log = lines(run, "jar");
        QVERIFY2(log.contains("run-id: " + id), qPrintable(log.join('\n')));
        // The run id as a SparkConf sees it (spark.* system properties) and for the executors.
        QVERIFY2(log.contains("spark-conf: spark.onehouse.jobRunId=" + id), qPrintable(log.join('\n')));
        QVERIFY(log.contains("spark-conf: spark.executorEnv.ONEHOUSE_JOB_RUN_ID=" + id));
        QVERIFY(log.contains("spark-conf: spark.executor.memory=2g"));
        QVERIFY(log.contains("hudi-conf: hoodie.insert.shuffle.parallelism=10"));
        QVERIFY(log.contains("hudi-conf: hoodie.upsert.shuffle.parallelism=16"));
        QCOMPARE(log.filter(QRegularExpression("^arg: ")),
                 (QStringList{"arg: --date", "arg: 2024-01-01", "arg: --exit-code", "arg: 4"}));
    }

    void missingApplicationFileFailsTheRun() {
        QVERIFY(createJob("missing", "PYTHON", {"s3://apps/jobs/missing.py"}, "main"));
        const auto run = runToEnd("missing");
        QCOMPARE(run.value("status", std::string()), std::string(kFailed));
        QCOMPARE(run.value("message", std::string()),
                 std::string("Application file s3://apps/jobs/missing.py does not exist"));
        QVERIFY(run["startedAt"].is_null());
    }

    void fiftyConcurrentRunsAgainstALimitOfThree() {
        QVERIFY(createJob("limited", "PYTHON", {kPythonApp, "--sleep", "60"}, "main", 3));
        std::vector<QString> statements(50, "RUN JOB limited");
        std::vector<QByteArray> keys;
        for (int i = 0; i < 50; ++i)
            keys.push_back("limited-" + QByteArray::number(i));
        const auto results = concurrentStatements(m_service, m_project.op, statements, keys);
        const std::string refusal =
            "Spark Job " + jobId("limited").toStdString() + " already has 3 active run(s) (max 3)";
        int accepted = 0;
        int refused = 0;
        std::set<QString> ids;
        for (const auto& r : results) {
            if (statusOf(r) == kSuccess) {
                ++accepted;
                ids.insert(runIdOf(r));
            } else if (statusOf(r) == kApiFailed && errorOf(r) == refusal) {
                ++refused;
            } else {
                qWarning("unexpected: %s", r.dump().c_str());
            }
        }
        QCOMPARE(accepted, 3);
        QCOMPARE(refused, 47);
        QCOMPARE(ids.size(), std::size_t(3));
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'limited' ACTIVE");
        QCOMPARE(shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(3));
        for (const auto& id : ids)
            QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + id + "` JOB_NAME = 'limited'")), std::string(kSuccess));
        for (const auto& id : ids)
            QCOMPARE(
                waitForRun(m_service, m_project.op, "limited", id, hasEnded()).value("status", std::string()),
                std::string(kCanceled));
    }

    void fiftyConcurrentRunsWithOneKeyStartOneRun() {
        QVERIFY(createJob("onekey", "PYTHON", {kPythonApp, "--sleep", "60"}, "main", 3));
        const auto results =
            concurrentStatements(m_service, m_project.op, std::vector<QString>(50, "RUN JOB onekey"),
                                 std::vector<QByteArray>(50, "the-one-key"));
        std::set<QString> ids;
        int succeeded = 0;
        for (const auto& r : results) {
            succeeded += statusOf(r) == kSuccess;
            ids.insert(runIdOf(r));
        }
        QCOMPARE(succeeded, 50);
        QCOMPARE(ids.size(), std::size_t(1));
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'onekey'");
        QCOMPARE(shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(1));
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + *ids.begin() + "` JOB_NAME = 'onekey'")),
                 std::string(kSuccess));
        QVERIFY(waitForRun(m_service, m_project.op, "onekey", *ids.begin(), hasEnded()).is_object());
    }

    void idempotencyKeyRules() {
        QVERIFY(createJob("keyed", "PYTHON", {kPythonApp, "--sleep", "60", "--date", "d0"}, "main", 2));
        auto& op = m_project.op;
        QCOMPARE(
            errorOf(runJob(m_service, op, "keyed")),
            std::string("Idempotency-Key header is required for Job keyed: its max concurrent runs is 2"));
        // Refused by the HTTP layer before the statement runs.
        QCOMPARE(runJob(m_service, op, "keyed", {}, QByteArray(65, 'k')).value("httpStatus", 0), 400);
        // A space is refused as the console refuses it, with core's text (a header loses spaces at its ends).
        const auto spaced = runJob(m_service, op, "keyed", {}, "k 1");
        QCOMPARE(spaced.value("httpStatus", 0), 400);
        QCOMPARE(nlohmann::json::parse(spaced.value("body", std::string("{}"))).value("error", std::string()),
                 idempotencyKeyHeaderProblem("k 1").value_or(""));
        QCOMPARE(
            idempotencyKeyHeaderProblem("k 1").value_or(""),
            std::string("Invalid Idempotency-Key header: The idempotency key may only hold printable ASCII "
                        "characters without spaces; character 2 is a space."));

        const QString first = runIdOf(runJob(m_service, op, "keyed", {{"--date", "d1"}}, "k1"));
        QVERIFY(!first.isEmpty());
        QCOMPARE(runIdOf(runJob(m_service, op, "keyed", {{"--date", "d1"}}, "k1")), first);
        QCOMPARE(errorOf(runJob(m_service, op, "keyed", {{"--date", "d2"}}, "k1")),
                 std::string("Idempotency key k1 was already used with different arguments."));
        const QString second = runIdOf(runJob(m_service, op, "keyed", {}, "k2"));
        QVERIFY(!second.isEmpty() && second != first);
        // At the limit: the retry still gets its run, a new key is refused.
        QCOMPARE(runIdOf(runJob(m_service, op, "keyed", {{"--date", "d1"}}, "k1")), first);
        QCOMPARE(errorOf(runJob(m_service, op, "keyed", {}, "k3")),
                 "Spark Job " + jobId("keyed").toStdString() + " already has 2 active run(s) (max 2)");

        // A key whose run has finished starts a new run.
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + first + "` JOB_NAME = 'keyed'")), std::string(kSuccess));
        QCOMPARE(waitForRun(m_service, op, "keyed", first, hasEnded()).value("status", std::string()),
                 std::string(kCanceled));
        const QString third = runIdOf(runJob(m_service, op, "keyed", {{"--date", "d1"}}, "k1"));
        QVERIFY(!third.isEmpty() && third != first);
        const auto run = describeRun(m_service, op, "keyed", third);
        QCOMPARE(run.value("idempotencyKey", std::string()), std::string("k1"));
        for (const auto& id : {second, third})
            st("CANCEL JOB_RUN `" + id + "` JOB_NAME = 'keyed'");
        for (const auto& id : {second, third})
            QVERIFY(waitForRun(m_service, op, "keyed", id, hasEnded()).is_object());
    }

    void argumentOverrides() {
        QVERIFY(createJob("args", "PYTHON",
                          {"--class", "x.Y", kPythonApp, "--date", "2024-01-01", "--mode=full", "--dup", "a",
                           "--dup", "b", "pos"},
                          "main"));
        auto run = runToEnd("args", {{"--date", "D"}, {"--mode", "M"}, {"--new", "N"}});
        JSON_COMPARE(run["arguments"], nlohmann::json({"--date", "D", "--mode=M", "--dup", "a", "--dup", "b",
                                                       "pos", "--new", "N"}));
        run = runToEnd("args");
        JSON_COMPARE(run["arguments"], nlohmann::json({"--date", "2024-01-01", "--mode=full", "--dup", "a",
                                                       "--dup", "b", "pos"}));
        for (const QString name : {"--dup", "--conf", "--hudi-conf", "--class"}) {
            const auto status = runJob(m_service, m_project.op, "args", {{name, "v"}});
            QCOMPARE(statusOf(status), std::string(kApiFailed));
            QVERIFY2(QString::fromStdString(errorOf(status)).contains(name), errorOf(status).c_str());
        }
        const auto twice = runJob(m_service, m_project.op, "args", {{"--date", "a"}, {"--date", "b"}});
        QCOMPARE(statusOf(twice), std::string(kApiFailed));
        QVERIFY2(QString::fromStdString(errorOf(twice)).contains("--date"), errorOf(twice).c_str());
        const auto shown = st("SHOW JOB_RUNS JOB_NAME = 'args'");
        QCOMPARE(shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].size(), std::size_t(2));
    }

    void clusterCapacityQueuesRuns() {
        QCOMPARE(statusOf(st("CREATE CLUSTER small TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")),
                 std::string(kSuccess));
        QStringList ids;
        for (const QString job : {"cap1", "cap2", "cap3"}) {
            QVERIFY(createJob(job, "PYTHON", {kPythonApp, "--sleep", "60"}, "small"));
            ids << runIdOf(runJob(m_service, m_project.op, job));
            QVERIFY(!ids.last().isEmpty());
        }
        QCOMPARE(waitForRun(m_service, m_project.op, "cap1", ids[0], hasStatus(kRunning))
                     .value("status", std::string()),
                 std::string(kRunning));
        QCOMPARE(waitForRun(m_service, m_project.op, "cap2", ids[1], hasStatus(kRunning))
                     .value("status", std::string()),
                 std::string(kRunning));
        const auto waiting = waitForRun(m_service, m_project.op, "cap3", ids[2], [](const nlohmann::json& r) {
            return r.value("queueReason", nlohmann::json()).is_string() &&
                   r["queueReason"].get<std::string>().rfind("Waiting for a driver slot", 0) == 0;
        });
        QCOMPARE(waiting.value("status", std::string()), std::string(kQueued));
        QCOMPARE(waiting["queueReason"].get<std::string>(),
                 std::string("Waiting for a driver slot on cluster small (2 of 2 in use)"));
        QThread::msleep(500);
        QCOMPARE(describeRun(m_service, m_project.op, "cap3", ids[2]).value("status", std::string()),
                 std::string(kQueued));

        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + ids[0] + "` JOB_NAME = 'cap1'")), std::string(kSuccess));
        const auto started = waitForRun(m_service, m_project.op, "cap3", ids[2], hasStatus(kRunning));
        QCOMPARE(started.value("status", std::string()), std::string(kRunning));
        QVERIFY(started["queueReason"].is_null());
        st("CANCEL JOB_RUN `" + ids[1] + "` JOB_NAME = 'cap2'");
        st("CANCEL JOB_RUN `" + ids[2] + "` JOB_NAME = 'cap3'");
        QVERIFY(waitForRun(m_service, m_project.op, "cap3", ids[2], hasEnded()).is_object());
    }

    void cancelQueuedRunningAndFinished() {
        QCOMPARE(statusOf(st("CREATE CLUSTER one TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")),
                 std::string(kSuccess));
        QVERIFY(createJob("stubborn", "PYTHON", {kPythonApp, "--ignore-term", "--sleep", "60"}, "one"));
        QVERIFY(createJob("waiter", "PYTHON", {kPythonApp}, "one"));
        const QString running = runIdOf(runJob(m_service, m_project.op, "stubborn"));
        QVERIFY(waitForRun(m_service, m_project.op, "stubborn", running, [](const nlohmann::json& r) {
                    return r.value("status", std::string()) == kRunning;
                }).is_object());
        const QString queued = runIdOf(runJob(m_service, m_project.op, "waiter"));
        QCOMPARE(describeRun(m_service, m_project.op, "waiter", queued).value("status", std::string()),
                 std::string(kQueued));

        // Queued: canceled at once, never started.
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + queued + "` JOB_NAME = 'waiter'")), std::string(kSuccess));
        auto run = describeRun(m_service, m_project.op, "waiter", queued);
        QCOMPARE(run.value("status", std::string()), std::string(kCanceled));
        QCOMPARE(run.value("message", std::string()),
                 "Canceled by key " + m_project.op.apiKey.toStdString() + " (operator)");
        QVERIFY(run["startedAt"].is_null());

        // Running, ignoring TERM: KILL after the grace period (1 s here); the process group is gone.
        qint64 pid = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            (pid = driverPidFromLog(fullLog(m_service, m_project.op, "stubborn", running))) > 0, 10000);
        QCOMPARE(::kill(-static_cast<pid_t>(pid), 0), 0);
        QCOMPARE(statusOf(st("CANCEL JOB_RUN `" + running + "` JOB_NAME = 'stubborn'")),
                 std::string(kSuccess));
        run = waitForRun(m_service, m_project.op, "stubborn", running, hasEnded(), 15000);
        QCOMPARE(run.value("status", std::string()), std::string(kCanceled));
        QVERIFY(QString::fromStdString(run.value("message", std::string())).contains(m_project.op.apiKey));
        QCOMPARE(::kill(-static_cast<pid_t>(pid), 0), -1);
        QCOMPARE(errno, ESRCH);

        // Finished: refused with the exact message.
        QCOMPARE(errorOf(st("CANCEL JOB_RUN `" + running + "` JOB_NAME = 'stubborn'")),
                 "Job run " + running.toStdString() + " is already CANCELED");
        const auto done = runToEnd("waiter");
        QCOMPARE(done.value("status", std::string()), std::string(kCompleted));
        QCOMPARE(errorOf(st("CANCEL JOB_RUN `" + QString::fromStdString(done["jobRunId"].get<std::string>()) +
                            "` JOB_NAME = 'waiter'")),
                 "Job run " + done["jobRunId"].get<std::string>() + " is already COMPLETED");
    }

    // A run waiting for a slot while nothing else happens starts once its cluster gets another slot:
    // the idle scheduler notices the ALTER's commit.
    void raisingMaxOcuStartsAWaitingRun() {
        QCOMPARE(statusOf(st("CREATE CLUSTER grow TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")),
                 std::string(kSuccess));
        QVERIFY(createJob("grower", "PYTHON", {kPythonApp, "--sleep", "60"}, "grow", 2));
        const QString first = runIdOf(runJob(m_service, m_project.op, "grower", {}, "first"));
        QCOMPARE(waitForRun(m_service, m_project.op, "grower", first, hasStatus(kRunning))
                     .value("status", std::string()),
                 std::string(kRunning));
        const QString second = runIdOf(runJob(m_service, m_project.op, "grower", {}, "second"));
        const auto waiting =
            waitForRun(m_service, m_project.op, "grower", second, [](const nlohmann::json& r) {
                return r.value("queueReason", nlohmann::json()) ==
                       "Waiting for a driver slot on cluster grow (1 of 1 in use)";
            });
        QCOMPARE(waiting.value("status", std::string()), std::string(kQueued));
        QThread::msleep(500); // ticks with nothing to write
        QCOMPARE(statusOf(st("ALTER CLUSTER grow SET MAX_OCU = 2")), std::string(kSuccess));
        QCOMPARE(waitForRun(m_service, m_project.op, "grower", second, hasStatus(kRunning))
                     .value("status", std::string()),
                 std::string(kRunning));
        cancelEach("grower", {first, second});
    }

    // The runs waiting for a slot say how many of their cluster's slots are in use, also after its
    // MAX_OCU changed: raised, the oldest starts and the others wait with the new count; lowered below the
    // drivers running, they say so.
    void aWaitingRunsReasonFollowsItsCluster() {
        QCOMPARE(statusOf(st("CREATE CLUSTER reasons TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")),
                 std::string(kSuccess));
        QStringList jobs, ids;
        for (int i = 1; i <= 4; ++i) {
            jobs << "reasoned" + QString::number(i);
            QVERIFY(createJob(jobs.last(), "PYTHON", {kPythonApp, "--sleep", "60"}, "reasons"));
            ids << runIdOf(runJob(m_service, m_project.op, jobs.last()));
            QVERIFY(!ids.last().isEmpty());
        }
        // The queue reasons of runs `from` to the last once each is `reason` (or when waiting gave up).
        const auto reasonsOnceThey = [&](int from, const std::string& reason) {
            std::vector<std::string> reasons;
            for (int i = from; i < 4; ++i) {
                const auto run =
                    waitForRun(m_service, m_project.op, jobs[i], ids[i], [&](const nlohmann::json& r) {
                        return r.value("queueReason", nlohmann::json()) == reason;
                    });
                reasons.push_back(run.value("queueReason", nlohmann::json()).is_string()
                                      ? run["queueReason"].get<std::string>()
                                      : run.dump());
            }
            return reasons;
        };
        const auto statusOnceRunning = [&](int i) {
            return waitForRun(m_service, m_project.op, jobs[i], ids[i], hasStatus(kRunning))
                .value("status", std::string());
        };
        const std::string oneOfOne = "Waiting for a driver slot on cluster reasons (1 of 1 in use)";
        const std::string twoOfTwo = "Waiting for a driver slot on cluster reasons (2 of 2 in use)";
        const std::string twoOfOne = "Waiting for a driver slot on cluster reasons (2 of 1 in use)";
        QCOMPARE(statusOnceRunning(0), std::string(kRunning));
        QCOMPARE(reasonsOnceThey(1, oneOfOne), std::vector<std::string>(3, oneOfOne));
        QCOMPARE(statusOf(st("ALTER CLUSTER reasons SET MAX_OCU = 2")), std::string(kSuccess));
        QCOMPARE(statusOnceRunning(1), std::string(kRunning));
        QCOMPARE(reasonsOnceThey(2, twoOfTwo), std::vector<std::string>(2, twoOfTwo));
        QCOMPARE(statusOf(st("ALTER CLUSTER reasons SET MAX_OCU = 1")), std::string(kSuccess));
        QCOMPARE(reasonsOnceThey(2, twoOfOne), std::vector<std::string>(2, twoOfOne));
        for (int i = 0; i < 4; ++i)
            cancelEach(jobs[i], {ids[i]});
    }

    void loweringLimitsCancelsNothing() {
        QCOMPARE(statusOf(st("CREATE CLUSTER shrink TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")),
                 std::string(kSuccess));
        QVERIFY(createJob("lower", "PYTHON", {kPythonApp, "--sleep", "60"}, "shrink", 2));
        const QString a = runIdOf(runJob(m_service, m_project.op, "lower", {}, "a"));
        const QString b = runIdOf(runJob(m_service, m_project.op, "lower", {}, "b"));
        for (const auto& id : {a, b})
            QCOMPARE(waitForRun(m_service, m_project.op, "lower", id, hasStatus(kRunning))
                         .value("status", std::string()),
                     std::string(kRunning));
        QCOMPARE(statusOf(st("ALTER JOB lower SET MAX_CONCURRENT_RUNS = 1")), std::string(kSuccess));
        QCOMPARE(statusOf(st("ALTER CLUSTER shrink SET MAX_OCU = 1")), std::string(kSuccess));
        QThread::msleep(500);
        for (const auto& id : {a, b})
            QCOMPARE(describeRun(m_service, m_project.op, "lower", id).value("status", std::string()),
                     std::string(kRunning));
        QCOMPARE(errorOf(runJob(m_service, m_project.op, "lower")),
                 "Spark Job " + jobId("lower").toStdString() + " already has 2 active run(s) (max 1)");
        cancelEach("lower", {a, b});
    }

    // Seed 001: RUN JOB admits up to the lower of the Job's MAX_CONCURRENT_RUNS and the project's limit,
    // and one at a time while the project's concurrent runs are off, saying which limit applied.
    void projectSettingsCapTheJobsLimit() {
        QVERIFY(createJob("capped", "PYTHON", {kPythonApp, "--sleep", "60"}, "main", 3));
        const std::string id = jobId("capped").toStdString();
        auto& admin = m_project.admin;
        QCOMPARE(statusOf(must(m_service, admin, "ALTER PROJECT SET CONCURRENT_RUNS = DISABLED")),
                 std::string(kSuccess));
        const QString first = runIdOf(runJob(m_service, m_project.op, "capped", {}, "c1"));
        QVERIFY(!first.isEmpty());
        // Seed 001's text to the letter in errorMessage (orchestrators match it), the reason beside it.
        const auto refused = runJob(m_service, m_project.op, "capped", {}, "c2");
        QCOMPARE(errorOf(refused), "Spark Job " + id + " already has 1 active run(s) (max 1)");
        QCOMPARE(refused.value("errorReason", std::string()),
                 std::string("concurrent runs are not enabled for this project, so its MAX_CONCURRENT_RUNS "
                             "of 3 does not apply"));

        QCOMPARE(statusOf(must(m_service, admin,
                               "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 2")),
                 std::string(kSuccess));
        const QString second = runIdOf(runJob(m_service, m_project.op, "capped", {}, "c2"));
        QVERIFY(!second.isEmpty());
        const auto capped = runJob(m_service, m_project.op, "capped", {}, "c3");
        QCOMPARE(errorOf(capped), "Spark Job " + id + " already has 2 active run(s) (max 2)");
        QCOMPARE(capped.value("errorReason", std::string()),
                 std::string("this project's MAX_CONCURRENT_RUNS_LIMIT of 2 is below the Job's "
                             "MAX_CONCURRENT_RUNS of 3"));

        QCOMPARE(statusOf(must(m_service, admin, "ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 10")),
                 std::string(kSuccess));
        const QString third = runIdOf(runJob(m_service, m_project.op, "capped", {}, "c3"));
        QVERIFY(!third.isEmpty());
        const auto atJobLimit = runJob(m_service, m_project.op, "capped", {}, "c4");
        QCOMPARE(errorOf(atJobLimit), "Spark Job " + id + " already has 3 active run(s) (max 3)");
        QVERIFY(!atJobLimit.contains("errorReason")); // the Job's own limit needs no reason
        for (const auto& run : {first, second, third})
            st("CANCEL JOB_RUN `" + run + "` JOB_NAME = 'capped'");
        for (const auto& run : {first, second, third})
            QVERIFY(waitForRun(m_service, m_project.op, "capped", run, hasEnded()).is_object());
    }

    void showJobRunsNewestFirstAndDescribeFields() {
        const auto shown = st("SHOW JOB_RUNS LIMIT 3");
        const auto runs = shown["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"];
        QCOMPARE(runs.size(), std::size_t(3));
        QVERIFY(runs[0]["queuedAt"].get<std::string>() >= runs[1]["queuedAt"].get<std::string>());
        QVERIFY(runs[1]["queuedAt"].get<std::string>() >= runs[2]["queuedAt"].get<std::string>());
        for (const char* field :
             {"jobRunId", "jobName", "status", "queueReason", "idempotencyKey", "argumentOverrides",
              "arguments", "queuedAt", "startedAt", "endedAt", "exitCode", "message"})
            QVERIFY2(runs[0].contains(field), field);
        QCOMPARE(errorOf(st("DESCRIBE JOB_RUN `nope` JOB_NAME = 'py'")),
                 std::string("Job run nope of Job py does not exist"));
    }

    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestRuns)
#include "tst_runs.moc"
