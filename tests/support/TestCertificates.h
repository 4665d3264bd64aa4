#pragma once

#include <QString>
#include <QTemporaryDir>

namespace jobdeck {

// A throw-away CA and a server certificate it signed for 127.0.0.1 and localhost (EC P-256, valid
// two days), made with the `openssl` command into a temporary directory that lives as long as this
// object: no private key is ever committed. isValid() false, with error(), when openssl is missing or
// fails; tests then fail (they must not skip).
class TestCertificates final {
public:
    TestCertificates();

    bool isValid() const { return m_error.isEmpty(); }
    QString error() const { return m_error; }

    QString caCertificate() const { return m_dir.filePath(QStringLiteral("ca.pem")); }
    QString serverCertificate() const { return m_dir.filePath(QStringLiteral("server.pem")); }
    QString serverKey() const { return m_dir.filePath(QStringLiteral("server.key")); }
    // A key of another pair: it does not belong to serverCertificate().
    QString otherKey() const { return m_dir.filePath(QStringLiteral("ca.key")); }
    // A self-signed certificate for 127.0.0.1 valid only on 1 January 2020, and its key.
    QString expiredCertificate() const { return m_dir.filePath(QStringLiteral("expired.pem")); }
    QString expiredKey() const { return m_dir.filePath(QStringLiteral("expired.key")); }
    // A self-signed RSA certificate for 127.0.0.1 (valid two days) and its key: the kind of
    // certificate with which a server could also offer static-RSA key exchange.
    QString rsaCertificate() const { return m_dir.filePath(QStringLiteral("rsa.pem")); }
    QString rsaKey() const { return m_dir.filePath(QStringLiteral("rsa.key")); }
    // A path inside the directory, for files a test writes itself (a file that is not PEM, ...).
    QString filePath(const QString& name) const { return m_dir.filePath(name); }

private:
    bool openssl(const QStringList& arguments);
    // `openssl ca` signs with any dates, in the past too (`x509 -days` only looks ahead).
    bool makeExpired();

    QTemporaryDir m_dir;
    QString m_error;
};

} // namespace jobdeck
