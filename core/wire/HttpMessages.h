#pragma once

#include <string>

namespace jobdeck {

// Reasons the HTTP server gives before any statement runs (CONTRACT §1: `grpc-message` and
// {"error": reason}).

// 503: every connection the service allows is taken by requests in progress.
std::string tooManyConnectionsMessage();
// 503: the client's IP address holds --max-connections-per-address connections already.
std::string tooManyConnectionsFromAddressMessage();
// 400: a plain HTTP request reached the port that speaks HTTPS only.
std::string plainHttpToHttpsPortMessage();

// Why the TLS set-up fails: jobdeckd exits with it. `what` is "certificate" or "key"; `reason` is the
// system's or OpenSSL's.
std::string tlsFileUnreadableMessage(const std::string& what, const std::string& file,
                                     const std::string& reason);
std::string tlsNoCipherSuitesMessage();
std::string tlsCertificateUnusableMessage(const std::string& certificateFile, const std::string& reason);
std::string tlsKeyUnusableMessage(const std::string& keyFile, const std::string& reason);
std::string tlsKeyMismatchMessage(const std::string& keyFile, const std::string& certificateFile);

// Warnings of the TLS set-up, for the log: the service starts anyway.
std::string tlsKeyReadableByOthersWarning(const std::string& keyFile, unsigned mode);
std::string tlsCertificateExpiredWarning(const std::string& certificateFile, const std::string& notAfter);
std::string tlsCertificateNotYetValidWarning(const std::string& certificateFile,
                                             const std::string& notBefore);

} // namespace jobdeck
