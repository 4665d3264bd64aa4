// Every statement leaves an audit entry (who, what, outcome, request id, client headers), secrets masked.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

#include <thread>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

class TestAudit final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_admin;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials* who = nullptr, const HttpHeaders& headers = {}) {
        return runStatement(m_service, who ? *who : m_admin, statement, headers);
    }

    // The audit entry of one request, found through SHOW AUDIT_LOG.
    json entryFor(const json& status) {
        const std::string requestId = status.value("requestId", std::string());
        const auto entries =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        for (const auto& entry : entries)
            if (entry.value("requestId", std::string()) == requestId)
                return entry;
        return json();
    }

    // The whole audit log as text, and the service's log: neither may hold a secret.
    void verifyNowhere(const std::string& secret) {
        const auto log = run("SHOW AUDIT_LOG LIMIT 1000");
        QVERIFY2(log.dump().find(secret) == std::string::npos, (secret + " in " + log.dump()).c_str());
        QVERIFY2(!m_service.errorOutput().contains(QString::fromStdString(secret)),
                 "secret in the service log");
    }

    // Every row of `sql`'s answer, columns joined: what is stored.
    static std::string tableText(ServiceDatabase& db, const QString& sql) {
        std::string text;
        for (const QStringList& row : db.rows(sql).value_or(QList<QStringList>{}))
            text += row.join('\n').toStdString() + "\n";
        return text;
    }

    // Makes a CREATE JOB with `parameters` fail inside the service (the test holds the database's write
    // lock beyond the service's busy timeout) and returns the "Statement failed:" line it logged.
    QString statementFailedLine(const QString& parameters) {
        const qsizetype logged = m_service.errorOutput().size();
        ServiceDatabase db(m_service);
        if (!db.holdWriteLock("jobs"))
            qWarning() << "cannot hold the database's write lock:" << db.lastError();
        std::thread release([&] {
            QDeadlineTimer guard(60000);
            while (!m_service.errorOutput().mid(logged).contains("Statement failed:") && !guard.hasExpired())
                QThread::msleep(100);
            db.release();
        });
        HttpHeaders headers = m_admin.headers();
        headers.append(qMakePair(QByteArray("Prefer"), QByteArray("wait=50")));
        headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        const QByteArray body = QByteArray::fromStdString(json{
            {"statement", "CREATE JOB eqfail TYPE = 'PYTHON' PARAMETERS = (" + parameters.toStdString() +
                              ") CLUSTER = 'c'"}}.dump());
        const auto answer = request(m_service.url("/v1/resource/"), "POST", body, headers, 60000);
        release.join();
        if (answer.status != 200)
            qWarning() << "the failing CREATE JOB was answered" << answer.status << answer.body
                       << answer.error;
        for (const QString& line : m_service.errorOutput().mid(logged).split('\n'))
            if (line.contains("Statement failed:"))
                return line;
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey("audited", "admin");
        m_viewer = m_service.createKey("audited", "viewer");
        QVERIFY(m_admin.isValid() && m_viewer.isValid());
        QCOMPARE(statusOf(run("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
    }

    void recordsWhoWhatAndTheOutcome() {
        const HttpHeaders headers = {{"x-onehouse-account-uid", "acct-1"},
                                     {"x-onehouse-link-uid", "link-2"},
                                     {"x-onehouse-region", "us-west-2"},
                                     {"x-onehouse-uuid", "uuid-3"}};
        const auto status = run("show   clusters", &m_viewer, headers);
        QCOMPARE(statusOf(status), kSuccess);
        const auto entry = entryFor(status);
        QVERIFY2(entry.is_object(), status.dump().c_str());
        QCOMPARE(entry["projectUid"].get<std::string>(), m_viewer.projectUid.toStdString());
        QCOMPARE(entry["keyId"].get<std::string>(), m_viewer.apiKey.toStdString());
        QCOMPARE(entry["role"].get<std::string>(), std::string("viewer"));
        QCOMPARE(entry["statement"].get<std::string>(), std::string("SHOW CLUSTERS")); // canonical text
        QCOMPARE(entry["outcome"].get<std::string>(), kSuccess);
        QVERIFY(entry["errorMessage"].is_null());
        QCOMPARE(entry["headers"], json({{"x-onehouse-account-uid", "acct-1"},
                                         {"x-onehouse-link-uid", "link-2"},
                                         {"x-onehouse-region", "us-west-2"},
                                         {"x-onehouse-uuid", "uuid-3"}}));
        QVERIFY(!entry["at"].get<std::string>().empty());
        // The key's secret is never recorded.
        QVERIFY(entry.dump().find(m_viewer.apiSecret.toStdString()) == std::string::npos);
    }

    void recordsRefusalsAndInvalidStatements() {
        const auto denied = run("DELETE CLUSTER c", &m_viewer);
        QCOMPARE(statusOf(denied), kFailed);
        auto entry = entryFor(denied);
        QCOMPARE(entry["outcome"].get<std::string>(), kFailed);
        QCOMPARE(entry["errorMessage"].get<std::string>(),
                 std::string("Permission denied: viewer cannot DELETE CLUSTER"));

        const auto missing = run("DESCRIBE JOB nope");
        entry = entryFor(missing);
        QCOMPARE(entry["outcome"].get<std::string>(), kFailed);
        QCOMPARE(entry["errorMessage"].get<std::string>(), std::string("Job nope does not exist"));

        const auto invalid = run("CREATE JOBS x");
        QCOMPARE(statusOf(invalid), kInvalid);
        entry = entryFor(invalid);
        QCOMPARE(entry["outcome"].get<std::string>(), kInvalid);
        QCOMPARE(entry["errorMessage"].get<std::string>(), invalid["errorMessage"].get<std::string>());
        QCOMPARE(entry["statement"].get<std::string>(), std::string("CREATE JOBS x"));
    }

    void masksSecretParametersOfJobs() {
        const auto created = run("CREATE JOB sj TYPE = 'JAR' PARAMETERS = ('--class', 'X', '--conf', "
                                 "'spark.hadoop.fs.s3a.secret.key=S3CR3T-conf', 'app.jar', '--db-password', "
                                 "'S3CR3T-arg', '--api-token=S3CR3T-inline') CLUSTER = 'c'");
        QCOMPARE(statusOf(created), kSuccess);
        const auto statement = entryFor(created)["statement"].get<std::string>();
        QVERIFY2(statement.find("spark.hadoop.fs.s3a.secret.key=****") != std::string::npos,
                 statement.c_str());
        QVERIFY2(statement.find("'--db-password', '****'") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("--api-token=****") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--class', 'X'") != std::string::npos, statement.c_str());

        const auto altered =
            run("ALTER JOB sj SET PARAMETERS = ('--class', 'X', 'app.jar', '--db-password', 'S3CR3T-new')");
        QCOMPARE(statusOf(altered), kSuccess);
        QVERIFY(entryFor(altered)["statement"].get<std::string>().find("'****'") != std::string::npos);
        for (const char* secret : {"S3CR3T-conf", "S3CR3T-arg", "S3CR3T-inline", "S3CR3T-new"})
            verifyNowhere(secret);
    }

    void masksSecretClusterConfigsAndRunOverrides() {
        const auto cluster = run("CREATE CLUSTER sc TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0 WITH "
                                 "'spark.hadoop.fs.s3a.secret.key' = 'S3CR3T-cluster'");
        QCOMPARE(statusOf(cluster), kSuccess);
        QVERIFY(entryFor(cluster)["statement"].get<std::string>().find("'****'") != std::string::npos);
        const auto altered = run("ALTER CLUSTER sc WITH 'hoodie.x.credential' = 'S3CR3T-cluster2'");
        QCOMPARE(statusOf(altered), kSuccess);
        // Whatever the run statement's outcome, its overrides are masked in the audit log.
        const auto runJob =
            run("RUN JOB sj ARGUMENTS = ('--db-password' = 'S3CR3T-run', '--date' = '2026-01-01')");
        QVERIFY(runJob.contains("apiStatus"));
        const auto statement = entryFor(runJob)["statement"].get<std::string>();
        QVERIFY2(statement.find("'--db-password' = '****'") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--date' = '2026-01-01'") != std::string::npos, statement.c_str());
        for (const char* secret : {"S3CR3T-cluster", "S3CR3T-cluster2", "S3CR3T-run"})
            verifyNowhere(secret);
    }

    void masksSecretsInStatementsThatDoNotParse() {
        const auto broken =
            run("CREATE JOB broken TYPE = 'JAR' PARAMETERS = ('--conf', "
                "'spark.x.password=S3CR3T-broken1', '--api-token', 'S3CR3T-broken2' CLUSTER 'c'");
        QCOMPARE(statusOf(broken), kInvalid);
        // The parser's message names the token it stopped after: a secret there is masked as well.
        const std::string message = broken.value("errorMessage", std::string());
        QVERIFY2(message.find("S3CR3T") == std::string::npos, message.c_str());
        QVERIFY2(message.find("'****'") != std::string::npos, message.c_str());
        const auto statement = entryFor(broken)["statement"].get<std::string>();
        QVERIFY2(statement.find("spark.x.password=****") != std::string::npos, statement.c_str());
        QVERIFY2(statement.find("'--api-token', '****'") != std::string::npos, statement.c_str());
        const auto bare = run("ALTER CLUSTER x WITH db.password=S3CR3T-bare");
        QCOMPARE(statusOf(bare), kInvalid);
        QVERIFY(entryFor(bare)["statement"].get<std::string>().find("db.password=****") != std::string::npos);
        const auto unterminated = run("CREATE JOB u TYPE = 'JAR' PARAMETERS = ('--password', 'S3CR3T-open");
        QCOMPARE(statusOf(unterminated), kInvalid);
        for (const char* secret : {"S3CR3T-broken1", "S3CR3T-broken2", "S3CR3T-bare", "S3CR3T-open"})
            verifyNowhere(secret);
    }

    // Issue 19: the '=' forms of --conf and --hudi-conf (and every other form the classifier reads) are
    // masked wherever the statement or the job's parameters are shown or stored for display.
    void equalsFormsAreMaskedEverywhere() {
        QVERIFY(statementSucceeds(m_service, m_admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"));
        QVERIFY(statementSucceeds(m_service, m_admin,
                                  "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.ds.password', "
                                  "'hoodie.ds.token')"));
        const QString parameters =
            "'--conf=spark.db.password=EQX-conf', '--hudi-conf=hoodie.ds.password=EQY-hudi', "
            "'-c', 'spark.c.token=EQZ-alias', '--hudi-conf', 'hoodie.ds.token=EQT-hudi2', "
            "'--conf', 'spark.y=1 --conf spark.pasted.password=EQD-pasted', "
            "'/app.py', '--conf=spark.app.secret=EQA-arg', '--db-password', 'EQB-arg', '--api-token "
            "EQC-in-one', '--date 1 --token EQE-pasted'";
        const auto created =
            run("CREATE JOB eqforms TYPE = 'PYTHON' PARAMETERS = (" + parameters + ") CLUSTER = 'c'");
        QCOMPARE(statusOf(created), kSuccess);
        const std::vector<std::string> secrets{"EQX-conf", "EQY-hudi",   "EQZ-alias",  "EQT-hudi2", "EQA-arg",
                                               "EQB-arg",  "EQC-in-one", "EQD-pasted", "EQE-pasted"};
        const auto job =
            run("DESCRIBE JOB eqforms", &m_viewer)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        QCOMPARE(
            job["parameters"],
            json({"--conf=spark.db.password=****", "--hudi-conf=hoodie.ds.password=****", "-c",
                  "spark.c.token=****", "--hudi-conf", "hoodie.ds.token=****", "--conf",
                  "spark.y=1 --conf spark.pasted.password=****", "/app.py", "--conf=spark.app.secret=****",
                  "--db-password", "****", "--api-token ****", "--date 1 --token ****"}));
        QCOMPARE(job["sparkConfigs"]["spark.db.password"].get<std::string>(), std::string("****"));
        QCOMPARE(job["sparkConfigs"]["spark.y"].get<std::string>(),
                 std::string("1 --conf spark.pasted.password=****"));
        QCOMPARE(job["hudiConfigs"]["hoodie.ds.password"].get<std::string>(), std::string("****"));
        const auto jobs = run("SHOW JOBS", &m_viewer);
        QCOMPARE(statusOf(jobs), kSuccess);
        // ALTER with exactly what DESCRIBE showed keeps every stored value.
        QStringList quoted;
        for (const auto& p : job["parameters"])
            quoted << "'" + QString::fromStdString(p.get<std::string>()) + "'";
        const auto altered = run("ALTER JOB eqforms SET PARAMETERS = (" + quoted.join(", ") + ")");
        QCOMPARE(statusOf(altered), kSuccess);
        ServiceDatabase db(m_service);
        {
            const QString stored = db.value("SELECT parameters FROM jobs WHERE name = 'eqforms'");
            QVERIFY2(!stored.isNull(), qPrintable(db.lastError()));
            QCOMPARE(json::parse(stored.toStdString()),
                     json({"--conf=spark.db.password=EQX-conf", "--hudi-conf=hoodie.ds.password=EQY-hudi",
                           "-c", "spark.c.token=EQZ-alias", "--hudi-conf", "hoodie.ds.token=EQT-hudi2",
                           "--conf", "spark.y=1 --conf spark.pasted.password=EQD-pasted", "/app.py",
                           "--conf=spark.app.secret=EQA-arg", "--db-password", "EQB-arg",
                           "--api-token EQC-in-one", "--date 1 --token EQE-pasted"}));
        }
        // A statement that does not parse (no '=' after CLUSTER) is masked token by token.
        const auto invalid =
            run("CREATE JOB eqbad TYPE = 'PYTHON' PARAMETERS = (" + parameters + ") CLUSTER 'c'");
        QCOMPARE(statusOf(invalid), kInvalid);
        // Next, while no read's audit entry waits for its group commit (the write above committed them).
        const auto failedText = statementFailedLine(parameters);
        QVERIFY2(
            failedText.contains("'--conf=spark.db.password=****', '--hudi-conf=hoodie.ds.password=****'"),
            qPrintable(failedText));
        const auto invalidText = entryFor(invalid)["statement"].get<std::string>();
        QVERIFY2(invalidText.find("'--conf=spark.db.password=****', '--hudi-conf=hoodie.ds.password=****'") !=
                     std::string::npos,
                 invalidText.c_str());

        const std::string shownJobs = jobs.dump();
        const std::string createdText = entryFor(created)["statement"].get<std::string>();
        QVERIFY2(createdText.find("'--hudi-conf=hoodie.ds.password=****'") != std::string::npos,
                 createdText.c_str());
        const std::string onDisk = tableText(db, "SELECT statement, coalesce(error_message, '') FROM audit") +
                                   tableText(db, "SELECT status FROM requests");
        for (const auto& secret : secrets) {
            QVERIFY2(job.dump().find(secret) == std::string::npos, job.dump().c_str());
            QVERIFY2(shownJobs.find(secret) == std::string::npos, secret.c_str());
            QVERIFY2(onDisk.find(secret) == std::string::npos, (secret + " in the database").c_str());
            QVERIFY2(invalid.dump().find(secret) == std::string::npos, invalid.dump().c_str());
            verifyNowhere(secret);
        }
    }

    void readStatementsAreAuditedAfterTheyAreAnswered() {
        // Reads are answered before their entries are written; the entries still show, in order.
        const auto described = run("DESCRIBE CLUSTER c", &m_viewer);
        QCOMPARE(statusOf(described), kSuccess);
        const auto shown = run("SHOW JOBS", &m_viewer);
        QCOMPARE(statusOf(shown), kSuccess);
        const auto created = run("CREATE CLUSTER after_reads TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(statusOf(created), kSuccess);
        const auto first = entryFor(described);
        const auto second = entryFor(shown);
        const auto third = entryFor(created);
        QVERIFY2(first.is_object() && second.is_object() && third.is_object(), described.dump().c_str());
        QCOMPARE(first["statement"].get<std::string>(), std::string("DESCRIBE CLUSTER c"));
        QCOMPARE(first["outcome"].get<std::string>(), kSuccess);
        QCOMPARE(second["statement"].get<std::string>(), std::string("SHOW JOBS"));
        QVERIFY(first["seq"].get<std::int64_t>() < second["seq"].get<std::int64_t>());
        QVERIFY(second["seq"].get<std::int64_t>() < third["seq"].get<std::int64_t>());
        // DESCRIBE PROJECT shows them to admins as well.
        const auto project = run("DESCRIBE PROJECT")["apiResponse"]["describeProjectApiResponse"]["project"];
        bool listed = false;
        for (const auto& entry : project["recentAudit"])
            listed = listed || entry.value("requestId", std::string()) == shown.value("requestId", "");
        QVERIFY2(listed, project.dump().c_str());
    }

    void readEntriesAreWrittenAtAGracefulStop() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials viewer = service.createKey("stopping", "viewer");
        const auto status = runStatement(service, viewer, "SHOW CLUSTERS");
        QCOMPARE(statusOf(status), kSuccess);
        QCOMPARE(service.stop(), 0);
        ServiceDatabase db(service);
        const QString statement = db.value("SELECT statement FROM audit WHERE request_id = ?",
                                           {QString::fromStdString(status.value("requestId", ""))});
        QVERIFY2(!statement.isNull(), qPrintable(db.lastError()));
        QCOMPARE(statement, QString("SHOW CLUSTERS"));
    }

    void auditSurvivesKill9() {
        const auto before =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        // Every entry shown was committed: the durable ones before their answer, the deferred ones by
        // SHOW AUDIT_LOG before it read them.
        m_service.kill9();
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        const auto after =
            run("SHOW AUDIT_LOG LIMIT 1000")["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        // The SHOW AUDIT_LOG in between is a read: its entry is there unless the kill came within the
        // group-commit interval after its answer.
        QVERIFY2(after.size() == before.size() || after.size() == before.size() + 1, after.dump().c_str());
        const std::size_t offset = after.size() - before.size();
        for (std::size_t i = 0; i < before.size(); ++i)
            QCOMPARE(after[offset + i], before[i]);
        if (offset == 1)
            QCOMPARE(after[0]["statement"].get<std::string>(), std::string("SHOW AUDIT_LOG LIMIT 1000"));
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestAudit)
#include "tst_audit.moc"
