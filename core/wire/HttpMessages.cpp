#include "core/wire/HttpMessages.h"

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

std::string tlsKeyReadableByOthersWarning(const std::string& keyFile, unsigned mode) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", mode & 07777u);
    return "the TLS key '" + keyFile + "' can be read by other users (mode " + octal +
           "): make it readable by the service's user only (chmod 600)";
}

std::string tlsCertificateExpiredWarning(const std::string& certificateFile, const std::string& notAfter) {
    return "the TLS certificate '" + certificateFile + "' expired on " + notAfter +
           ": clients will refuse it until it is renewed (and the service restarted)";
}

std::string tlsCertificateNotYetValidWarning(const std::string& certificateFile,
                                             const std::string& notBefore) {
    return "the TLS certificate '" + certificateFile + "' is not valid before " + notBefore +
           ": clients will refuse it until then (is the clock right?)";
}

} // namespace jobdeck
