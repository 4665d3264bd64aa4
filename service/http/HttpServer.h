#pragma once

#include "service/http/ConnectionTable.h"
#include "service/runs/RequestContext.h"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http/fields.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

namespace boost::asio::ssl {
class context;
}

namespace jobdeck {

// One parsed request as handlers see it; the body is complete and within the limit.
struct HttpRequest final {
    std::string method;
    std::string target;                       // as sent: path plus query
    std::string path;                         // percent-decoded, without the query
    std::map<std::string, std::string> query; // percent-decoded; the last of repeated keys wins
    boost::beast::http::fields headers;       // as received
    std::string body;

    // Case-insensitive; the last of repeated headers; empty when absent. Valid while the request is.
    std::string_view header(std::string_view name) const;
    bool hasHeader(std::string_view name) const;
};

struct HttpResponse final {
    int status = 200;
    std::string contentType = "application/json";
    // The body: `sharedBody`, a view of text shared with others that `bodyOwner` keeps alive (a stored
    // status: SHOW JOBS' is 70 MB), written without being copied, then `body`.
    std::shared_ptr<const void> bodyOwner;
    std::string_view sharedBody;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string projectUid; // for the request log only; the server sets it for authenticated routes
    std::string_view route; // the matched route's path prefix (empty: none), for metrics; the server sets it

    // A non-200 answer of CONTRACT §1: the reason in `grpc-message` and as {"error": reason}.
    static HttpResponse error(int status, std::string_view reason);
    static HttpResponse json(const std::string& body);
};

// Call exactly once, from any thread.
using Responder = std::function<void(HttpResponse)>;
using RouteHandler = std::function<void(const HttpRequest&, const RequestContext&, Responder)>;
using PublicRouteHandler = std::function<void(const HttpRequest&, Responder)>;
using Authenticator = std::function<std::optional<RequestContext>(
    std::string_view projectUid, std::string_view apiKey, std::string_view apiSecret)>;

struct HttpServerOptions final {
    std::string address = "127.0.0.1";
    unsigned short port = 8420;                            // 0: the OS picks a free one
    std::size_t bodyLimit = std::size_t{1024} * 1024;      // 413 beyond, checked before the body is read
    std::size_t headerLineLimit = std::size_t{16} * 1024;  // per request line or header line: 431 beyond
    std::size_t headerTotalLimit = std::size_t{64} * 1024; // all header lines together: 431 beyond
    std::chrono::milliseconds headerTimeout{30'000};       // from the first byte to the end of the header
    std::chrono::milliseconds bodyTimeout{60'000};
    std::chrono::milliseconds idleTimeout{60'000};     // a kept-alive connection waiting for a request
    std::chrono::milliseconds firstByteTimeout{5'000}; // a new connection that has sent nothing yet
    // Open connections. When full, a new one closes the oldest that has sent nothing (else the oldest
    // idle one) and takes its place; only when every connection has a request in progress is it 503.
    std::size_t maxConnections = 1024;
    // Connections waiting for a request (nothing sent, idle, header in progress) may hold at most
    // maxConnections - reservedConnections: the rest is kept for requests in progress (health checks,
    // authenticated long polls), and a new connection beyond it closes the oldest waiting one.
    std::size_t reservedConnections = 64;
    std::size_t maxConnectionsPerAddress = 128; // per client IP address, beyond it 503; 0: no limit
    unsigned ioThreads = 2;
    unsigned workerThreads = 4;
    // Whether authentication answers without waiting on a database server (SQLite: a read of this
    // host's files). When false, authenticated routes never start on an IO thread, whatever their
    // placement: a stalled server would hold the IO thread and every connection it serves.
    bool authenticationIsLocal = true;
    bool accessLog = true; // one info line per request; otherwise at debug level
    // PEM files: both set, the listener speaks HTTPS only (TLS 1.2 or later); both empty, plain HTTP.
    std::string tlsCertificateFile;
    std::string tlsKeyFile;
};

// One answer as it leaves, for metrics: bounded values only (the route's pattern, not the path).
struct AnsweredRequest final {
    std::string_view method; // as the client sent it
    std::string_view route;  // the matched route's path prefix; empty when no route matched
    int status = 0;
    std::chrono::steady_clock::duration duration{};
};

// Where a route's handler starts. IoThread saves the two thread hand-offs of a worker for quick
// reads: authentication (one hash, one small read) and the handler run on the IO thread that read
// the request, and the handler must pass anything slow, durable or unbounded to workers().
enum class RoutePlacement { Worker, IoThread };

// HTTP/1.1 server on Boost.Beast: async IO with per-connection deadlines, so slow or idle clients
// never hold a thread; handlers (and authentication, which touches the database) run on a
// worker pool, never on the IO threads, unless a route asks for RoutePlacement::IoThread.
class HttpServer final {
public:
    HttpServer(HttpServerOptions options, Authenticator authenticator);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Routes match the method and a path prefix; the longest prefix wins. Register before start().
    // A handler that never blocks may ask for RoutePlacement::IoThread (GET /v1/health); an authenticated
    // one starts there only when HttpServerOptions::authenticationIsLocal.
    void addRoute(std::string method, std::string pathPrefix, PublicRouteHandler handler,
                  RoutePlacement placement = RoutePlacement::Worker);
    // Credentials (x-onehouse-project-uid/-api-key/-api-secret) are checked before the handler
    // runs; without valid ones the answer is 401 with no detail of which part was wrong.
    // Requests with a body over kInlineBodyLimit start on a worker whatever the placement.
    void addAuthenticatedRoute(std::string method, std::string pathPrefix, RouteHandler handler,
                               RoutePlacement placement = RoutePlacement::Worker);
    static constexpr std::size_t kInlineBodyLimit = std::size_t{16} * 1024;
    // True on the IO threads, where a handler must not block.
    static bool onIoThread();
    // Told of every answer as it is written, on the IO thread (keep it quick). Set before start().
    void setAnswerObserver(std::function<void(const AnsweredRequest&)> observer) {
        m_answerObserver = std::move(observer);
    }

    // Binds and listens; throws std::runtime_error with one clear line (address in use, TLS files
    // unreadable or not PEM, ...).
    void listen();
    unsigned short port() const;

    // Starts accepting on the IO threads.
    void start();
    // Stops accepting, closes idle connections, waits up to `grace` for requests in flight, then
    // closes everything and joins the IO threads and the workers.
    void stop(std::chrono::milliseconds grace);
    // Reads --tls-cert and --tls-key again (a renewed certificate; SIGHUP): new connections get the new
    // pair, open ones keep theirs. Files that do not make a valid pair are logged and the previous pair
    // stays. Logs that there is nothing to reload on plain HTTP.
    void reloadTls();
    // When the certificate new connections get expires (seconds since the Unix epoch); nullopt on
    // plain HTTP.
    std::optional<std::int64_t> tlsCertificateExpiry() const;

    boost::asio::thread_pool& workers() { return m_workers; }
    unsigned workerThreads() const { return std::max(1U, m_options.workerThreads); }
    // For timers of long polls and waits that must not hold a worker.
    boost::asio::io_context& ioContext() { return m_io; }

private:
    class Session;
    std::shared_ptr<boost::asio::ssl::context> tlsContext() const;
    struct Route {
        std::string method;
        std::string prefix;
        PublicRouteHandler publicHandler;
        RouteHandler handler;
        RoutePlacement placement = RoutePlacement::Worker;
    };

    void accept();
    void dispatch(const std::shared_ptr<HttpRequest>& request, Responder respond);
    // One request's answer: the connection's responder, called once, and the project it is logged
    // under once the caller is known.
    struct Reply;
    void handle(const Route& route, const HttpRequest& request, Reply& reply, Responder respond);
    const Route* findRoute(const std::string& method, const std::string& path, bool& pathKnown) const;
    // Counts the new connection and decides whether it may stay: the reason to refuse it (503), or
    // nullopt, after closing an idle one for it when the limits are reached.
    std::optional<std::string> admit(const std::shared_ptr<Session>& session);
    void sessionPhase(Session& session, ConnectionPhase phase);
    void sessionEnded(Session& session);
    // The sessions still referenced, for the sweep and stop(); release them outside the lock.
    std::vector<std::shared_ptr<Session>> liveSessions();
    // Every kSweepInterval: closes the connections whose current wait ran past its timeout.
    void sweep();
    static constexpr std::chrono::milliseconds kSweepInterval{100};

    HttpServerOptions m_options;
    Authenticator m_authenticator;
    std::vector<Route> m_routes;
    std::function<void(const AnsweredRequest&)> m_answerObserver;
    // null: plain HTTP. Replaced whole by reloadTls(); a session keeps the one it started with.
    std::shared_ptr<boost::asio::ssl::context> m_tls;
    mutable std::mutex m_tlsMutex;
    // Declared before the IO context and the workers: sessions they still hold at destruction
    // unregister themselves here.
    std::mutex m_sessionsMutex;
    std::condition_variable m_sessionsDone;
    ConnectionTable m_connections; // every session alive, by phase; admission reads its counters
    std::chrono::steady_clock::time_point m_lastEvictionLog;
    std::atomic<bool> m_stopping{false};
    // One IO context per IO thread, each run by its thread alone: a connection lives on one of them
    // (round robin), so its handlers need no strand and IO threads never wake or lock each other.
    // The first also runs the acceptor and the timers of ioContext().
    std::vector<std::unique_ptr<boost::asio::io_context>> m_contexts;
    boost::asio::io_context& m_io;
    std::size_t m_nextContext = 0; // on the acceptor's strand
    // Keep the IO threads running once the acceptor is closed, while answers computed on the workers
    // still have to be written.
    std::vector<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> m_work;
    boost::asio::ip::tcp::acceptor m_acceptor;
    boost::asio::steady_timer m_sweepTimer; // on the acceptor's strand
    boost::asio::thread_pool m_workers;
    std::vector<std::thread> m_ioThreads;
};

} // namespace jobdeck
