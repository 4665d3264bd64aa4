// Credentials and roles (CONTRACT §1) against the real jobdeckd.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QTest>

using namespace jobdeck;

namespace {

QByteArray showJobs() {
    return QByteArrayLiteral(R"({"statement": "SHOW JOBS"})");
}

} // namespace

class TestAuth : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_viewer = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("viewer"));
        m_operator = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("operator"));
        m_admin = m_service.createKey(QStringLiteral("alpha"), QStringLiteral("admin"));
        m_other = m_service.createKey(QStringLiteral("beta"), QStringLiteral("admin"));
        QVERIFY2(m_viewer.isValid() && m_operator.isValid() && m_admin.isValid() && m_other.isValid(),
                 qPrintable(m_service.lastError()));
        QCOMPARE(m_viewer.projectUid, m_admin.projectUid); // keys create reuses the project
        QCOMPARE(m_admin.role, QStringLiteral("admin"));
    }

    void badCredentials_data() {
        QTest::addColumn<int>("variant");
        QTest::newRow("none") << 0;
        QTest::newRow("no secret") << 1;
        QTest::newRow("no key") << 2;
        QTest::newRow("no project") << 3;
        QTest::newRow("wrong key") << 4;
        QTest::newRow("wrong secret") << 5;
        QTest::newRow("wrong project") << 6;
        QTest::newRow("key of another project") << 7;
        QTest::newRow("empty values") << 8;
    }

    void badCredentials() {
        QFETCH(int, variant);
        const ApiCredentials& good = m_operator;
        QByteArray project = good.projectUid.toUtf8();
        QByteArray key = good.apiKey.toUtf8();
        QByteArray secret = good.apiSecret.toUtf8();
        HttpHeaders headers;
        switch (variant) {
        case 0:
            break;
        case 1:
            headers = {{"x-onehouse-project-uid", project}, {"x-onehouse-api-key", key}};
            break;
        case 2:
            headers = {{"x-onehouse-project-uid", project}, {"x-onehouse-api-secret", secret}};
            break;
        case 3:
            headers = {{"x-onehouse-api-key", key}, {"x-onehouse-api-secret", secret}};
            break;
        case 4:
            key[0] = key[0] == 'a' ? 'b' : 'a';
            break;
        case 5:
            secret[secret.size() - 1] = secret.back() == 'a' ? 'b' : 'a';
            break;
        case 6:
            project = m_other.projectUid.toUtf8();
            break;
        case 7:
            key = m_other.apiKey.toUtf8();
            secret = m_other.apiSecret.toUtf8();
            break;
        case 8:
            project.clear();
            key.clear();
            secret.clear();
            break;
        }
        if (variant >= 4)
            headers = {{"x-onehouse-project-uid", project},
                       {"x-onehouse-api-key", key},
                       {"x-onehouse-api-secret", secret}};

        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", showJobs(), headers);
        QCOMPARE(result.status, 401);
        QVERIFY(!result.header("grpc-message").isEmpty());
        // Every refusal reads the same: nothing tells which part was wrong.
        const HttpResult reference =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", showJobs());
        QCOMPARE(result.body, reference.body);
        QCOMPARE(result.header("grpc-message"), reference.header("grpc-message"));
        // Status reads are guarded too.
        const HttpResult status =
            request(m_service.url(QStringLiteral("/v1/status/anything")), "GET", {}, headers);
        QCOMPARE(status.status, 401);
    }

    void revokedKeyIsRefused() {
        const ApiCredentials doomed =
            m_service.createKey(QStringLiteral("alpha"), QStringLiteral("operator"));
        QVERIFY(doomed.isValid());
        QCOMPARE(QString::fromStdString(
                     runStatement(m_service, doomed, QStringLiteral("SHOW JOBS")).value("apiStatus", "")),
                 QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        {
            // Another process (an operator's SQL shell) revokes it; '1' is read as the column's type.
            ServiceDatabase db(m_service);
            QVERIFY2(db.execute("UPDATE api_keys SET revoked = ? WHERE key = ?", {"1", doomed.apiKey}) == 1,
                     qPrintable(db.lastError()));
        }
        const HttpResult result =
            request(m_service.url(QStringLiteral("/v1/resource/")), "POST", showJobs(), doomed.headers());
        QCOMPARE(result.status, 401);
    }

    void roles_data() {
        QTest::addColumn<QString>("role");
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("refusal"); // empty: allowed
        QTest::newRow("viewer reads jobs") << "viewer"
                                           << "SHOW JOBS"
                                           << "";
        QTest::newRow("viewer reads clusters") << "viewer"
                                               << "SHOW CLUSTERS"
                                               << "";
        QTest::newRow("viewer reads project") << "viewer"
                                              << "DESCRIBE PROJECT"
                                              << "";
        QTest::newRow("viewer cannot create cluster")
            << "viewer"
            << "CREATE CLUSTER c_viewer TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"
            << "Permission denied: viewer cannot CREATE CLUSTER";
        QTest::newRow("viewer cannot delete job") << "viewer"
                                                  << "DELETE JOB j1"
                                                  << "Permission denied: viewer cannot DELETE JOB";
        QTest::newRow("viewer cannot run") << "viewer"
                                           << "RUN JOB j1"
                                           << "Permission denied: viewer cannot RUN JOB";
        QTest::newRow("operator creates cluster")
            << "operator"
            << "CREATE CLUSTER c_operator TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"
            << "";
        QTest::newRow("operator cannot alter project") << "operator"
                                                       << "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"
                                                       << "Permission denied: operator cannot ALTER PROJECT";
        QTest::newRow("operator cannot read audit") << "operator"
                                                    << "SHOW AUDIT_LOG"
                                                    << "Permission denied: operator cannot SHOW AUDIT_LOG";
        QTest::newRow("admin alters project") << "admin"
                                              << "ALTER PROJECT SET HUDI_CONFIGS = ENABLED"
                                              << "";
        QTest::newRow("admin creates cluster")
            << "admin"
            << "CREATE CLUSTER c_admin TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1"
            << "";
    }

    void roles() {
        QFETCH(QString, role);
        QFETCH(QString, statement);
        QFETCH(QString, refusal);
        const ApiCredentials& credentials = role == QLatin1String("viewer")     ? m_viewer
                                            : role == QLatin1String("operator") ? m_operator
                                                                                : m_admin;
        const nlohmann::json status = runStatement(m_service, credentials, statement);
        QVERIFY2(status.contains("apiStatus"), status.dump().c_str());
        if (refusal.isEmpty()) {
            QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                     QStringLiteral("API_OPERATION_STATUS_SUCCESS"));
        } else {
            QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                     QStringLiteral("API_OPERATION_STATUS_FAILED"));
            QCOMPARE(QString::fromStdString(status.value("errorMessage", "")), refusal);
        }
    }

    void refusedStatementsChangeNothing() {
        const nlohmann::json clusters = runStatement(m_service, m_viewer, QStringLiteral("SHOW CLUSTERS"));
        QStringList names;
        for (const auto& cluster : clusters["apiResponse"]["showClustersApiResponse"]["clusters"])
            names << QString::fromStdString(cluster.value("name", ""));
        QVERIFY(!names.contains(QStringLiteral("c_viewer")));
        QVERIFY(names.contains(QStringLiteral("c_operator")));
    }

    void healthNeedsNoCredentials() {
        QCOMPARE(request(m_service.url(QStringLiteral("/v1/health")), "GET").status, 200);
    }

private:
    TestService m_service;
    ApiCredentials m_viewer;
    ApiCredentials m_operator;
    ApiCredentials m_admin;
    ApiCredentials m_other;
};

JOBDECK_TEST_GUILESS_MAIN(TestAuth)
#include "tst_auth.moc"
