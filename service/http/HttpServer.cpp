#include "service/http/HttpServer.h"

#include "core/text/AsciiText.h"
#include "core/text/Utf8.h"
#include "core/wire/HttpMessages.h"
#include "service/http/HttpRequestParser.h"
#include "service/http/ServerStream.h"
#include "service/stores/DatabaseError.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <stdexcept>

#include <sys/resource.h>

namespace jobdeck {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;
// A connection's socket runs on its IO context's executor as such: no type-erased executor copied
// and destroyed with every read and write (Beast's tcp_stream); the deadlines are HttpServer's own.
using Socket = ServerStream::Socket;

namespace {

std::string_view view(beast::string_view text) {
    return {text.data(), text.size()};
}

// A header value must stay one line whatever the reason says.
std::string oneLine(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text)
        out.push_back((static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c);
    return out;
}

thread_local bool t_ioThread = false;

void logRequest(bool accessLog, std::string_view method, std::string_view path, int status,
                Clock::time_point started, std::string_view projectUid) {
    // --no-access-log: a line per request costs a locked write to stderr on the request path.
    const auto level = accessLog ? spdlog::level::info : spdlog::level::debug;
    if (!spdlog::should_log(level))
        return;
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count();
    // A path can be 16 KiB long; the log keeps its start. The log's formatter escapes what it holds.
    spdlog::log(level, "http method={} path={} status={} duration_ms={:.3f} project={}", method.substr(0, 16),
                path.substr(0, 256), status, static_cast<double>(micros) / 1000.0,
                projectUid.empty() ? "-" : projectUid);
}

} // namespace

std::string_view HttpRequest::header(std::string_view name) const {
    // Beast's range runs in the fields' order from the first of the name to its last.
    const auto [first, last] = headers.equal_range({name.data(), name.size()});
    return first == last ? std::string_view{} : view(std::prev(last)->value());
}

bool HttpRequest::hasHeader(std::string_view name) const {
    return headers.count({name.data(), name.size()}) > 0;
}

HttpResponse HttpResponse::error(int status, std::string_view reason) {
    HttpResponse response;
    response.status = status;
    // One line of UTF-8 whatever the reason quotes (a path, a header): bytes that are not UTF-8 become
    // U+FFFD, the same in the header and the body.
    const std::string line = oneLine(replaceInvalidUtf8(reason));
    response.body =
        nlohmann::json{{"error", line}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    response.headers.emplace_back("grpc-message", line);
    return response;
}

HttpResponse HttpResponse::json(const std::string& body) {
    HttpResponse response;
    response.body = body;
    return response;
}

// One connection. Everything below runs on the thread of the connection's IO context. Its place in
// the server's ConnectionTable (phase, address) changes under the server's lock only.
class HttpServer::Session final : public ConnectionEntry, public std::enable_shared_from_this<Session> {
public:
    using Phase = ConnectionPhase;

    Session(HttpServer& server, Socket socket, std::string address)
        : ConnectionEntry(std::move(address))
        , m_server(server)
        , m_tlsContext(server.tlsContext())
        , m_stream(std::move(socket), m_tlsContext.get()) {}

    ~Session() { m_server.sessionEnded(*this); }

    // Closes the connection to make room for a new one; the server has made it Gone, under its lock.
    void evict() {
        net::post(m_stream.get_executor(), [self = shared_from_this()] { self->close(); });
    }

    void start() {
        net::dispatch(m_stream.get_executor(), [self = shared_from_this()] {
            self->afterFirstByte([self] { self->afterHandshake([self] { self->readHeader(); }); });
        });
    }

    // The admission refused it (it is Gone already).
    void reject(int status, std::string_view reason) {
        net::dispatch(m_stream.get_executor(),
                      [self = shared_from_this(), status, reason = std::string(reason)] {
                          self->afterHandshake([self, status, reason] {
                              self->m_started = Clock::now();
                              self->writeAndClose(HttpResponse::error(status, reason));
                          });
                      });
    }

    // Called by the server's sweep, from its own thread: closes the connection if what it waits for
    // (a request, a body, a write to finish) took longer than allowed.
    void closeIfExpired(Clock::time_point now) {
        if (m_deadline.load(std::memory_order_relaxed) > now.time_since_epoch().count())
            return;
        net::post(m_stream.get_executor(), [self = shared_from_this()] {
            if (self->m_deadline.load(std::memory_order_relaxed) > Clock::now().time_since_epoch().count())
                return; // it moved on meanwhile
            self->m_deadline.store(kNever, std::memory_order_relaxed);
            self->close();
        });
    }

    // Closes the connection now if it waits for a request; one in flight finishes first.
    void shutdown(bool force) {
        net::dispatch(m_stream.get_executor(), [self = shared_from_this(), force] {
            self->m_closeAfterResponse = true;
            if (force || !self->m_busy)
                self->m_stream.close();
        });
    }

private:
    // Under TLS the handshake comes first, within the header timeout; a client that fails it (an
    // untrusted certificate, bytes that are neither TLS nor HTTP) is closed without an answer. Plain
    // HTTP sent to the HTTPS port is read as such and answered 400.
    // A connection that sends nothing gets a much shorter time than one that has started (a TLS
    // handshake or a request header).
    template <class Next> void afterFirstByte(Next next) {
        // Never longer than the header timeout: a connection that has sent nothing is no more welcome
        // than one that has sent part of a header.
        expireAfter(std::min(m_server.m_options.firstByteTimeout, m_server.m_options.headerTimeout));
        m_stream.socket().async_wait(tcp::socket::wait_read, [self = shared_from_this(),
                                                              next = std::move(next)](beast::error_code ec) {
            if (ec) {
                self->close();
                return;
            }
            self->setPhase(Phase::Idle);
            next();
        });
    }

    template <class Next> void afterHandshake(Next next) {
        if (m_stream.isTls() && m_stream.plainHttpArrived())
            m_stream.usePlainTcp(); // its request is read, then answered with plainHttpToHttpsPortMessage()
        if (!m_stream.isTls()) {
            next();
            return;
        }
        expireAfter(m_server.m_options.headerTimeout);
        m_stream.asyncHandshake([self = shared_from_this(), next = std::move(next)](beast::error_code ec) {
            if (ec) {
                spdlog::debug("TLS handshake failed: {}", ec.message());
                self->close();
                return;
            }
            next();
        });
    }

    void readHeader() {
        if (m_server.m_stopping) {
            close();
            return;
        }
        m_busy = false;
        m_parser.emplace();
        HttpRequestParser::applyLimits(*m_parser, m_server.m_options);
        setPhase(Phase::Idle);
        expireAfter(m_firstRequest ? m_server.m_options.headerTimeout : m_server.m_options.idleTimeout);
        http::async_read_header(
            m_stream, m_buffer, *m_parser,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onHeader(ec); });
    }

    void onHeader(beast::error_code ec) {
        m_started = Clock::now();
        m_firstRequest = false;
        m_method.clear();
        m_path.clear();
        if (ec) {
            readFailed(ec);
            return;
        }
        m_busy = true;
        setPhase(Phase::Busy);
        const auto& header = m_parser->get();
        m_method = std::string(view(header.method_string()));
        m_path = std::string(view(header.target()).substr(0, view(header.target()).find('?')));
        if (m_stream.isPlainOnTls()) {
            // As nginx's 497: the client learns why, instead of a connection closed without a word.
            writeAndClose(HttpResponse::error(400, plainHttpToHttpsPortMessage()));
            return;
        }
        if (auto refusal = HttpRequestParser::headerRefusal(header, m_server.m_options)) {
            writeAndClose(std::move(*refusal));
            return;
        }
        if (beast::iequals(header[http::field::expect], "100-continue")) {
            auto cont = std::make_shared<http::response<http::empty_body>>(http::status::continue_, 11);
            http::async_write(m_stream, *cont,
                              [self = shared_from_this(), cont](beast::error_code writeEc, std::size_t) {
                                  if (writeEc)
                                      self->close();
                                  else
                                      self->readBody();
                              });
            return;
        }
        readBody();
    }

    void readBody() {
        // A small body usually arrived with the header: parsed from what is buffered, the request goes
        // on at once, without another read operation and its hand-off through the IO context.
        if (!m_parser->is_done() && m_buffer.size() > 0) {
            beast::error_code ec;
            m_parser->eager(true);
            m_buffer.consume(m_parser->put(m_buffer.data(), ec));
            if (ec && ec != http::error::need_more) {
                readFailed(ec);
                return;
            }
        }
        if (m_parser->is_done()) {
            onBody({});
            return;
        }
        expireAfter(m_server.m_options.bodyTimeout);
        http::async_read(
            m_stream, m_buffer, *m_parser,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->onBody(ec); });
    }

    void readFailed(beast::error_code ec) {
        // A TLS peer that went away or spoke nonsense gets no answer.
        auto refusal = ServerStream::isTlsFailure(ec)
                           ? std::nullopt
                           : HttpRequestParser::readRefusal(ec, m_server.m_options);
        if (refusal)
            writeAndClose(std::move(*refusal));
        else
            close();
    }

    void onBody(beast::error_code ec) {
        if (ec) {
            readFailed(ec);
            return;
        }
        m_deadline.store(kNever, std::memory_order_relaxed);
        auto message = m_parser->release();
        m_keepAlive = message.keep_alive();
        m_method = std::string(view(message.method_string()));
        m_path = std::string(view(message.target()));
        auto parsed = HttpRequestParser::request(std::move(message));
        if (auto* refusal = std::get_if<HttpResponse>(&parsed)) {
            writeResponse(std::move(*refusal));
            return;
        }
        auto request = std::make_shared<HttpRequest>(std::move(std::get<HttpRequest>(parsed)));
        m_path = request->path;
        m_server.dispatch(request, [self = shared_from_this()](HttpResponse response) {
            // At once when answered inline on this connection's thread; queued from other threads.
            net::dispatch(self->m_stream.get_executor(), [self, response = std::move(response)]() mutable {
                self->writeResponse(std::move(response));
            });
        });
    }

    void writeAndClose(HttpResponse response) {
        m_keepAlive = false;
        m_drain = true;
        writeResponse(std::move(response));
    }

    void writeResponse(HttpResponse response) {
        const bool keepAlive = m_keepAlive && !m_closeAfterResponse && !m_server.m_stopping;
        logRequest(m_server.m_options.accessLog, m_method.empty() ? "-" : m_method,
                   m_path.empty() ? "-" : m_path, response.status, m_started, response.projectUid);
        if (m_server.m_answerObserver)
            m_server.m_answerObserver({m_method, response.route, response.status, Clock::now() - m_started});
        // The head in a buffer the connection keeps, then the body, in one write: what Beast's
        // serializer writes for the same response, byte for byte, without its fields and buffers.
        m_out.clear();
        m_out += "HTTP/1.1 ";
        m_out += std::to_string(response.status);
        m_out += ' ';
        m_out += view(http::obsolete_reason(static_cast<http::status>(response.status)));
        appendField("Server", "jobdeckd/" JOBDECK_VERSION);
        appendField("Content-Type", response.contentType);
        for (const auto& [name, value] : response.headers)
            appendField(name, oneLine(value));
        if (!keepAlive)
            appendField("Connection", "close");
        appendField("Content-Length", std::to_string(response.sharedBody.size() + response.body.size()));
        m_out += "\r\n\r\n";
        m_bodyOwner = std::move(response.bodyOwner);
        m_sharedBody = response.sharedBody;
        m_body = std::move(response.body);
        expireAfter(m_server.m_options.bodyTimeout);
        net::async_write(m_stream,
                         std::array{net::const_buffer(net::buffer(m_out)),
                                    net::const_buffer(net::buffer(m_sharedBody)),
                                    net::const_buffer(net::buffer(m_body))},
                         [self = shared_from_this(), keepAlive](beast::error_code ec, std::size_t) {
                             if (ec)
                                 self->close();
                             else if (!keepAlive)
                                 self->finish();
                             else
                                 self->readHeader();
                         });
    }

    void appendField(std::string_view name, std::string_view value) {
        m_out += "\r\n";
        m_out += name;
        m_out += ": ";
        m_out += value;
    }

    // After refusing a request the client may still be sending it; reading (a bounded amount, for a
    // bounded time) before closing lets it see the answer instead of a connection reset.
    void finish() {
        beast::error_code ignored;
        m_stream.shutdown(tcp::socket::shutdown_send, ignored);
        if (!m_drain) {
            close();
            return;
        }
        expireAfter(std::chrono::seconds(2));
        drain();
    }

    void drain() {
        m_stream.async_read_some(net::buffer(m_drainBuffer),
                                 [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                     self->m_drained += n;
                                     if (ec || self->m_drained > std::size_t{8} * 1024 * 1024)
                                         self->close();
                                     else
                                         self->drain();
                                 });
    }

    // The stream's own timeouts would arm a timer (and often a timerfd_settime) per operation; a
    // deadline the server sweeps (HttpServer::sweep) costs a clock read.
    void expireAfter(std::chrono::milliseconds timeout) {
        m_deadline.store((Clock::now() + timeout).time_since_epoch().count(), std::memory_order_relaxed);
    }

    // Not once it is Gone: an evicted connection stays evicted.
    void setPhase(Phase phase) { m_server.sessionPhase(*this, phase); }

    void close() {
        setPhase(Phase::Gone);
        beast::error_code ignored;
        m_stream.shutdown(tcp::socket::shutdown_both, ignored);
        m_stream.close(ignored);
    }

    HttpServer& m_server;
    std::shared_ptr<boost::asio::ssl::context> m_tlsContext; // kept by the stream's TLS session
    ServerStream m_stream;
    beast::flat_buffer m_buffer;
    std::optional<http::request_parser<http::string_body>> m_parser;
    Clock::time_point m_started = Clock::now();
    std::string m_method;
    std::string m_path;
    std::string m_out;                       // the head of the answer being written; its capacity is reused
    std::shared_ptr<const void> m_bodyOwner; // keeps m_sharedBody's text until the write is done
    std::string_view m_sharedBody;           // its body: this, then m_body
    std::string m_body;
    static constexpr Clock::rep kNever = std::numeric_limits<Clock::rep>::max();
    std::atomic<Clock::rep> m_deadline{kNever};
    bool m_firstRequest = true;
    bool m_keepAlive = true;
    bool m_busy = false;
    bool m_closeAfterResponse = false;
    bool m_drain = false;
    std::size_t m_drained = 0;
    std::array<char, std::size_t{16} * 1024> m_drainBuffer{};
};

namespace {

// Each connection is a descriptor: the soft limit (often 1,024) is raised towards the hard one so the
// connection limits, not the descriptors, decide, with room for the database, runs and their logs.
void raiseOpenFileLimit(std::size_t connections) {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return;
    const rlim_t wanted = static_cast<rlim_t>(connections) + 512;
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted)
        spdlog::warn("open file limit {} is below the {} that --max-connections needs; raise LimitNOFILE",
                     limit.rlim_cur, wanted);
}

std::vector<std::unique_ptr<net::io_context>> ioContexts(unsigned count) {
    std::vector<std::unique_ptr<net::io_context>> contexts;
    for (unsigned i = 0; i < std::max(1u, count); ++i)
        contexts.push_back(std::make_unique<net::io_context>(1)); // one thread runs it
    return contexts;
}

} // namespace

HttpServer::HttpServer(HttpServerOptions options, Authenticator authenticator)
    : m_options(std::move(options))
    , m_authenticator(std::move(authenticator))
    , m_connections(
          {m_options.maxConnections, m_options.reservedConnections, m_options.maxConnectionsPerAddress})
    , m_contexts(ioContexts(m_options.ioThreads))
    , m_io(*m_contexts.front())
    , m_acceptor(net::make_strand(m_io))
    , m_sweepTimer(m_acceptor.get_executor())
    , m_workers(std::max(1u, m_options.workerThreads)) {}

HttpServer::~HttpServer() {
    stop(std::chrono::milliseconds(0));
}

void HttpServer::addRoute(std::string method, std::string pathPrefix, PublicRouteHandler handler,
                          RoutePlacement placement) {
    m_routes.push_back(Route{std::move(method), std::move(pathPrefix), std::move(handler), {}, placement});
}

void HttpServer::addAuthenticatedRoute(std::string method, std::string pathPrefix, RouteHandler handler,
                                       RoutePlacement placement) {
    m_routes.push_back(Route{std::move(method), std::move(pathPrefix), {}, std::move(handler), placement});
}

bool HttpServer::onIoThread() {
    return t_ioThread;
}

std::shared_ptr<boost::asio::ssl::context> HttpServer::tlsContext() const {
    const std::lock_guard lock(m_tlsMutex);
    return m_tls;
}

std::optional<std::int64_t> HttpServer::tlsCertificateExpiry() const {
    const auto context = tlsContext();
    return context ? certificateExpiry(*context) : std::nullopt;
}

void HttpServer::reloadTls() {
    if (m_options.tlsCertificateFile.empty()) {
        spdlog::info("no TLS certificate to reload: the service speaks plain HTTP (--tls-cert)");
        return;
    }
    try {
        std::shared_ptr<boost::asio::ssl::context> fresh =
            makeServerTlsContext(m_options.tlsCertificateFile, m_options.tlsKeyFile);
        {
            const std::lock_guard lock(m_tlsMutex);
            m_tls = std::move(fresh);
        }
        spdlog::info("TLS certificate reloaded from {}: new connections get it",
                     m_options.tlsCertificateFile);
    } catch (const std::exception& e) {
        spdlog::warn("TLS certificate not reloaded: {}; new connections still get the previous one",
                     e.what());
    }
}

void HttpServer::listen() {
    if (!m_options.tlsCertificateFile.empty() || !m_options.tlsKeyFile.empty())
        m_tls = makeServerTlsContext(m_options.tlsCertificateFile, m_options.tlsKeyFile);
    raiseOpenFileLimit(m_options.maxConnections + m_options.reservedConnections);
    const std::string where = m_options.address + ":" + std::to_string(m_options.port);
    beast::error_code ec;
    const auto address = net::ip::make_address(m_options.address, ec);
    if (ec)
        throw std::runtime_error("invalid listen address " + quoted(m_options.address) +
                                 ": expected an IP address");
    const tcp::endpoint endpoint(address, m_options.port);
    auto fail = [&](std::string_view what) {
        beast::error_code ignored;
        m_acceptor.close(ignored);
        throw std::runtime_error("cannot listen on " + where + ": " + std::string(what) + ": " +
                                 ec.message());
    };
    if (m_acceptor.open(endpoint.protocol(), ec); ec)
        fail("open");
    if (m_acceptor.set_option(net::socket_base::reuse_address(true), ec); ec)
        fail("set_option");
    if (m_acceptor.bind(endpoint, ec); ec)
        fail("bind");
    if (m_acceptor.listen(net::socket_base::max_listen_connections, ec); ec)
        fail("listen");
}

unsigned short HttpServer::port() const {
    return m_acceptor.local_endpoint().port();
}

void HttpServer::start() {
    for (const auto& context : m_contexts)
        m_work.push_back(net::make_work_guard(*context));
    accept();
    sweep();
    for (const auto& context : m_contexts)
        m_ioThreads.emplace_back([context = context.get()] {
            t_ioThread = true;
            context->run();
        });
}

void HttpServer::accept() {
    net::io_context& context = *m_contexts[m_nextContext++ % m_contexts.size()];
    m_acceptor.async_accept(context, [this](beast::error_code ec, Socket socket) {
        if (ec == net::error::operation_aborted || !m_acceptor.is_open())
            return;
        if (ec) {
            // Out of descriptors, for instance: retry shortly instead of spinning.
            spdlog::warn("accept failed: {}", ec.message());
            auto timer = std::make_shared<net::steady_timer>(m_acceptor.get_executor(),
                                                             std::chrono::milliseconds(100));
            timer->async_wait([this, timer](beast::error_code) {
                if (m_acceptor.is_open())
                    accept();
            });
            return;
        }
        // Each answer is one write; Nagle's algorithm would only hold it back.
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        const auto peer = socket.remote_endpoint(ignored);
        auto session = std::make_shared<Session>(*this, std::move(socket), peer.address().to_string());
        if (const auto refusal = admit(session))
            session->reject(503, *refusal);
        else
            session->start();
        accept();
    });
}

std::optional<std::string> HttpServer::admit(const std::shared_ptr<Session>& session) {
    // Released outside the lock: dropping the last reference to a session takes the lock.
    std::shared_ptr<Session> evicted;
    const std::lock_guard lock(m_sessionsMutex);
    const auto admission = m_connections.admit(*session, [&evicted](ConnectionEntry& entry) {
        // A session whose last reference is gone waits on this lock in its destructor: skip it.
        evicted = static_cast<Session&>(entry).weak_from_this().lock();
        return evicted != nullptr;
    });
    if (evicted) {
        evicted->evict();
        if (const auto now = Clock::now(); now - m_lastEvictionLog >= std::chrono::seconds(10)) {
            m_lastEvictionLog = now;
            spdlog::warn("connection limit reached ({} open, {} waiting for a request): closing the "
                         "oldest idle connections to admit new ones",
                         admission.open, admission.waiting);
        }
    }
    return admission.refusal;
}

void HttpServer::sessionPhase(Session& session, ConnectionPhase phase) {
    const std::lock_guard lock(m_sessionsMutex);
    m_connections.setPhase(session, phase);
}

std::vector<std::shared_ptr<HttpServer::Session>> HttpServer::liveSessions() {
    std::vector<std::shared_ptr<Session>> sessions;
    const std::lock_guard lock(m_sessionsMutex);
    sessions.reserve(m_connections.size());
    m_connections.forEach([&](ConnectionEntry& entry) {
        if (auto session = static_cast<Session&>(entry).weak_from_this().lock())
            sessions.push_back(std::move(session));
    });
    return sessions;
}

void HttpServer::sweep() {
    m_sweepTimer.expires_after(kSweepInterval);
    m_sweepTimer.async_wait([this](beast::error_code ec) {
        if (ec || m_stopping)
            return;
        // Used and released outside the lock (a session's destructor takes it).
        auto sessions = liveSessions();
        const auto now = Clock::now();
        for (const auto& session : sessions)
            session->closeIfExpired(now);
        sessions.clear();
        sweep();
    });
}

void HttpServer::sessionEnded(Session& session) {
    const std::lock_guard lock(m_sessionsMutex);
    m_connections.remove(session);
    m_sessionsDone.notify_all();
}

void HttpServer::stop(std::chrono::milliseconds grace) {
    if (m_stopping.exchange(true))
        return;
    net::post(m_acceptor.get_executor(), [this] {
        beast::error_code ignored;
        m_acceptor.close(ignored);
        m_sweepTimer.cancel();
    });
    auto closeSessions = [this](bool force) {
        // Released outside the lock: dropping the last reference to a session runs its
        // destructor, which takes the lock.
        for (const auto& session : liveSessions())
            session->shutdown(force);
    };
    closeSessions(false);
    {
        std::unique_lock lock(m_sessionsMutex);
        m_sessionsDone.wait_for(lock, grace, [this] { return m_connections.size() == 0; });
    }
    closeSessions(true);
    {
        std::unique_lock lock(m_sessionsMutex);
        m_sessionsDone.wait_for(lock, std::chrono::seconds(2), [this] { return m_connections.size() == 0; });
    }
    m_work.clear();
    for (const auto& context : m_contexts)
        context->stop();
    for (auto& thread : m_ioThreads)
        thread.join();
    m_ioThreads.clear();
    m_workers.join();
}

const HttpServer::Route* HttpServer::findRoute(const std::string& method, const std::string& path,
                                               bool& pathKnown) const {
    return HttpRequestParser::matchRoute(m_routes, method, path, pathKnown);
}

struct HttpServer::Reply {
    Reply(Responder r, std::string_view routePrefix)
        : respond(std::move(r))
        , route(routePrefix) {}
    // The first answer goes out; any later one is dropped.
    void answer(HttpResponse response) {
        if (answered.exchange(true))
            return;
        if (!projectUid.empty())
            response.projectUid = projectUid;
        response.route = route;
        respond(std::move(response));
    }
    Responder respond;
    std::string_view route; // the Route's prefix, which lives as long as the server
    std::atomic<bool> answered{false};
    std::string projectUid; // set before the handler runs, for the request log
};

void HttpServer::dispatch(const std::shared_ptr<HttpRequest>& request, Responder respond) {
    bool pathKnown = false;
    const Route* route = findRoute(request->method, request->path, pathKnown);
    if (!route) {
        respond(HttpRequestParser::routeRefusal(request->method, request->path, pathKnown));
        return;
    }
    // Exactly once, whatever a handler does; an exception becomes a 500 that names no internals.
    auto reply = std::make_shared<Reply>(std::move(respond), route->prefix);
    Responder guarded = [reply](HttpResponse response) { reply->answer(std::move(response)); };
    const bool mayStartInline = route->publicHandler || m_options.authenticationIsLocal;
    if (route->placement == RoutePlacement::IoThread && mayStartInline &&
        request->body.size() <= kInlineBodyLimit) {
        handle(*route, *request, *reply, std::move(guarded));
        return;
    }
    net::post(m_workers, [this, route, request, reply, guarded = std::move(guarded)]() mutable {
        handle(*route, *request, *reply, std::move(guarded));
    });
}

void HttpServer::handle(const Route& route, const HttpRequest& request, Reply& reply, Responder respond) {
    try {
        if (route.publicHandler) {
            route.publicHandler(request, respond);
            return;
        }
        const std::string_view projectUid = request.header("x-onehouse-project-uid");
        const std::string_view apiKey = request.header("x-onehouse-api-key");
        const std::string_view apiSecret = request.header("x-onehouse-api-secret");
        // Bytes a text column cannot hold (not UTF-8, a NUL) name no key: refused as a wrong value is,
        // before a query sees them (PostgreSQL would fail the query).
        std::optional<RequestContext> context;
        if (!projectUid.empty() && !apiKey.empty() && !apiSecret.empty() && isQueryableText(projectUid) &&
            isQueryableText(apiKey) && isQueryableText(apiSecret))
            context = m_authenticator(projectUid, apiKey, apiSecret);
        if (!context) {
            respond(HttpResponse::error(401, credentialsRefusedMessage()));
            return;
        }
        reply.projectUid = context->principal.projectUid;
        route.handler(request, *context, std::move(respond));
    } catch (const std::exception& e) {
        spdlog::error("http handler for {} failed: {}", request.path, e.what());
        // A database that is down or restarting: the client may retry, and the service carries on.
        const auto* database = dynamic_cast<const DatabaseError*>(&e);
        if (database && database->isUnavailable())
            reply.answer(HttpResponse::error(503, databaseUnreachableMessage()));
        else
            reply.answer(HttpResponse::error(500, internalServerErrorMessage()));
    }
}

} // namespace jobdeck
