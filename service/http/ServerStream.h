#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/system/error_code.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace jobdeck {

// One accepted connection's bytes: the TCP socket itself, or TLS over it (`serve --tls-cert`). Beast
// reads and writes through it whichever it is, so HttpServer's session is one piece of code for both.
// Not final: asio tells executors from other types by deriving from them.
class ServerStream {
public:
    // The socket runs on its IO context's executor as such (no type-erased executor per operation).
    using Socket =
        boost::asio::ip::tcp::socket::rebind_executor<boost::asio::io_context::executor_type>::other;
    using executor_type = Socket::executor_type;

    // `tls` null: plain TCP. The context must outlive the stream.
    ServerStream(Socket socket, boost::asio::ssl::context* tls) {
        if (tls)
            m_tls.emplace(std::move(socket), *tls);
        else
            m_plain.emplace(std::move(socket));
    }

    executor_type get_executor() { return socket().get_executor(); }
    bool isTls() const { return m_tls.has_value() && !m_plainOnTls; }
    Socket& socket() { return m_tls ? m_tls->next_layer() : *m_plain; }

    // Under TLS, before the handshake: true when the client's first byte is not a TLS record but starts
    // an HTTP request line (a method's upper-case letter). Peeks without taking the byte or waiting.
    bool plainHttpArrived();
    // From now on the bytes go over TCP as they are: to read a plain HTTP request sent to the TLS port
    // and tell its client to use https.
    void usePlainTcp() { m_plainOnTls = true; }
    bool isPlainOnTls() const { return m_plainOnTls; }

    // The TLS handshake; only when isTls().
    template <class Handler> void asyncHandshake(Handler&& handler) {
        m_tls->async_handshake(boost::asio::ssl::stream_base::server, std::forward<Handler>(handler));
    }

    template <class Buffers, class Handler> void async_read_some(const Buffers& buffers, Handler&& handler) {
        if (isTls())
            m_tls->async_read_some(buffers, std::forward<Handler>(handler));
        else
            socket().async_read_some(buffers, std::forward<Handler>(handler));
    }

    template <class Buffers, class Handler> void async_write_some(const Buffers& buffers, Handler&& handler) {
        if (isTls())
            m_tls->async_write_some(buffers, std::forward<Handler>(handler));
        else
            socket().async_write_some(buffers, std::forward<Handler>(handler));
    }

    // TCP level, also under TLS: an answer is framed by its Content-Length, so no close_notify
    // exchange (which would wait for the client) is needed before closing.
    void shutdown(boost::asio::socket_base::shutdown_type what, boost::system::error_code& ec) {
        socket().shutdown(what, ec);
    }
    void close(boost::system::error_code& ec) { socket().close(ec); }
    void close() {
        boost::system::error_code ignored;
        socket().close(ignored);
    }

    // A read error that only says the TLS peer went away or spoke nonsense: close, answer nothing.
    static bool isTlsFailure(const boost::system::error_code& ec);

private:
    std::optional<Socket> m_plain;
    std::optional<boost::asio::ssl::stream<Socket>> m_tls;
    bool m_plainOnTls = false;
};

// A server-side TLS context with the PEM certificate chain and private key, offering Mozilla's
// "intermediate" profile: TLS 1.3, and TLS 1.2 with ECDHE or DHE key exchange and AEAD ciphers only.
// Throws std::runtime_error with one clear line when a file cannot be read, is not PEM, is protected
// by a passphrase, or the key does not belong to the certificate; logs a warning when the key can be
// read by other users or the certificate has expired (or is not valid yet).
std::unique_ptr<boost::asio::ssl::context> makeServerTlsContext(const std::string& certificateFile,
                                                                const std::string& keyFile);

// When the context's certificate expires, in seconds since the Unix epoch; nullopt when it has none or
// its date cannot be read.
std::optional<std::int64_t> certificateExpiry(boost::asio::ssl::context& context);

} // namespace jobdeck
