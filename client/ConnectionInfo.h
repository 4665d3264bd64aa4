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
    // Which service and project it names, without the credentials.
    ConnectionInfo service() const { return {baseUrl, projectUid, {}, {}}; }
    // The same service and project: what a request sent through either reaches.
    bool sameServiceAs(const ConnectionInfo& other) const {
        return baseUrl == other.baseUrl && projectUid == other.projectUid;
    }
};

} // namespace jobdeck
