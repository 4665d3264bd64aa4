#include "client/TlsTrust.h"

#include <QFile>
#include <QStringList>

namespace jobdeck {

QList<QSslCertificate> TlsTrust::caCertificates(const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return {};
    return QSslCertificate::fromData(in.readAll(), QSsl::Pem);
}

QString TlsTrust::caCertificateProblem(const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return QStringLiteral("Cannot read the CA certificate file \"%1\": %2.").arg(file, in.errorString());
    if (QSslCertificate::fromData(in.readAll(), QSsl::Pem).isEmpty())
        return QStringLiteral("The CA certificate file \"%1\" holds no PEM certificate.").arg(file);
    return {};
}

QString TlsTrust::untrustedMessage(const QString& where, const QList<QSslError>& errors) {
    QStringList reasons;
    for (const QSslError& error : errors)
        if (!reasons.contains(error.errorString()))
            reasons.append(error.errorString());
    return QStringLiteral("The certificate of %1 is not trusted (%2). Set the connection profile's CA "
                          "certificate file to the CA that signed it, or add that CA to the system's store.")
        .arg(where,
             reasons.isEmpty() ? QStringLiteral("TLS handshake failed") : reasons.join(QStringLiteral("; ")));
}

} // namespace jobdeck
