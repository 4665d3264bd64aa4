#include "tests/support/TestCertificates.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace jobdeck {

TestCertificates::TestCertificates() {
    if (!m_dir.isValid()) {
        m_error = QStringLiteral("cannot create a temporary directory");
        return;
    }
    if (QStandardPaths::findExecutable(QStringLiteral("openssl")).isEmpty()) {
        m_error = QStringLiteral("the openssl command is missing (Debian package openssl)");
        return;
    }
    QFile extensions(m_dir.filePath(QStringLiteral("server.ext")));
    if (!extensions.open(QIODevice::WriteOnly) ||
        extensions.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                         "basicConstraints=CA:FALSE\n"
                         "keyUsage=critical,digitalSignature\n"
                         "extendedKeyUsage=serverAuth\n") < 0) {
        m_error = QStringLiteral("cannot write server.ext");
        return;
    }
    extensions.close();
    const QStringList ecKey{QStringLiteral("-newkey"), QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                            QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes")};
    const bool made =
        openssl(QStringList{QStringLiteral("req"), QStringLiteral("-x509")} + ecKey +
                QStringList{QStringLiteral("-keyout"), otherKey(), QStringLiteral("-out"), caCertificate(),
                            QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                            QStringLiteral("/CN=Jobdeck test CA"), QStringLiteral("-addext"),
                            QStringLiteral("basicConstraints=critical,CA:TRUE"), QStringLiteral("-addext"),
                            QStringLiteral("keyUsage=critical,keyCertSign,cRLSign")}) &&
        openssl(QStringList{QStringLiteral("req")} + ecKey +
                QStringList{QStringLiteral("-keyout"), serverKey(), QStringLiteral("-out"),
                            m_dir.filePath(QStringLiteral("server.csr")), QStringLiteral("-subj"),
                            QStringLiteral("/CN=127.0.0.1")}) &&
        openssl({QStringLiteral("x509"), QStringLiteral("-req"), QStringLiteral("-in"),
                 m_dir.filePath(QStringLiteral("server.csr")), QStringLiteral("-CA"), caCertificate(),
                 QStringLiteral("-CAkey"), otherKey(), QStringLiteral("-CAcreateserial"),
                 QStringLiteral("-out"), serverCertificate(), QStringLiteral("-days"), QStringLiteral("2"),
                 QStringLiteral("-extfile"), m_dir.filePath(QStringLiteral("server.ext"))});
    const bool rsa =
        made &&
        openssl({QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                 QStringLiteral("rsa:2048"), QStringLiteral("-nodes"), QStringLiteral("-keyout"), rsaKey(),
                 QStringLiteral("-out"), rsaCertificate(), QStringLiteral("-days"), QStringLiteral("2"),
                 QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                 QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost")});
    if ((!made || !rsa || !makeExpired()) && m_error.isEmpty())
        m_error = QStringLiteral("openssl failed");
}

bool TestCertificates::makeExpired() {
    QFile config(m_dir.filePath(QStringLiteral("expired.cnf")));
    QFile index(m_dir.filePath(QStringLiteral("index.txt")));
    QFile serial(m_dir.filePath(QStringLiteral("serial")));
    if (!config.open(QIODevice::WriteOnly) || !index.open(QIODevice::WriteOnly) ||
        !serial.open(QIODevice::WriteOnly) || serial.write("01\n") < 0 ||
        config.write("[ca]\ndefault_ca = expired\n[expired]\ndatabase = " + index.fileName().toUtf8() +
                     "\nnew_certs_dir = " + m_dir.path().toUtf8() +
                     "\nserial = " + serial.fileName().toUtf8() +
                     "\ndefault_md = sha256\npolicy = anything\nunique_subject = no\n"
                     "[anything]\ncommonName = supplied\n") < 0) {
        m_error = QStringLiteral("cannot write the files of openssl ca");
        return false;
    }
    config.close();
    index.close();
    serial.close();
    const QString request = m_dir.filePath(QStringLiteral("expired.csr"));
    return openssl({QStringLiteral("req"), QStringLiteral("-newkey"), QStringLiteral("ec"),
                    QStringLiteral("-pkeyopt"), QStringLiteral("ec_paramgen_curve:prime256v1"),
                    QStringLiteral("-nodes"), QStringLiteral("-keyout"), expiredKey(), QStringLiteral("-out"),
                    request, QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1")}) &&
           openssl({QStringLiteral("ca"), QStringLiteral("-batch"), QStringLiteral("-config"),
                    config.fileName(), QStringLiteral("-selfsign"), QStringLiteral("-keyfile"), expiredKey(),
                    QStringLiteral("-in"), request, QStringLiteral("-out"), expiredCertificate(),
                    QStringLiteral("-startdate"), QStringLiteral("20200101000000Z"),
                    QStringLiteral("-enddate"), QStringLiteral("20200102000000Z"),
                    QStringLiteral("-notext")});
}

bool TestCertificates::openssl(const QStringList& arguments) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral("openssl"), arguments);
    if (!process.waitForFinished(30000) || process.exitStatus() != QProcess::NormalExit ||
        process.exitCode() != 0) {
        m_error = QStringLiteral("openssl %1 failed: %2")
                      .arg(arguments.join(QLatin1Char(' ')), QString::fromUtf8(process.readAll().trimmed()));
        return false;
    }
    return true;
}

} // namespace jobdeck
