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

std::string pathNotFoundMessage(std::string_view path) {
    return "Not found: " + std::string(path);
}

std::string methodNotAllowedMessage(std::string_view method, std::string_view path) {
    return "Method " + std::string(method) + " is not allowed on " + std::string(path);
}

namespace {

std::string kib(std::size_t bytes) {
    return std::to_string(bytes / 1024) + " KiB";
}

} // namespace

std::string requestLineTooLongMessage(std::size_t limit) {
    return "Request line exceeds " + kib(limit);
}

std::string headerLineTooLongMessage(std::size_t limit) {
    return "Request header line exceeds " + kib(limit);
}

std::string headerTooLargeMessage(std::size_t limit) {
    return "Request header exceeds " + kib(limit);
}

std::string bodyTooLargeMessage(std::size_t limit) {
    return "Request body exceeds " + std::to_string(limit) + " bytes";
}

std::string malformedHttpRequestMessage(std::string_view reason) {
    return "Malformed HTTP request: " + std::string(reason);
}

std::string malformedPercentEncodingMessage() {
    return "Malformed percent-encoding in the request target";
}

std::string credentialsRefusedMessage() {
    return "Missing or invalid credentials";
}

std::string databaseUnreachableMessage() {
    return "Database unavailable: the service cannot reach its database; try again later";
}

std::string internalServerErrorMessage() {
    return "Internal server error";
}

std::string databaseUnavailableMessage(std::string_view reason) {
    return "Database unavailable: " + std::string(reason);
}

std::string repeatedBodyKeyMessage(std::string_view key) {
    return "The request body has the key \"" + std::string(key) + "\" more than once; send each key once";
}

std::string malformedBodyMessage() {
    return "Malformed JSON in the request body";
}

std::string bodyWithoutStatementMessage() {
    return "The request body must be a JSON object with a \"statement\" field";
}

std::string statementNotAStringMessage() {
    return "The \"statement\" field must be a string";
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
           ": clients will refuse it until it is renewed (then systemctl reload jobdeckd, or SIGHUP)";
}

std::string tlsCertificateNotYetValidWarning(const std::string& certificateFile,
                                             const std::string& notBefore) {
    return "the TLS certificate " + quoted(certificateFile) + " is not valid before " + notBefore +
           ": clients will refuse it until then (is the clock right?)";
}

} // namespace jobdeck
