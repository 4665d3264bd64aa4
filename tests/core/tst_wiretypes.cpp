#include "core/wire/ApiStatus.h"
#include "core/wire/AuditEntry.h"
#include "core/wire/Cluster.h"
#include "core/wire/Project.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/QueryParameters.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobRun.h"
#include "core/wire/SparkJobSummary.h"
#include "core/wire/Timestamp.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <set>

using namespace jobdeck;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

TimePoint at(std::string_view iso) {
    const auto t = parseTimestamp(iso);
    if (!t)
        throw std::runtime_error("bad test timestamp " + std::string(iso));
    return *t;
}

std::set<std::string> keys(const json& j) {
    std::set<std::string> k;
    for (const auto& [key, value] : j.items())
        k.insert(key);
    return k;
}

// Parses j as T and returns the exception's message, or "" when nothing was thrown.
template <class T, class E = json::exception> std::string parseError(const json& j) {
    try {
        (void)j.get<T>();
    } catch (const E& e) {
        return e.what();
    }
    return {};
}

SparkJob sampleJob() {
    SparkJob job;
    job.jobId = "job-7f3a";
    job.name = "nightly_ingest";
    job.type = JobType::Python;
    job.cluster = "etl";
    job.parameters = {"--conf",
                      "spark.executor.memory=4g",
                      "--hudi-conf",
                      "hoodie.upsert.shuffle.parallelism=8",
                      "s3://bucket/app.py",
                      "--date",
                      "2026-11-30",
                      "hoodie.x=1"};
    job.applicationPath = "s3://bucket/app.py";
    job.arguments = {"--date", "2026-11-30", "hoodie.x=1"};
    job.sparkConfigs = {{"spark.executor.memory", "4g"}};
    job.hudiConfigs = {{"hoodie.upsert.shuffle.parallelism", "8"}};
    job.maxConcurrentRuns = 3;
    job.activeRuns = 2;
    job.createdAt = at("2026-11-30T05:01:46.123Z");
    job.updatedAt = at("2026-11-30T06:00:00.000Z");
    job.hudiConfigsStatus = {{"hoodie.upsert.shuffle.parallelism", HudiConfigStatus::Applied},
                             {"hoodie.metrics.on", HudiConfigStatus::Reserved}};
    job.misplacedHudiConfigs = {"hoodie.x=1"};
    return job;
}

SparkJobRun sampleRun() {
    SparkJobRun run;
    run.jobRunId = "run-0001";
    run.jobName = "nightly_ingest";
    run.jobId = "job-7f3a";
    run.status = JobRunStatus::Failed;
    run.idempotencyKey = "retry-42";
    run.argumentOverrides = {{"--date", "2026-12-01"}, {"--mode", "full"}};
    run.arguments = {"--date", "2026-12-01", "--mode", "full"};
    run.queuedAt = at("2026-11-30T05:01:46.123Z");
    run.startedAt = at("2026-11-30T05:01:47.000Z");
    run.endedAt = at("2026-11-30T05:02:00.999Z");
    run.exitCode = 1;
    run.message = "Application file s3://bucket/app.py does not exist";
    run.cluster = "etl";
    return run;
}

Cluster sampleCluster() {
    Cluster c;
    c.clusterId = "cl-1";
    c.name = "etl";
    c.maxOcu = 4;
    c.minOcu = 1;
    c.with = {
        {"spark.executor.memory", "4g"}, {"hoodie.datasource.write.operation", "upsert"}, {"other", "x"}};
    c.sparkConfigs = {{"spark.executor.memory", "4g"}};
    c.hudiConfigs = {{"hoodie.datasource.write.operation", "upsert"}};
    c.createdAt = at("2026-11-29T10:00:00.000Z");
    c.updatedAt = at("2026-11-30T10:00:00.500Z");
    c.driversInUse = 3;
    return c;
}

AuditEntry sampleAudit() {
    AuditEntry e;
    e.seq = 9'000'000'000LL; // beyond 32 bits
    e.at = at("2026-11-30T05:01:46.123Z");
    e.projectUid = "p-1";
    e.keyId = "k-1";
    e.role = "operator";
    e.statement = "RUN JOB nightly_ingest";
    e.outcome = ApiOperationStatus::Failed;
    e.errorMessage = "Permission denied: viewer cannot run jobs";
    e.requestId = "req-1";
    e.headers = {{"x-onehouse-region", "us-west-2"}, {"x-onehouse-uuid", "u-1"}};
    return e;
}

} // namespace

class TestWireTypes final : public QObject {
    Q_OBJECT
private slots:
    void timestampFormatsUtcWithMilliseconds() {
        const TimePoint t =
            std::chrono::sys_days{std::chrono::year{2026} / 11 / 30} + 5h + 1min + 46s + 123ms + 456us;
        QCOMPARE(formatTimestamp(t), std::string("2026-11-30T05:01:46.123Z"));
        QCOMPARE(formatTimestamp(TimePoint{}), std::string("1970-01-01T00:00:00.000Z"));
    }

    void timestampParses() {
        const TimePoint expected =
            std::chrono::sys_days{std::chrono::year{2026} / 11 / 30} + 5h + 1min + 46s + 123ms;
        QVERIFY(parseTimestamp("2026-11-30T05:01:46.123Z") == expected);
        QVERIFY(parseTimestamp("2026-11-30T07:01:46.123+02:00") == expected);
        QVERIFY(parseTimestamp("2026-11-30T04:31:46.123456789-00:30") == expected);
        QVERIFY(parseTimestamp("2026-11-30T05:01:46Z") == expected - 123ms);
        QVERIFY(parseTimestamp("2026-11-30T05:01:46.1Z") == expected - 23ms);
        for (const char* bad :
             {"", "2026-11-30", "2026-11-30T05:01:46", "2026-11-30T05:01:46.123", "2026-02-30T05:01:46Z",
              "2026-11-30T24:00:00Z", "2026-11-30T05:01:46.Z", "2026-11-30T05:01:46.123Zjunk",
              "2026/11/30T05:01:46Z", "2026-11-30T05:01:46+2:00"})
            QVERIFY2(!parseTimestamp(bad), bad);
    }

    void timestampNowRoundTrips() {
        const TimePoint now = timestampNow();
        QVERIFY(parseTimestamp(formatTimestamp(now)) == now);
    }

    void sparkJobFieldsAndRoundTrip() {
        const SparkJob job = sampleJob();
        const json j = job;
        QCOMPARE(keys(j), (std::set<std::string>{
                              "jobId", "name", "type", "cluster", "parameters", "applicationPath",
                              "arguments", "sparkConfigs", "hudiConfigs", "maxConcurrentRuns", "activeRuns",
                              "createdAt", "updatedAt", "hudiConfigsStatus", "misplacedHudiConfigs"}));
        QCOMPARE(j.at("type"), json("PYTHON"));
        QCOMPARE(j.at("createdAt"), json("2026-11-30T05:01:46.123Z"));
        QCOMPARE(j.at("sparkConfigs"), (json{{"spark.executor.memory", "4g"}}));
        QCOMPARE(j.at("hudiConfigsStatus"),
                 (json{{"hoodie.upsert.shuffle.parallelism", "APPLIED"}, {"hoodie.metrics.on", "RESERVED"}}));
        QCOMPARE(j.at("parameters").size(), job.parameters.size());
        QVERIFY(j.get<SparkJob>() == job);
        QVERIFY(json::parse(j.dump()).get<SparkJob>() == job);
    }

    // A summary is the job's listed fields as one array, in the documented order.
    void sparkJobSummaryFieldsAndRoundTrip() {
        const SparkJob job = sampleJob();
        const SparkJobSummary summary = summaryOf(job);
        const json j = summary;
        QCOMPARE(j, (json::array({job.name, "PYTHON", job.cluster, job.maxConcurrentRuns, job.activeRuns,
                                  formatTimestamp(job.updatedAt)})));
        QVERIFY(j.get<SparkJobSummary>() == summary);
        QVERIFY(json::parse(j.dump()).get<SparkJobSummary>() == summary);
        json longer = j;
        longer.push_back("a field added later");
        QVERIFY(longer.get<SparkJobSummary>() == summary);
    }

    void enumNames() {
        QCOMPARE(jobTypeName(JobType::Jar), std::string_view("JAR"));
        QCOMPARE(jobTypeName(JobType::Python), std::string_view("PYTHON"));
        QVERIFY(!jobTypeFromName("jar"));
        const std::pair<JobRunStatus, const char*> runs[] = {
            {JobRunStatus::Queued, "SPARK_JOB_RUN_STATUS_QUEUED"},
            {JobRunStatus::Running, "SPARK_JOB_RUN_STATUS_RUNNING"},
            {JobRunStatus::Completed, "SPARK_JOB_RUN_STATUS_COMPLETED"},
            {JobRunStatus::Failed, "SPARK_JOB_RUN_STATUS_FAILED"},
            {JobRunStatus::Canceled, "SPARK_JOB_RUN_STATUS_CANCELED"}};
        for (const auto& [s, name] : runs) {
            QCOMPARE(jobRunStatusName(s), std::string_view(name));
            QVERIFY(jobRunStatusFromName(name) == s);
            QCOMPARE(isActive(s), s == JobRunStatus::Queued || s == JobRunStatus::Running);
        }
        QVERIFY(!jobRunStatusFromName("SPARK_JOB_RUN_STATUS_CANCELLED"));
        const std::pair<ApiOperationStatus, const char*> api[] = {
            {ApiOperationStatus::Pending, "API_OPERATION_STATUS_PENDING"},
            {ApiOperationStatus::Success, "API_OPERATION_STATUS_SUCCESS"},
            {ApiOperationStatus::Failed, "API_OPERATION_STATUS_FAILED"},
            {ApiOperationStatus::Invalid, "API_OPERATION_STATUS_INVALID"}};
        for (const auto& [s, name] : api) {
            QCOMPARE(apiOperationStatusName(s), std::string_view(name));
            QVERIFY(apiOperationStatusFromName(name) == s);
        }
    }

    void sparkJobRunFieldsAndRoundTrip() {
        const SparkJobRun run = sampleRun();
        const json j = run;
        QCOMPARE(keys(j), (std::set<std::string>{"jobRunId", "jobName", "jobId", "status", "queueReason",
                                                 "idempotencyKey", "argumentOverrides", "arguments",
                                                 "queuedAt", "startedAt", "endedAt", "exitCode", "message",
                                                 "submissionId", "cluster"}));
        QCOMPARE(j.at("status"), json("SPARK_JOB_RUN_STATUS_FAILED"));
        QCOMPARE(j.at("cluster"), json("etl"));
        QVERIFY(j.at("submissionId").is_null());
        QCOMPARE(j.at("argumentOverrides"),
                 json::parse(R"([{"name":"--date","value":"2026-12-01"},{"name":"--mode","value":"full"}])"));
        QVERIFY(j.at("queueReason").is_null());
        QCOMPARE(j.at("exitCode"), json(1));
        QVERIFY(!run.isActive());
        QVERIFY(j.get<SparkJobRun>() == run);

        SparkJobRun queued;
        queued.jobRunId = "run-2";
        queued.jobName = "nightly_ingest";
        queued.queueReason = "Cluster etl is at its capacity of 4 drivers";
        queued.queuedAt = at("2026-11-30T05:01:46.123Z");
        const json q = queued;
        QCOMPARE(q.at("status"), json("SPARK_JOB_RUN_STATUS_QUEUED"));
        QVERIFY(q.at("startedAt").is_null() && q.at("endedAt").is_null() && q.at("exitCode").is_null());
        QVERIFY(q.at("idempotencyKey").is_null());
        QVERIFY(queued.isActive());
        QVERIFY(q.get<SparkJobRun>() == queued);
        // A service without the extension: the run names no cluster.
        json older = q;
        older.erase("cluster");
        QCOMPARE(older.get<SparkJobRun>().cluster, std::string());
    }

    void clusterFieldsAndRoundTrip() {
        const Cluster c = sampleCluster();
        const json j = c;
        QCOMPARE(keys(j),
                 (std::set<std::string>{"clusterId", "name", "type", "maxOcu", "minOcu", "sparkConfigs",
                                        "hudiConfigs", "with", "createdAt", "updatedAt", "driversInUse"}));
        QCOMPARE(j.at("type"), json("Spark"));
        QCOMPARE(j.at("driversInUse"), json(3));
        QCOMPARE(j.at("with").at(1),
                 (json{{"key", "hoodie.datasource.write.operation"}, {"value", "upsert"}}));
        QVERIFY(j.get<Cluster>() == c);
        json older = j;
        older.erase("driversInUse");
        QCOMPARE(older.get<Cluster>().driversInUse, 0);
    }

    void projectFieldsAndRoundTrip() {
        Project p;
        p.projectUid = "p-1";
        p.name = "analytics";
        p.settings.hudiConfigsEnabled = true;
        p.settings.hudiConfigAllowlist = {"hoodie.upsert.", "hoodie.datasource.write.operation"};
        p.settings.concurrentRunsEnabled = false;
        p.settings.maxConcurrentRunsLimit = 5;
        json j = p;
        QCOMPARE(keys(j), (std::set<std::string>{"projectUid", "name", "settings"}));
        QCOMPARE(j.at("settings"), json::parse(R"({"hudiConfigs":"ENABLED",
            "hudiConfigAllowlist":["hoodie.upsert.","hoodie.datasource.write.operation"],
            "concurrentRuns":"DISABLED","maxConcurrentRunsLimit":5})"));
        QVERIFY(j.get<Project>() == p);

        p.recentAudit = std::vector<AuditEntry>{sampleAudit()};
        j = p;
        QCOMPARE(keys(j), (std::set<std::string>{"projectUid", "name", "settings", "recentAudit"}));
        QVERIFY(j.get<Project>() == p);
        p.recentAudit = std::vector<AuditEntry>{};
        j = p;
        QVERIFY(j.at("recentAudit").is_array() && j.at("recentAudit").empty());
        QVERIFY(j.get<Project>() == p);
    }

    void auditEntryFieldsAndRoundTrip() {
        AuditEntry e = sampleAudit();
        json j = e;
        QCOMPARE(keys(j), (std::set<std::string>{"seq", "at", "projectUid", "keyId", "role", "statement",
                                                 "outcome", "errorMessage", "requestId", "headers"}));
        QCOMPARE(j.at("outcome"), json("API_OPERATION_STATUS_FAILED"));
        QCOMPARE(j.at("seq"), json(9'000'000'000LL));
        QVERIFY(j.get<AuditEntry>() == e);
        e.outcome = ApiOperationStatus::Success;
        e.errorMessage.reset();
        j = e;
        QVERIFY(j.at("errorMessage").is_null());
        QVERIFY(j.get<AuditEntry>() == e);
    }

    void eventsFieldsAndRoundTrip() {
        ProjectEvent runEvent;
        runEvent.seq = 41;
        runEvent.type = std::string(event_type::kRunStatusChanged);
        runEvent.jobName = "nightly_ingest";
        runEvent.jobRunId = "run-0001";
        runEvent.status = JobRunStatus::Running;
        runEvent.at = at("2026-11-30T05:01:47.000Z");
        ProjectEvent jobEvent;
        jobEvent.seq = 42;
        jobEvent.type = std::string(event_type::kJobDeleted);
        jobEvent.jobName = "old_job";
        jobEvent.at = at("2026-11-30T05:01:48.000Z");

        const json r = runEvent;
        QCOMPARE(keys(r), (std::set<std::string>{"seq", "type", "jobName", "jobRunId", "status", "at"}));
        QCOMPARE(r.at("status"), json("SPARK_JOB_RUN_STATUS_RUNNING"));
        const json d = jobEvent;
        QCOMPARE(keys(d), keys(r));
        QVERIFY(d.at("jobRunId").is_null() && d.at("status").is_null());

        const EventsPage page{{runEvent, jobEvent}, 42, false};
        const json pj = page;
        QCOMPARE(keys(pj), (std::set<std::string>{"events", "next", "reload"}));
        QCOMPARE(pj.at("events").size(), std::size_t(2));
        QVERIFY(pj.get<EventsPage>() == page);
        const EventsPage reload{{}, 100, true};
        QVERIFY(json(reload).get<EventsPage>() == reload);
        // The contract's shape without our `reload` extension still reads.
        const auto plain = json::parse(R"({"events": [], "next": 7})").get<EventsPage>();
        QCOMPARE(plain.next, std::int64_t(7));
        QVERIFY(!plain.reload && plain.events.empty());
        // Unknown event types pass through for forward compatibility.
        const auto unknown =
            json::parse(R"({"seq": 1, "type": "CLUSTER_RESIZED", "at": "2026-11-30T05:01:48Z"})")
                .get<ProjectEvent>();
        QCOMPARE(unknown.type, std::string("CLUSTER_RESIZED"));
        QVERIFY(!unknown.status && !unknown.jobRunId);
    }

    void apiStatusErrorMessagePresence() {
        const json pending = ApiStatus::pending();
        QCOMPARE(pending, json::parse(R"({"apiStatus":"API_OPERATION_STATUS_PENDING","apiResponse":{}})"));
        const json success = ApiStatus::success({{"runJobApiResponse", {{"jobRunId", "run-1"}}}});
        QCOMPARE(success, json::parse(R"({"apiStatus":"API_OPERATION_STATUS_SUCCESS",
            "apiResponse":{"runJobApiResponse":{"jobRunId":"run-1"}}})"));
        const json failed = ApiStatus::failed("Job run r is already SPARK_JOB_RUN_STATUS_COMPLETED");
        QCOMPARE(failed, json::parse(R"({"apiStatus":"API_OPERATION_STATUS_FAILED","apiResponse":{},
            "errorMessage":"Job run r is already SPARK_JOB_RUN_STATUS_COMPLETED"})"));
        const json invalid = ApiStatus::invalid("Syntax error at 'JOBZ'");
        QCOMPARE(invalid.at("apiStatus"), json("API_OPERATION_STATUS_INVALID"));
        QCOMPARE(invalid.at("errorMessage"), json("Syntax error at 'JOBZ'"));

        // The rule holds whatever the struct was filled with.
        ApiStatus odd = ApiStatus::success(json::object());
        odd.errorMessage = "stale";
        QVERIFY(!json(odd).contains("errorMessage"));
        ApiStatus bare;
        bare.apiStatus = ApiOperationStatus::Failed;
        QCOMPARE(json(bare).at("errorMessage"), json(""));

        // requestId is carried when set (Prefer: wait answers) and otherwise absent.
        ApiStatus waited = ApiStatus::failed("boom");
        waited.requestId = "req-9";
        QCOMPARE(json(waited).at("requestId"), json("req-9"));
        QVERIFY(!json(ApiStatus::failed("boom")).contains("requestId"));

        for (const ApiStatus& s : {ApiStatus::pending(), ApiStatus::success({{"a", 1}}),
                                   ApiStatus::failed("x"), ApiStatus::invalid("y"), waited})
            QVERIFY(json(s).get<ApiStatus>() == s);
        QVERIFY(!ApiStatus::pending().isFinal());
        QVERIFY(ApiStatus::invalid("y").isFinal() && ApiStatus::invalid("y").isError());

        const auto e = parseError<ApiStatus>(json::parse(R"({"apiStatus":"API_OPERATION_STATUS_FAILED"})"));
        QVERIFY2(e.find("status.errorMessage is required") != std::string::npos, e.c_str());
        const auto dropped = json::parse(R"({"apiStatus":"API_OPERATION_STATUS_SUCCESS","errorMessage":"x"})")
                                 .get<ApiStatus>();
        QVERIFY(!dropped.errorMessage);
        QVERIFY(dropped.apiResponse == json::object());
    }

    // errorReason: why a FAILED status's exact errorMessage applied (this project's extension), beside it.
    void apiStatusErrorReason() {
        ApiStatus limited = ApiStatus::failed("Spark Job j-1 already has 1 active run(s) (max 1)");
        limited.errorReason = "concurrent runs are not enabled for this project";
        const json written = limited;
        QCOMPARE(written.at("errorMessage"), json("Spark Job j-1 already has 1 active run(s) (max 1)"));
        QCOMPARE(written.at("errorReason"), json("concurrent runs are not enabled for this project"));
        QVERIFY(written.get<ApiStatus>() == limited);
        QVERIFY(!json(ApiStatus::failed("x")).contains("errorReason"));
        // Like errorMessage, only with FAILED or INVALID.
        ApiStatus odd = ApiStatus::success(json::object());
        odd.errorReason = "stale";
        QVERIFY(!json(odd).contains("errorReason"));
        const auto dropped =
            json::parse(R"({"apiStatus":"API_OPERATION_STATUS_SUCCESS","errorReason":"x"})").get<ApiStatus>();
        QVERIFY(!dropped.errorReason);
    }

    void tolerantParsing() {
        // Unknown fields are ignored; missing optional ones take their defaults.
        const auto job =
            json::parse(R"({"jobId":"j","name":"n","type":"JAR","cluster":"c","parameters":["a.jar"],
            "createdAt":"2026-11-30T05:01:46.123Z","updatedAt":"2026-11-30T05:01:46.123Z",
            "futureField":{"x":[1,2]},"sparkConfigs":null})")
                .get<SparkJob>();
        QCOMPARE(job.maxConcurrentRuns, 1);
        QCOMPARE(job.activeRuns, 0);
        QVERIFY(job.sparkConfigs.empty() && job.hudiConfigsStatus.empty() && job.arguments.empty());
        QCOMPARE(job.parameters, std::vector<std::string>{"a.jar"});

        const auto run = json::parse(R"({"jobRunId":"r","jobName":"n","status":"SPARK_JOB_RUN_STATUS_RUNNING",
            "queuedAt":"2026-11-30T05:01:46.123Z","extra":true})")
                             .get<SparkJobRun>();
        QVERIFY(!run.startedAt && !run.endedAt && !run.exitCode && !run.message && !run.idempotencyKey);
        QVERIFY(run.argumentOverrides.empty());

        const auto cluster = json::parse(R"({"clusterId":"c","name":"n","maxOcu":2,"minOcu":1,
            "createdAt":"2026-11-30T05:01:46Z","updatedAt":"2026-11-30T05:01:46Z","zone":"a"})")
                                 .get<Cluster>();
        QCOMPARE(cluster.type, std::string("Spark"));
        QVERIFY(cluster.with.empty());

        const auto project =
            json::parse(R"({"projectUid":"p","settings":{"hudiConfigs":"ENABLED"},"x":1})").get<Project>();
        QVERIFY(project.settings.hudiConfigsEnabled);
        QVERIFY(!project.settings.concurrentRunsEnabled);
        QCOMPARE(project.settings.maxConcurrentRunsLimit, 1);
        QVERIFY(!project.recentAudit);

        const auto status =
            json::parse(R"({"apiStatus":"API_OPERATION_STATUS_PENDING","traceId":"t"})").get<ApiStatus>();
        QVERIFY(status == ApiStatus::pending());
    }

    void clearErrorsForWrongTypes_data() {
        QTest::addColumn<QString>("which");
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        const QString job = R"({"jobId":"j","name":"n","type":"JAR","cluster":"c","parameters":["a.jar"],
            "createdAt":"2026-11-30T05:01:46.123Z","updatedAt":"2026-11-30T05:01:46.123Z", %1})";
        QTest::newRow("job id number")
            << "job" << QString(job).replace(R"("jobId":"j")", R"("jobId":7)").arg("\"z\":0")
            << "sparkJob.jobId must be a string, got number";
        QTest::newRow("job name missing")
            << "job" << QString(job).replace(R"("name":"n",)", "").arg("\"z\":0")
            << "sparkJob.name is required but missing";
        QTest::newRow("job type unknown")
            << "job" << QString(job).replace(R"("JAR")", R"("SQL")").arg("\"z\":0")
            << "sparkJob.type has an unknown value 'SQL'";
        QTest::newRow("job parameters item")
            << "job" << QString(job).replace(R"(["a.jar"])", R"(["a.jar", 3])").arg("\"z\":0")
            << "in sparkJob.parameters: ";
        QTest::newRow("max runs string") << "job" << job.arg(R"("maxConcurrentRuns":"2")")
                                         << "sparkJob.maxConcurrentRuns must be an integer, got string";
        QTest::newRow("max runs float") << "job" << job.arg(R"("maxConcurrentRuns":2.5)")
                                        << "sparkJob.maxConcurrentRuns must be an integer, got number";
        QTest::newRow("max runs overflow") << "job" << job.arg(R"("maxConcurrentRuns":4294967296)")
                                           << "sparkJob.maxConcurrentRuns is out of range";
        QTest::newRow("spark configs value")
            << "job" << job.arg(R"("sparkConfigs":{"spark.a":1})") << "in sparkJob.sparkConfigs: ";
        QTest::newRow("hudi status unknown")
            << "job" << job.arg(R"("hudiConfigsStatus":{"hoodie.a":"MAYBE"})")
            << "sparkJob.hudiConfigsStatus has an unknown value 'MAYBE'";
        QTest::newRow("bad timestamp")
            << "job" << QString(job).replace("2026-11-30T05:01:46.123Z", "yesterday").arg("\"z\":0")
            << "sparkJob.createdAt is not an ISO-8601 UTC timestamp";
        QTest::newRow("job not object") << "job"
                                        << "[1,2]"
                                        << "sparkJob must be a JSON object, got array";
        const QString summary = R"(["n","JAR","c",1,0,"2026-11-30T05:01:46.123Z"])";
        QTest::newRow("summary not array") << "summary"
                                           << R"({"name":"n"})"
                                           << "sparkJobSummary must be a JSON array, got object";
        QTest::newRow("summary short") << "summary"
                                       << R"(["n","JAR","c",1,0])"
                                       << "sparkJobSummary.updatedAt is required but missing";
        QTest::newRow("summary type") << "summary" << QString(summary).replace("JAR", "SQL")
                                      << "sparkJobSummary.type has an unknown value 'SQL'";
        QTest::newRow("summary max runs")
            << "summary" << QString(summary).replace(",1,", ",\"1\",")
            << "sparkJobSummary.maxConcurrentRuns must be an integer, got string";
        const QString run = R"({"jobRunId":"r","jobName":"n","status":"SPARK_JOB_RUN_STATUS_RUNNING",
            "queuedAt":"2026-11-30T05:01:46.123Z", %1})";
        QTest::newRow("run status unknown")
            << "run" << QString(run).replace("_RUNNING", "_SLEEPING").arg("\"z\":0")
            << "sparkJobRun.status has an unknown value 'SPARK_JOB_RUN_STATUS_SLEEPING'";
        QTest::newRow("run exit code string")
            << "run" << run.arg(R"("exitCode":"1")") << "sparkJobRun.exitCode must be an integer, got string";
        QTest::newRow("run overrides object") << "run" << run.arg(R"("argumentOverrides":{"--date":"x"})")
                                              << "sparkJobRun.argumentOverrides must be an array";
        QTest::newRow("run override value")
            << "run" << run.arg(R"("argumentOverrides":[{"name":"--date"}])")
            << "sparkJobRun.argumentOverrides[0].value is required but missing";
        QTest::newRow("cluster max ocu") << "cluster"
                                         << R"({"clusterId":"c","name":"n","maxOcu":true,"minOcu":1,
            "createdAt":"2026-11-30T05:01:46Z","updatedAt":"2026-11-30T05:01:46Z"})"
                                         << "cluster.maxOcu must be an integer, got boolean";
        QTest::newRow("settings switch") << "project"
                                         << R"({"projectUid":"p","settings":{"concurrentRuns":"ON"}})"
                                         << "settings.concurrentRuns has an unknown value 'ON'";
        QTest::newRow("audit nested") << "project"
                                      << R"({"projectUid":"p","recentAudit":[{"seq":1}]})"
                                      << "in project.recentAudit: auditEntry.at is required but missing";
        QTest::newRow("event seq") << "events"
                                   << R"({"next":1,"events":[{"seq":"1","type":"JOB_CREATED"}]})"
                                   << "in eventsPage.events: event.seq must be an integer, got string";
        QTest::newRow("seq overflow") << "events"
                                      << R"({"next":18446744073709551615})"
                                      << "eventsPage.next is out of range";
        QTest::newRow("limit underflow")
            << "project"
            << R"({"projectUid":"p","settings":{"maxConcurrentRunsLimit":-3000000000}})"
            << "settings.maxConcurrentRunsLimit is out of range";
        QTest::newRow("events next") << "events"
                                     << R"({"events":[]})"
                                     << "eventsPage.next is required but missing";
        QTest::newRow("status response") << "status"
                                         << R"({"apiStatus":"API_OPERATION_STATUS_SUCCESS","apiResponse":[]})"
                                         << "status.apiResponse must be an object, got array";
        QTest::newRow("status unknown") << "status"
                                        << R"({"apiStatus":"DONE"})"
                                        << "status.apiStatus has an unknown value 'DONE'";
        QTest::newRow("job type unknown, named as written")
            << "job" << QString(job).replace("\"JAR\"", "\"it's\"").arg("\"z\":0")
            << "sparkJob.type has an unknown value 'it's' (expected JAR or PYTHON)";
        QTest::newRow("hudi status unknown, key named")
            << "job" << job.arg(R"("hudiConfigsStatus":{"hoodie.a":"MAYBE"})")
            << "sparkJob.hudiConfigsStatus has an unknown value 'MAYBE' for 'hoodie.a' (expected APPLIED, ";
        QTest::newRow("audit outcome unknown")
            << "project"
            << R"({"projectUid":"p","recentAudit":[{"seq":1,"at":"2026-11-30T05:01:46Z","outcome":"MAYBE"}]})"
            << "auditEntry.outcome has an unknown value 'MAYBE'";
        QTest::newRow("event status unknown")
            << "events"
            << R"({"next":1,"events":[{"seq":1,"type":"RUN_STATUS_CHANGED","status":"NAPPING",
                "at":"2026-11-30T05:01:46Z"}]})"
            << "event.status has an unknown value 'NAPPING'";
        QTest::newRow("switch unknown")
            << "project"
            << R"({"projectUid":"p","settings":{"concurrentRuns":"ON"}})"
            << "settings.concurrentRuns has an unknown value 'ON' (expected ENABLED or "
               "DISABLED)";
    }

    void clearErrorsForWrongTypes() {
        QFETCH(QString, which);
        QFETCH(QString, input);
        QFETCH(QString, expected);
        const json j = json::parse(input.toStdString());
        std::string error;
        if (which == "job")
            error = parseError<SparkJob>(j);
        else if (which == "run")
            error = parseError<SparkJobRun>(j);
        else if (which == "cluster")
            error = parseError<Cluster>(j);
        else if (which == "project")
            error = parseError<Project>(j);
        else if (which == "events")
            error = parseError<EventsPage>(j);
        else if (which == "summary")
            error = parseError<SparkJobSummary>(j);
        else
            error = parseError<ApiStatus>(j);
        QVERIFY2(!error.empty(), "no exception was thrown");
        QVERIFY2(error.find(expected.toStdString()) != std::string::npos, error.c_str());
    }

    void queryNumbersAreDecimalDigitsOnly() {
        QCOMPARE(parseNonNegative("0"), std::optional<std::int64_t>(0));
        QCOMPARE(parseNonNegative("42"), std::optional<std::int64_t>(42));
        QCOMPARE(parseNonNegative("9223372036854775807"), std::optional<std::int64_t>(INT64_MAX));
        for (const char* bad :
             {"", "-1", "-0", "+1", " 1", "1 ", "1.5", "0x10", "abc", "9223372036854775808"})
            QVERIFY2(!parseNonNegative(bad), bad);
    }

    void queryNumberMessagesNameTheParameterAndTheValue() {
        QCOMPARE(nonNegativeIntegerExpectedMessage("offset", "-1"),
                 std::string("offset must be a non-negative integer, got '-1'"));
        QCOMPARE(secondsInRangeExpectedMessage("wait", 60, "61"),
                 std::string("wait must be a number of seconds from 0 to 60, got '61'"));
    }

    void missingRequiredIsOutOfRangeWrongTypeIsTypeError() {
        const json noId = json::parse(R"({"projectUid":null})");
        QVERIFY(!(parseError<Project, json::out_of_range>(noId).empty()));
        const json badId = json::parse(R"({"projectUid":5})");
        QVERIFY(!(parseError<Project, json::type_error>(badId).empty()));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestWireTypes)
#include "tst_wiretypes.moc"
