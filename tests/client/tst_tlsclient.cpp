// The console's client over HTTPS against the real jobdeckd (`serve --tls-cert`): it trusts the CA of
// the connection's "CA certificate file", and without it reports the untrusted certificate clearly.
// The profile keeps the CA file, and a file that holds no certificate is refused when saving.
#include "client/ApiClient.h"
#include "client/ConnectionProfiles.h"
#include "client/SecretStore.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/AwaitReply.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TestService.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::awaitReply;

class TestTlsClient : public QObject {
    Q_OBJECT

    TestCertificates m_certificates;
    TestService m_service;
    ApiCredentials m_admin;

    ConnectionInfo connection(const QString& caFile) const {
        return {m_service.baseUrl(), m_admin.projectUid, m_admin.apiKey, m_admin.apiSecret, caFile};
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_certificates.isValid(), qPrintable(m_certificates.error()));
        m_service.useTls(m_certificates.serverCertificate(), m_certificates.serverKey());
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_admin = m_service.createKey(QStringLiteral("tls-console"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
    }

    void theProfilesCaIsTrusted() {
        ApiClient client;
        client.setConnection(connection(m_certificates.caCertificate()));
        QString error;
        const auto version = awaitReply(client.health(std::chrono::seconds(10)), &error);
        QVERIFY2(version, qPrintable(error));
        QVERIFY(!version->isEmpty());
        const auto created = awaitReply(
            client.createCluster(CreateClusterStatement{"tls_console_cluster", "Spark", 2, 1, {}}), &error);
        QVERIFY2(created, qPrintable(error));
        const auto cluster =
            awaitReply(client.describeCluster(QStringLiteral("tls_console_cluster")), &error);
        QVERIFY2(cluster, qPrintable(error));
        QCOMPARE(cluster->name, std::string("tls_console_cluster"));
    }

    void withoutTheCaTheCertificateIsReportedUntrusted() {
        ApiClient client;
        client.setConnection(connection({}));
        QString error;
        QVERIFY(!awaitReply(client.health(std::chrono::seconds(10)), &error));
        QVERIFY2(error.contains(QStringLiteral("is not trusted")), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("127.0.0.1:%1").arg(m_service.port())), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("CA certificate file")), qPrintable(error));
        // Statements too, and nothing is sent in clear meanwhile: the service still answers a trusting
        // client.
        QVERIFY(!awaitReply(client.showClusters(), &error));
        QVERIFY2(error.contains(QStringLiteral("is not trusted")), qPrintable(error));
    }

    void anUnreadableCaFileIsNamed() {
        ApiClient client;
        const QString missing = m_certificates.filePath(QStringLiteral("missing-ca.pem"));
        client.setConnection(connection(missing));
        QString error;
        QVERIFY(!awaitReply(client.health(), &error));
        QVERIFY2(error.contains(missing), qPrintable(error));
    }

    void profilesKeepTheCaFile() {
        QTemporaryDir dir;
        SecretStore store(dir.filePath(QStringLiteral("secrets")), SecretStore::Backend::File);
        const QString ini = dir.filePath(QStringLiteral("settings.ini"));
        ConnectionProfiles profiles(&store, ini);
        const ConnectionProfile prod{QStringLiteral("prod"), m_service.baseUrl(), m_admin.projectUid,
                                     m_admin.apiKey, m_certificates.caCertificate()};
        QString error;
        QVERIFY2(profiles.save(prod, m_admin.apiSecret, &error), qPrintable(error));
        const auto info = ConnectionProfiles(&store, ini).connectionInfo(QStringLiteral("prod"), &error);
        QVERIFY2(info, qPrintable(error));
        QCOMPARE(info->caCertificateFile, m_certificates.caCertificate());

        ApiClient client;
        client.setConnection(*info);
        QVERIFY2(awaitReply(client.health(std::chrono::seconds(10)), &error), qPrintable(error));

        QFile notPem(dir.filePath(QStringLiteral("not-a-ca.txt")));
        QVERIFY(notPem.open(QIODevice::WriteOnly));
        notPem.write("no certificate here\n");
        notPem.close();
        ConnectionProfile broken = prod;
        broken.caCertificateFile = notPem.fileName();
        QVERIFY(!profiles.save(broken, std::nullopt, &error));
        QVERIFY2(error.contains(QStringLiteral("holds no PEM certificate")), qPrintable(error));
        QCOMPARE(profiles.profile(QStringLiteral("prod"))->caCertificateFile, m_certificates.caCertificate());
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestTlsClient)
#include "tst_tlsclient.moc"
