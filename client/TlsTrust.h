#pragma once

#include <QList>
#include <QSslCertificate>
#include <QSslError>
#include <QString>

namespace jobdeck {

// What the console trusts on https: the system's CA store, plus the certificates of a connection's
// "CA certificate file" (PEM) when it has one.
class TlsTrust final {
public:
    // Empty when `file` holds at least one PEM certificate; otherwise one sentence saying why not.
    static QString caCertificateProblem(const QString& file);
    // The PEM certificates in `file`; empty when there are none or it cannot be read.
    static QList<QSslCertificate> caCertificates(const QString& file);
    // The message shown when the service's certificate is not trusted; `where` is host:port.
    static QString untrustedMessage(const QString& where, const QList<QSslError>& errors);
};

} // namespace jobdeck
