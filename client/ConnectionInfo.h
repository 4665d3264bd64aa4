#pragma once

#include <QString>
#include <QUrl>

namespace jobdeck {

// Where jobdeckd is and the credentials headers the contract asks for.
struct ConnectionInfo final {
    QUrl baseUrl; // e.g. http://127.0.0.1:8420
    QString projectUid;
    QString apiKey;
    QString apiSecret;
    // https: PEM file of CA certificates trusted besides the system's; empty: the system's only.
    QString caCertificateFile{};

    bool isValid() const { return baseUrl.isValid() && !baseUrl.host().isEmpty(); }
    bool operator==(const ConnectionInfo&) const = default;
};

} // namespace jobdeck
