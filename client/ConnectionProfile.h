#pragma once

#include <QString>
#include <QUrl>

namespace jobdeck {

// A saved way to reach a jobdeckd: everything but the API secret, which lives in the SecretStore.
struct ConnectionProfile final {
    QString name;
    QUrl url;
    QString projectUid;
    QString apiKey;
    QString caCertificateFile{}; // PEM; trusted for https besides the system's CAs (empty: system only)
    bool operator==(const ConnectionProfile&) const = default;
};

} // namespace jobdeck
