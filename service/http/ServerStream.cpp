#include "service/http/ServerStream.h"

#include <boost/asio/ssl/error.hpp>
#include <openssl/ssl.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace jobdeck {

namespace ssl = boost::asio::ssl;

bool ServerStream::isTlsFailure(const boost::system::error_code& ec) {
    return ec == ssl::error::stream_truncated || ec.category() == boost::asio::error::get_ssl_category();
}

namespace {

// The file can be opened for reading; otherwise why not, as the system says it.
void requireReadable(const std::string& what, const std::string& file) {
    std::ifstream in(file);
    if (!in)
        throw std::runtime_error("cannot read the TLS " + what + " '" + file + "': " + std::strerror(errno));
}

} // namespace

std::unique_ptr<ssl::context> makeServerTlsContext(const std::string& certificateFile,
                                                   const std::string& keyFile) {
    requireReadable("certificate", certificateFile);
    requireReadable("key", keyFile);
    auto context = std::make_unique<ssl::context>(ssl::context::tls_server);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
    // A key with a passphrase fails here instead of OpenSSL asking for it on the terminal.
    context->set_password_callback([](std::size_t, ssl::context::password_purpose) { return std::string(); });
    boost::system::error_code ec;
    context->use_certificate_chain_file(certificateFile, ec);
    if (ec)
        throw std::runtime_error("cannot use the TLS certificate '" + certificateFile + "': " + ec.message() +
                                 " (a PEM certificate chain is expected)");
    context->use_private_key_file(keyFile, ssl::context::pem, ec);
    if (ec)
        throw std::runtime_error("cannot use the TLS key '" + keyFile + "': " + ec.message() +
                                 " (the certificate's PEM private key, without a passphrase, is expected)");
    if (SSL_CTX_check_private_key(context->native_handle()) != 1)
        throw std::runtime_error("the TLS key '" + keyFile + "' does not belong to the certificate '" +
                                 certificateFile + "'");
    return context;
}

} // namespace jobdeck
