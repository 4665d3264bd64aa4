#include "core/wire/HttpMessages.h"

#include "core/text/AsciiText.h"

#include <cstdio>

namespace jobdeck {

std::string tooManyConnectionsMessage() {
    return "Too many connections";
}

std::string tooManyConnectionsFromAddressMessage() {
    return "Too many connections from this address";
}

std::string plainHttpToHttpsPortMessage() {
    return "The plain HTTP request was sent to HTTPS port: this port speaks HTTPS only; use https://";
}

std::string tlsFileUnreadableMessage(const std::string& what, const std::string& file,
                                     const std::string& reason) {
    return "cannot read the TLS " + what + " " + quoted(file) + ": " + reason;
}

std::string tlsNoCipherSuitesMessage() {
    return "this OpenSSL offers none of the TLS cipher suites jobdeckd uses";
}

std::string tlsCertificateUnusableMessage(const std::string& certificateFile, const std::string& reason) {
    return "cannot use the TLS certificate " + quoted(certificateFile) + ": " + reason +
           " (a PEM certificate chain is expected)";
}

std::string tlsKeyUnusableMessage(const std::string& keyFile, const std::string& reason) {
    return "cannot use the TLS key " + quoted(keyFile) + ": " + reason +
           " (the certificate's PEM private key, without a passphrase, is expected)";
}

std::string tlsKeyMismatchMessage(const std::string& keyFile, const std::string& certificateFile) {
    return "the TLS key " + quoted(keyFile) + " does not belong to the certificate " +
           quoted(certificateFile);
}

std::string tlsKeyReadableByOthersWarning(const std::string& keyFile, unsigned mode) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", mode & 07777u);
    return "the TLS key " + quoted(keyFile) + " can be read by other users (mode " + octal +
           "): make it readable by the service's user only (chmod 600)";
}

std::string tlsCertificateExpiredWarning(const std::string& certificateFile, const std::string& notAfter) {
    return "the TLS certificate " + quoted(certificateFile) + " expired on " + notAfter +
           ": clients will refuse it until it is renewed (and the service restarted)";
}

std::string tlsCertificateNotYetValidWarning(const std::string& certificateFile,
                                             const std::string& notBefore) {
    return "the TLS certificate " + quoted(certificateFile) + " is not valid before " + notBefore +
           ": clients will refuse it until then (is the clock right?)";
}

} // namespace jobdeck
