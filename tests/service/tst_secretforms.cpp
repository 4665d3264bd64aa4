// Secrets in edge forms never reach a viewer (docs/reliability.md, "Secrets in edge forms, …"): every
// -D pair of --driver-java-options, a value starting with -- after a secret-named argument (in the
// job and in a run's arguments), and back-quoted, double-quoted or bare values after a secret key in
// a statement that does not parse, secrets inside values (a JDBC URL's, a URL's user info, a JSON
// member). Through the real jobdeckd: DESCRIBE, the run, SHOW AUDIT_LOG and
// the service's log.
#include "tests/runner/SuiteRegistry.h"
#include "tst_runsupport.h"

using namespace jobdeck;
using namespace jobdeck::runtest;
using json = nlohmann::json;

class TestSecretForms final : public QObject {
    Q_OBJECT

    TestService m_service;
    Project m_project;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials& who) {
        return runStatement(m_service, who, statement);
    }

    // Neither the whole audit log nor jobdeckd's own log holds `secret`.
    void verifyNowhere(const std::string& secret) {
        const auto log = run("SHOW AUDIT_LOG LIMIT 1000", m_project.admin);
        QVERIFY2(log.dump().find(secret) == std::string::npos, (secret + " in " + log.dump()).c_str());
        QVERIFY2(!m_service.errorOutput().contains(QString::fromStdString(secret)),
                 qPrintable(QString::fromStdString(secret) + " in the service log"));
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QVERIFY(m_project.create(m_service));
        m_viewer = m_service.createKey("runs", "viewer");
        QVERIFY(m_viewer.isValid());
        QCOMPARE(statusOf(run("CREATE CLUSTER sc TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1", m_project.op)),
                 std::string(kSuccess));
    }

    void jobAndRunShowNoSecretForm() {
        const QStringList parameters{"--driver-java-options", "-Da=1 -Db=2 -Dpw.password=JavaSecret3 -Dz=4",
                                     kPythonApp, "--api-token", "--DashSecret3"};
        const auto created =
            run("CREATE JOB sf TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) + " CLUSTER = 'sc'",
                m_project.op);
        QCOMPARE(statusOf(created), std::string(kSuccess));
        const auto job =
            run("DESCRIBE JOB sf", m_viewer)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        JSON_COMPARE(job["parameters"], json({"--driver-java-options", "-Da=1 -Db=2 -Dpw.password=**** -Dz=4",
                                              kPythonApp.toStdString(), "--api-token", "****"}));
        JSON_COMPARE(job["arguments"], json({"--api-token", "****"}));

        const QString runId = runIdOf(runJob(m_service, m_project.op, "sf"));
        QVERIFY(!runId.isEmpty());
        const auto described = waitForRun(m_service, m_viewer, "sf", runId, hasEnded(), 60000);
        QVERIFY2(!described.is_null(), "no run");
        JSON_COMPARE(described["arguments"], json({"--api-token", "****"}));
        const std::string shown = described.dump() + job.dump();
        for (const char* secret : {"JavaSecret3", "DashSecret3"}) {
            QVERIFY2(shown.find(secret) == std::string::npos, shown.c_str());
            verifyNowhere(secret);
        }
    }

    // A JDBC URL's password in a --conf value, a JSON member and a URL's user info in the application's
    // arguments: masked in DESCRIBE, the run and the driver's log; a URL's password in the application
    // path: masked in applicationPath and in the run's message.
    void secretsInsideValuesShowNowhere() {
        const QStringList parameters{
            "--conf",
            "spark.jdbc.url=jdbc:postgresql://h/db?user=u&password=JdbcSecret6&ssl=1",
            kPythonApp,
            "--cfg",
            R"({"user": "u", "password": "JsonSecret6"})",
            "--repo",
            "https://ci:UrlSecret6@repo.example/m2"};
        QCOMPARE(statusOf(run("CREATE JOB sv TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) +
                                  " CLUSTER = 'sc'",
                              m_project.op)),
                 std::string(kSuccess));
        const auto job =
            run("DESCRIBE JOB sv", m_viewer)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        const json maskedArguments{"--cfg", R"({"user": "u", "password": "****"})", "--repo",
                                   "https://ci:****@repo.example/m2"};
        JSON_COMPARE(job["arguments"], maskedArguments);
        QCOMPARE(job["sparkConfigs"]["spark.jdbc.url"].get<std::string>(),
                 std::string("jdbc:postgresql://h/db?user=u&password=****&ssl=1"));
        const QString runId = runIdOf(runJob(m_service, m_project.op, "sv"));
        QVERIFY(!runId.isEmpty());
        const auto described = waitForRun(m_service, m_viewer, "sv", runId, hasEnded(), 60000);
        QVERIFY2(!described.is_null(), "no run");
        JSON_COMPARE(described["arguments"], maskedArguments);
        const QByteArray log = fullLog(m_service, m_viewer, "sv", runId);
        QVERIFY2(log.contains("arg: https://ci:****@repo.example/m2") && log.contains("done\n"),
                 log.constData());

        QCOMPARE(statusOf(run("CREATE JOB sp TYPE = 'PYTHON' PARAMETERS = ('https://u:PathSecret6@h/app.py') "
                              "CLUSTER = 'sc'",
                              m_project.op)),
                 std::string(kSuccess));
        const auto path =
            run("DESCRIBE JOB sp", m_viewer)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        QCOMPARE(path["applicationPath"].get<std::string>(), std::string("https://u:****@h/app.py"));
        const QString failedId = runIdOf(runJob(m_service, m_project.op, "sp"));
        const auto failed = waitForRun(m_service, m_viewer, "sp", failedId, hasEnded(), 60000);
        QVERIFY2(
            failed.value("message", std::string()).starts_with("Application file https://u:****@h/app.py "),
            failed.dump().c_str());

        const std::string shown =
            job.dump() + described.dump() + log.toStdString() + path.dump() + failed.dump();
        for (const char* secret : {"JdbcSecret6", "JsonSecret6", "UrlSecret6", "PathSecret6"}) {
            QVERIFY2(shown.find(secret) == std::string::npos, shown.c_str());
            verifyNowhere(secret);
        }
    }

    // Secrets whose names are not the contract's four words: a signed URL's signature, an API key
    // option, an Azure account key.
    void secretsByOtherNamesShowNowhere() {
        const QStringList parameters{
            "--conf",
            "spark.hadoop.fs.azure.account.key.acct.dfs.core.windows.net=AzureKey7",
            kPythonApp,
            "--input",
            "https://b.s3.amazonaws.com/in.csv?X-Amz-Signature=Signature7&X-Amz-Expires=60",
            "--api-key",
            "ApiKey7"};
        QCOMPARE(statusOf(run("CREATE JOB so TYPE = 'PYTHON' PARAMETERS = " + tuple(parameters) +
                                  " CLUSTER = 'sc'",
                              m_project.op)),
                 std::string(kSuccess));
        const auto job =
            run("DESCRIBE JOB so", m_viewer)["apiResponse"]["describeJobApiResponse"]["sparkJob"];
        const json maskedArguments{"--input",
                                   "https://b.s3.amazonaws.com/in.csv?X-Amz-Signature=****&X-Amz-Expires=60",
                                   "--api-key", "****"};
        JSON_COMPARE(job["arguments"], maskedArguments);
        QCOMPARE(job["sparkConfigs"]["spark.hadoop.fs.azure.account.key.acct.dfs.core.windows.net"]
                     .get<std::string>(),
                 std::string("****"));
        const QString runId = runIdOf(runJob(m_service, m_project.op, "so"));
        QVERIFY(!runId.isEmpty());
        const auto described = waitForRun(m_service, m_viewer, "so", runId, hasEnded(), 60000);
        QVERIFY2(!described.is_null(), "no run");
        JSON_COMPARE(described["arguments"], maskedArguments);
        const QByteArray log = fullLog(m_service, m_viewer, "so", runId);
        QVERIFY2(log.contains("arg: --api-key") && log.contains("done\n"), log.constData());
        const std::string shown = job.dump() + described.dump() + log.toStdString();
        for (const char* secret : {"AzureKey7", "Signature7", "ApiKey7"}) {
            QVERIFY2(shown.find(secret) == std::string::npos, shown.c_str());
            verifyNowhere(secret);
        }
    }

    void unparsableStatementsShowNoValueAfterASecretKey_data() {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("secret");
        QTest::addColumn<QString>("kept");
        QTest::newRow("back-quoted")
            << "CREATE JOB u1 PARAMETERS ('--api-token', `BackSecret1`, 'next1') oops"
            << "BackSecret1"
            << "'next1'";
        QTest::newRow("double-quoted")
            << "RUN JOB u2 ARGUMENTS = ('--db-password' = \"DoubleSecret2\", '--date' = "
               "'keep2') oops"
            << "DoubleSecret2"
            << "'--date' = 'keep2'";
        QTest::newRow("bare")
            << "RUN JOB u3 ARGUMENTS = ('--db-password' = BareSecret3, '--date' = 'keep3') oops"
            << "BareSecret3"
            << "'--date' = 'keep3'";
        QTest::newRow("bare after a bare key")
            << "ALTER CLUSTER sc WITH db.password = `BackSecret4` x.token=\"DoubleSecret4\" oops"
            << "Secret4"
            << "ALTER CLUSTER sc WITH";
    }

    void unparsableStatementsShowNoValueAfterASecretKey() {
        QFETCH(QString, statement);
        QFETCH(QString, secret);
        QFETCH(QString, kept);
        const auto answer = run(statement, m_project.op);
        QVERIFY2(statusOf(answer) != kSuccess, answer.dump().c_str());
        QVERIFY2(answer.dump().find(secret.toStdString()) == std::string::npos, answer.dump().c_str());
        const auto entries = run("SHOW AUDIT_LOG LIMIT 1000",
                                 m_project.admin)["apiResponse"]["showAuditLogApiResponse"]["auditEntries"];
        std::string text;
        for (const auto& entry : entries)
            if (entry.value("requestId", std::string()) == answer.value("requestId", std::string()))
                text = entry.value("statement", std::string());
        QVERIFY2(!text.empty(), entries.dump().c_str());
        QVERIFY2(text.find("****") != std::string::npos, text.c_str());
        QVERIFY2(text.find(kept.toStdString()) != std::string::npos, text.c_str());
        verifyNowhere(secret.toStdString());
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestSecretForms)
#include "tst_secretforms.moc"
