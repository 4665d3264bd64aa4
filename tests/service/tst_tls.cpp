// jobdeckd serving HTTPS itself (`serve --tls-cert --tls-key`): a statement round trip over TLS with a
// CA made for the test, plain HTTP on the TLS port refused without harming the service, and every bad
// TLS command line refused with one line.
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTemporaryDir>
#include <QTest>

using namespace jobdeck;
using jobdeck::test::nonEmptyLines;
using namespace jobdeck::teststatus;

class TestTls : public QObject {
    Q_OBJECT

    TestCertificates m_certificates;
    TestService m_service;
    ApiCredentials m_admin;

private slots:
    void initTestCase() {
        QVERIFY2(m_certificates.isValid(), qPrintable(m_certificates.error()));
        // This process's HTTPS clients (TestHttp) trust the test CA, as a system store would.
        QSslConfiguration trusting = QSslConfiguration::defaultConfiguration();
        trusting.addCaCertificates(QSslCertificate::fromPath(m_certificates.caCertificate()));
        QSslConfiguration::setDefaultConfiguration(trusting);

        m_service.useTls(m_certificates.serverCertificate(), m_certificates.serverKey());
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        QCOMPARE(m_service.baseUrl().scheme(), QStringLiteral("https"));
        m_admin = m_service.createKey(QStringLiteral("tls"), QStringLiteral("admin"));
        QVERIFY2(m_admin.isValid(), qPrintable(m_service.lastError()));
    }

    void statementsRoundTripOverHttps() {
        const auto health = request(m_service.url(QStringLiteral("/v1/health")), "GET");
        QVERIFY2(health.status == 200, qPrintable(health.error));
        QCOMPARE(health.json().value("status", std::string()), std::string("ok"));

        QVERIFY(statementSucceeds(
            m_service, m_admin,
            QStringLiteral("CREATE CLUSTER tls_cluster TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")));
        const auto described =
            runStatement(m_service, m_admin, QStringLiteral("DESCRIBE CLUSTER tls_cluster"));
        QCOMPARE(statusOf(described), kSuccess);
        QCOMPARE(
            described["apiResponse"]["describeClusterApiResponse"]["cluster"].value("name", std::string()),
            std::string("tls_cluster"));
    }

    void plainHttpOnTheTlsPortIsRefusedAndTheServiceGoesOn() {
        QElapsedTimer clock;
        clock.start();
        const QByteArray raw =
            rawExchange(m_service.port(),
                        "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 15000);
        // No HTTP answer, and the connection was closed rather than left hanging until the timeout.
        QCOMPARE(rawStatus(raw), 0);
        QVERIFY2(!raw.startsWith("HTTP/"), raw.left(200).constData());
        QVERIFY2(clock.elapsed() < 14000, "the plain-HTTP connection was left open");

        const auto health = request(m_service.url(QStringLiteral("/v1/health")), "GET");
        QVERIFY2(health.status == 200, qPrintable(health.error));
        QCOMPARE(statusOf(runStatement(m_service, m_admin, QStringLiteral("SHOW CLUSTERS"))), kSuccess);
        QVERIFY(m_service.isRunning());
    }

    void badTlsOptionsExitWithOneLine_data() {
        QTest::addColumn<QStringList>("tlsArguments");
        QTest::addColumn<QString>("mentions");
        QFile notPem(m_certificates.filePath(QStringLiteral("not-pem.txt")));
        QVERIFY(notPem.open(QIODevice::WriteOnly));
        notPem.write("this is not a certificate\n");
        notPem.close();
        const QString cert = m_certificates.serverCertificate();
        const QString key = m_certificates.serverKey();
        const QString missing = m_certificates.filePath(QStringLiteral("missing.pem"));
        QTest::newRow("cert without key") << QStringList{"--tls-cert", cert} << "--tls-key";
        QTest::newRow("key without cert") << QStringList{"--tls-key", key} << "--tls-cert";
        QTest::newRow("missing cert") << QStringList{"--tls-cert", missing, "--tls-key", key} << missing;
        QTest::newRow("missing key") << QStringList{"--tls-cert", cert, "--tls-key", missing} << missing;
        QTest::newRow("cert not PEM")
            << QStringList{"--tls-cert", notPem.fileName(), "--tls-key", key} << "TLS certificate";
        QTest::newRow("key not PEM") << QStringList{"--tls-cert", cert, "--tls-key", notPem.fileName()}
                                     << "TLS key";
        QTest::newRow("key of another certificate")
            << QStringList{"--tls-cert", cert, "--tls-key", m_certificates.otherKey()} << "TLS key";
    }

    void badTlsOptionsExitWithOneLine() {
        QFETCH(QStringList, tlsArguments);
        QFETCH(QString, mentions);
        QTemporaryDir data;
        const auto exit = TestService::runJobdeckd(
            QStringList{"serve", "--listen", "127.0.0.1:0", "--data-dir", data.path()} + tlsArguments);
        QCOMPARE(exit.status, 1);
        const QStringList lines = nonEmptyLines(exit.err);
        QVERIFY2(lines.size() == 1, exit.err.constData());
        QVERIFY2(lines.front().startsWith(QStringLiteral("jobdeckd: ")), exit.err.constData());
        QVERIFY2(lines.front().contains(mentions), exit.err.constData());
        QVERIFY2(!exit.out.contains("listening on"), exit.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
