#include "service/http/ServerStream.h"

#include "core/wire/HttpMessages.h"

#include <boost/asio/ssl/error.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include <sys/socket.h>
#include <sys/stat.h>

namespace jobdeck {

namespace ssl = boost::asio::ssl;

bool ServerStream::isTlsFailure(const boost::system::error_code& ec) {
    return ec == ssl::error::stream_truncated || ec.category() == boost::asio::error::get_ssl_category();
}

bool ServerStream::plainHttpArrived() {
    unsigned char first = 0;
    const auto received = ::recv(socket().native_handle(), &first, 1, MSG_PEEK | MSG_DONTWAIT);
    return received == 1 && first >= 'A' && first <= 'Z'; // a TLS handshake record starts with 0x16
}

namespace {

// Mozilla's "intermediate" server configuration (version 5.7): for TLS 1.2, ECDHE or DHE key exchange
// and AEAD ciphers only (no static RSA, no CBC, no SHA-1); TLS 1.3's suites are all of that kind.
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:"
    "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:DHE-RSA-CHACHA20-POLY1305";
constexpr const char* kTls13Suites =
    "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256";

// "2020-01-02 00:00:00 UTC"
std::string utcText(const ASN1_TIME* time) {
    std::tm parts{};
    if (!time || ASN1_TIME_to_tm(time, &parts) != 1)
        return "an unreadable date";
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &parts);
    return text;
}

// Files that work but deserve the admin's attention: a warning each, and the service starts.
void warnAboutTlsFiles(const std::string& certificateFile, const std::string& keyFile, SSL_CTX* context) {
    struct stat key {};
    if (::stat(keyFile.c_str(), &key) == 0 && (key.st_mode & 077) != 0)
        spdlog::warn("{}", tlsKeyReadableByOthersWarning(keyFile, key.st_mode & 0777));
    const X509* certificate = SSL_CTX_get0_certificate(context);
    if (!certificate)
        return;
    if (const ASN1_TIME* notAfter = X509_get0_notAfter(certificate); X509_cmp_current_time(notAfter) < 0)
        spdlog::warn("{}", tlsCertificateExpiredWarning(certificateFile, utcText(notAfter)));
    if (const ASN1_TIME* notBefore = X509_get0_notBefore(certificate); X509_cmp_current_time(notBefore) > 0)
        spdlog::warn("{}", tlsCertificateNotYetValidWarning(certificateFile, utcText(notBefore)));
}

// The file can be opened for reading; otherwise why not, as the system says it.
void requireReadable(const std::string& what, const std::string& file) {
    std::ifstream in(file);
    if (!in)
        throw std::runtime_error(tlsFileUnreadableMessage(what, file, std::strerror(errno)));
}

} // namespace

std::unique_ptr<ssl::context> makeServerTlsContext(const std::string& certificateFile,
                                                   const std::string& keyFile) {
    requireReadable("certificate", certificateFile);
    requireReadable("key", keyFile);
    auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    SSL_CTX* native = context->native_handle();
    SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION);
    if (SSL_CTX_set_cipher_list(native, kTls12Ciphers) != 1 ||
        SSL_CTX_set_ciphersuites(native, kTls13Suites) != 1)
        throw std::runtime_error(tlsNoCipherSuitesMessage());
    SSL_CTX_set_dh_auto(native, 1); // DHE's group chosen by OpenSSL from the certificate's key size
    // A key with a passphrase fails here instead of OpenSSL asking for it on the terminal.
    context->set_password_callback([](std::size_t, ssl::context::password_purpose) { return std::string(); });
    boost::system::error_code ec;
    context->use_certificate_chain_file(certificateFile, ec);
    if (ec)
        throw std::runtime_error(tlsCertificateUnusableMessage(certificateFile, ec.message()));
    context->use_private_key_file(keyFile, ssl::context::pem, ec);
    if (ec)
        throw std::runtime_error(tlsKeyUnusableMessage(keyFile, ec.message()));
    if (SSL_CTX_check_private_key(context->native_handle()) != 1)
        throw std::runtime_error(tlsKeyMismatchMessage(keyFile, certificateFile));
    warnAboutTlsFiles(certificateFile, keyFile, native);
    return context;
}

std::optional<std::int64_t> certificateExpiry(ssl::context& context) {
    const X509* certificate = SSL_CTX_get0_certificate(context.native_handle());
    std::tm parts{};
    if (!certificate || ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &parts) != 1)
        return std::nullopt;
    return static_cast<std::int64_t>(::timegm(&parts));
}

} // namespace jobdeck
