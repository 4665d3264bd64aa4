// Secrets in edge forms never reach a viewer (docs/reliability.md, "Secrets in edge forms, …"): every
// -D pair of --driver-java-options, a value starting with -- after a secret-named argument (in the
// job and in a run's arguments), and back-quoted, double-quoted or bare values after a secret key in
// a statement that does not parse. Through the real jobdeckd: DESCRIBE, the run, SHOW AUDIT_LOG and
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
