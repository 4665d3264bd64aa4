#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace jobdeck {

// Reasons the HTTP server gives before any statement runs (CONTRACT §1: `grpc-message` and
// {"error": reason}).

// 503: every connection the service allows is taken by requests in progress.
std::string tooManyConnectionsMessage();
// 503: the client's IP address holds --max-connections-per-address connections already.
std::string tooManyConnectionsFromAddressMessage();
// 400: a plain HTTP request reached the port that speaks HTTPS only.
std::string plainHttpToHttpsPortMessage();

// 404: no route has the path.
std::string pathNotFoundMessage(std::string_view path);
// 405: a route has the path, not for the method.
std::string methodNotAllowedMessage(std::string_view method, std::string_view path);
// 431 and 413: a request beyond the server's limits, in bytes.
std::string requestLineTooLongMessage(std::size_t limit);
std::string headerLineTooLongMessage(std::size_t limit);
std::string headerTooLargeMessage(std::size_t limit);
std::string bodyTooLargeMessage(std::size_t limit);
// 400: a request that is not HTTP/1.1 as the parser reads it (`reason`: the parser's).
std::string malformedHttpRequestMessage(std::string_view reason);
std::string malformedPercentEncodingMessage();
// 401: no credentials, or none that name a key (which part was wrong is not said).
std::string credentialsRefusedMessage();
// 503: a request failed because the database cannot be reached now.
std::string databaseUnreachableMessage();
// 500: a request failed in an unexpected way (the service log has the details).
std::string internalServerErrorMessage();
// GET /v1/health's 503: `reason` says why the database cannot be used.
std::string databaseUnavailableMessage(std::string_view reason);

// 400: a POST /v1/resource/ body that does not carry one statement (CONTRACT §1).
std::string repeatedBodyKeyMessage(std::string_view key); // a top-level key sent twice
std::string malformedBodyMessage();                       // not JSON
std::string bodyWithoutStatementMessage();                // not an object with "statement"
std::string statementNotAStringMessage();                 // "statement" is not a string

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
