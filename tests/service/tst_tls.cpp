// jobdeckd serving HTTPS itself (`serve --tls-cert --tls-key`): a statement round trip over TLS with a
// CA made for the test, plain HTTP on the TLS port answered with a 400 that says to use https, only
// Mozilla's "intermediate" suites offered (TLS 1.3, and TLS 1.2 AEAD with forward secrecy: checked
// with `openssl s_client`), a key readable by others and an expired certificate warned about, and
// every bad TLS command line refused with one line.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceProcess.h"
#include "tests/support/TestCertificates.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using namespace jobdeck;
using jobdeck::test::nonEmptyLines;
using namespace jobdeck::teststatus;

namespace {

// Runs `openssl s_client` against 127.0.0.1:`port` with `arguments` (protocol, suites); true when the
// handshake completed. `output` gets what it printed, for failure messages.
bool handshakes(quint16 port, const QStringList& arguments, QString& output) {
    QProcess client;
    client.setProcessChannelMode(QProcess::MergedChannels);
    client.start(QStringLiteral("openssl"),
                 QStringList{QStringLiteral("s_client"), QStringLiteral("-connect"),
                             QStringLiteral("127.0.0.1:%1").arg(port)} +
                     arguments);
    client.closeWriteChannel(); // at the end of its input it closes the connection and exits
    if (!client.waitForFinished(30000)) {
        client.kill();
        client.waitForFinished();
        output = QStringLiteral("openssl s_client did not finish within 30 s (a hang guard)");
        return false;
    }
    output = QString::fromUtf8(client.readAll());
    return client.exitStatus() == QProcess::NormalExit && client.exitCode() == 0 &&
           output.contains(QStringLiteral("Cipher is ")) &&
           !output.contains(QStringLiteral("Cipher is (NONE)"));
}

QByteArray headerOf(const QByteArray& raw, const QByteArray& name) {
    const qsizetype at = raw.toLower().indexOf("\r\n" + name.toLower() + ":");
    return at < 0 ? QByteArray()
                  : raw.mid(at + name.size() + 3, raw.indexOf('\r', at + 2) - at - name.size() - 3).trimmed();
}

} // namespace

class TestTls : public QObject {
    Q_OBJECT

    TestCertificates m_certificates;
    TestService m_service;
    TestService m_rsaService; // an RSA certificate: static-RSA key exchange would be possible with it
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
        m_rsaService.useTls(m_certificates.rsaCertificate(), m_certificates.rsaKey());
        QVERIFY2(m_rsaService.start(), qPrintable(m_rsaService.lastError()));
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

    // As nginx's 497: the client is told why, in CONTRACT §1's form, and the service goes on.
    void plainHttpOnTheTlsPortIsToldToUseHttps() {
        const QByteArray raw =
            rawExchange(m_service.port(),
                        "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 15000);
        QVERIFY2(rawStatus(raw) == 400, raw.left(300).constData());
        const QByteArray reason = headerOf(raw, "grpc-message");
        QVERIFY2(reason.contains("https://"), raw.left(400).constData());
        const auto body =
            nlohmann::json::parse(raw.mid(raw.indexOf("\r\n\r\n") + 4).toStdString(), nullptr, false);
        QCOMPARE(QByteArray::fromStdString(body.value("error", std::string())), reason);

        // A POST with a body gets the same, and the service goes on over HTTPS.
        const QByteArray post =
            rawExchange(m_service.port(),
                        "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n"
                        "Content-Type: application/json\r\n\r\n{}",
                        15000);
        QVERIFY2(rawStatus(post) == 400, post.left(300).constData());
        const auto health = request(m_service.url(QStringLiteral("/v1/health")), "GET");
        QVERIFY2(health.status == 200, qPrintable(health.error));
        QCOMPARE(statusOf(runStatement(m_service, m_admin, QStringLiteral("SHOW CLUSTERS"))), kSuccess);
        QVERIFY(m_service.isRunning());
    }

    // Mozilla's "intermediate" profile: TLS 1.3, and TLS 1.2 only with ECDHE or DHE key exchange and
    // an AEAD cipher (GCM, ChaCha20-Poly1305); no static RSA, no CBC, no SHA-1 MAC, nothing older.
    void onlyForwardSecretAeadSuitesAreOffered_data() {
        QTest::addColumn<bool>("rsa");
        QTest::addColumn<QStringList>("clientOffers");
        QTest::addColumn<bool>("accepted");
        auto tls12 = [](const char* suite) { return QStringList{"-tls1_2", "-cipher", suite}; };
        QTest::newRow("ECDSA: ECDHE AES-128-GCM") << false << tls12("ECDHE-ECDSA-AES128-GCM-SHA256") << true;
        QTest::newRow("ECDSA: ECDHE AES-256-GCM") << false << tls12("ECDHE-ECDSA-AES256-GCM-SHA384") << true;
        QTest::newRow("ECDSA: ECDHE ChaCha20") << false << tls12("ECDHE-ECDSA-CHACHA20-POLY1305") << true;
        QTest::newRow("ECDSA: TLS 1.3") << false << QStringList{"-tls1_3"} << true;
        QTest::newRow("ECDSA: ECDHE AES-CBC-SHA1") << false << tls12("ECDHE-ECDSA-AES128-SHA") << false;
        QTest::newRow("ECDSA: ECDHE AES-CBC-SHA256") << false << tls12("ECDHE-ECDSA-AES128-SHA256") << false;
        QTest::newRow("ECDSA: TLS 1.1")
            << false << QStringList{"-tls1_1", "-cipher", "ALL:@SECLEVEL=0"} << false;
        QTest::newRow("RSA: ECDHE AES-128-GCM") << true << tls12("ECDHE-RSA-AES128-GCM-SHA256") << true;
        QTest::newRow("RSA: DHE AES-128-GCM") << true << tls12("DHE-RSA-AES128-GCM-SHA256") << true;
        QTest::newRow("RSA: TLS 1.3") << true << QStringList{"-tls1_3"} << true;
        QTest::newRow("RSA: static RSA AES-CBC-SHA1") << true << tls12("AES128-SHA") << false;
        QTest::newRow("RSA: static RSA AES-128-GCM") << true << tls12("AES128-GCM-SHA256") << false;
        QTest::newRow("RSA: ECDHE AES-CBC-SHA1") << true << tls12("ECDHE-RSA-AES128-SHA") << false;
        QTest::newRow("RSA: DHE AES-CBC-SHA1") << true << tls12("DHE-RSA-AES128-SHA") << false;
    }

    void onlyForwardSecretAeadSuitesAreOffered() {
        QFETCH(bool, rsa);
        QFETCH(QStringList, clientOffers);
        QFETCH(bool, accepted);
        QString output;
        const bool completed = handshakes((rsa ? m_rsaService : m_service).port(), clientOffers, output);
        QVERIFY2(completed == accepted,
                 qPrintable(QStringLiteral("the handshake %1; openssl s_client said:\n%2")
                                .arg(completed ? "completed" : "failed", output.left(1500))));
    }

    // Files that start the service but deserve the admin's attention: a line in the log each.
    void aKeyReadableByOthersIsWarnedAbout() {
        const QString key = m_certificates.filePath(QStringLiteral("readable.key"));
        QVERIFY(QFile::copy(m_certificates.serverKey(), key));
        QVERIFY(QFile::setPermissions(key, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup |
                                               QFile::ReadOther));
        TestService service;
        service.useTls(m_certificates.serverCertificate(), key);
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY2(service.errorOutput().contains(QStringLiteral("can be read by other users")),
                 qPrintable(service.errorOutput()));
        QVERIFY2(service.errorOutput().contains(key), qPrintable(service.errorOutput()));
        QCOMPARE(service.stop(), 0);
        // The key openssl wrote (mode 600) gets no such line.
        QVERIFY2(!m_service.errorOutput().contains(QStringLiteral("can be read by other users")),
                 qPrintable(m_service.errorOutput()));
    }

    void anExpiredCertificateIsWarnedAbout() {
        TestService service;
        service.useTls(m_certificates.expiredCertificate(), m_certificates.expiredKey());
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QVERIFY2(service.errorOutput().contains(QStringLiteral("expired on 2020-01-02")),
                 qPrintable(service.errorOutput()));
        QCOMPARE(service.stop(), 0);
        QVERIFY2(!m_service.errorOutput().contains(QStringLiteral("expired on")),
                 qPrintable(m_service.errorOutput()));
    }

    // A renewed certificate (certbot's deploy hook, `systemctl reload jobdeckd`): SIGHUP makes new
    // connections get the files' new pair while an open connection goes on with its own; files that do
    // not make a pair are logged and the pair in use stays.
    void sighupReloadsTheCertificate() {
        const QString cert = m_certificates.filePath(QStringLiteral("reloaded.pem"));
        const QString key = m_certificates.filePath(QStringLiteral("reloaded.key"));
        QVERIFY(replaceFile(m_certificates.serverCertificate(), cert) &&
                replaceFile(m_certificates.serverKey(), key));
        TestService service;
        service.useTls(cert, key);
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const QSslCertificate first = QSslCertificate::fromPath(m_certificates.serverCertificate()).value(0);
        const QSslCertificate renewed = QSslCertificate::fromPath(m_certificates.rsaCertificate()).value(0);
        QCOMPARE(peerCertificateOf(service), first);
        QCOMPARE(expiryMetricOf(service), first.expiryDate().toSecsSinceEpoch());
        QSslSocket open;
        QVERIFY(connectAnyPeer(open, service.port()));

        QVERIFY(replaceFile(m_certificates.rsaCertificate(), cert) &&
                replaceFile(m_certificates.rsaKey(), key));
        QCOMPARE(::kill(pid_t(service.processId()), SIGHUP), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            service.errorOutput().contains(QStringLiteral("TLS certificate reloaded from ") + cert), 20000);
        QCOMPARE(peerCertificateOf(service), renewed);
        QCOMPARE(expiryMetricOf(service), renewed.expiryDate().toSecsSinceEpoch());
        QCOMPARE(healthOver(open), QByteArray("HTTP/1.1 200 OK"));
        QCOMPARE(open.peerCertificate(), first);

        // A key that is not the certificate's: refused, logged, the renewed pair stays.
        QVERIFY(replaceFile(m_certificates.otherKey(), key));
        QCOMPARE(::kill(pid_t(service.processId()), SIGHUP), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            service.errorOutput().contains(QStringLiteral("TLS certificate not reloaded: ")), 20000);
        QCOMPARE(peerCertificateOf(service), renewed);
        QCOMPARE(service.stop(), 0);
    }

    // Plain HTTP: SIGHUP is logged and the service serves on (its default action would end it).
    void sighupWithoutTlsServesOn() {
        TestService service;
        const ApiCredentials key = service.createKey(QStringLiteral("plain"), QStringLiteral("viewer"));
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        QCOMPARE(::kill(pid_t(service.processId()), SIGHUP), 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            service.errorOutput().contains(QStringLiteral("no TLS certificate to reload")), 20000);
        QVERIFY(service.isRunning());
        QCOMPARE(statusOf(runStatement(service, key, QStringLiteral("SHOW JOBS"))), kSuccess);
        QCOMPARE(expiryMetricOf(service), -1); // no certificate, no series
        QCOMPARE(service.stop(), 0);
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

private:
    // `to` replaced by a copy of `from`, mode 0600 (as a key is kept).
    static bool replaceFile(const QString& from, const QString& to) {
        QFile::remove(to);
        return QFile::copy(from, to) && QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
    }
    // A TLS connection that takes whichever certificate the server shows (the renewed one is
    // self-signed): what is compared is which one it is.
    static bool connectAnyPeer(QSslSocket& socket, quint16 port) {
        socket.setPeerVerifyMode(QSslSocket::VerifyNone);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), port);
        return socket.waitForEncrypted(20000);
    }
    static QSslCertificate peerCertificateOf(const TestService& service) {
        QSslSocket socket;
        return connectAnyPeer(socket, service.port()) ? socket.peerCertificate() : QSslCertificate();
    }
    // jobdeck_tls_certificate_expiry_timestamp_seconds from GET /metrics (over TLS whichever certificate
    // is served); -1 when it has no such line.
    static qint64 expiryMetricOf(const TestService& service) {
        QByteArray body;
        if (service.baseUrl().scheme() == QStringLiteral("https")) {
            QSslSocket socket;
            if (!connectAnyPeer(socket, service.port()))
                return -2;
            socket.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
            while (socket.state() == QAbstractSocket::ConnectedState && socket.waitForReadyRead(20000))
                body += socket.readAll();
            body += socket.readAll();
        } else {
            body = request(service.url(QStringLiteral("/metrics")), "GET").body;
        }
        for (const QByteArray& line : body.split('\n'))
            if (line.startsWith("jobdeck_tls_certificate_expiry_timestamp_seconds "))
                return line.mid(line.indexOf(' ') + 1).trimmed().toLongLong();
        return -1;
    }
    // The status line of GET /v1/health sent over `socket`.
    static QByteArray healthOver(QSslSocket& socket) {
        socket.write("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        QByteArray answer;
        while (!answer.contains("\r\n") && socket.waitForReadyRead(20000))
            answer += socket.readAll();
        return answer.left(answer.indexOf("\r\n"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
