#include "service/ServiceApp.h"

#include "core/deploy/DatabaseUrl.h"
#include "core/text/AsciiText.h"
#include "core/wire/HttpMessages.h"
#include "service/LogTarget.h"
#include "service/SystemdNotifier.h"
#include "service/http/EventRoutes.h"
#include "service/http/HealthRoute.h"
#include "service/http/HttpServer.h"
#include "service/http/HttpStatementRoutes.h"
#include "service/http/LogRoutes.h"
#include "service/http/ServerStream.h"
#include "service/runs/DriverEnvironment.h"
#include "service/runs/EventBus.h"
#include "service/runs/ReplicaIdentity.h"
#include "service/runs/RunManager.h"
#include "service/runs/ServiceMetrics.h"
#include "service/statements/RequestRegistry.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/DataDirLock.h"
#include "service/stores/DatabaseMarker.h"
#include "service/stores/DatabaseTimeouts.h"
#include "service/stores/OpenStores.h"
#include "service/stores/RetentionSweeper.h"
#include "service/stores/StatementTimer.h"
#include "service/stores/Stores.h"
#include "service/stores/WalIndexFaults.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/signal_set.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <pwd.h>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace jobdeck {

namespace {

// "<ip>:<port>" or "[<ipv6>]:<port>".
ListenAddress parseListen(const std::string& listen) {
    const auto bad = [&] {
        return std::runtime_error("invalid listen address " + quoted(listen) +
                                  ": expected <ip>:<port>, e.g. 127.0.0.1:8420");
    };
    const std::size_t colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == listen.size())
        throw bad();
    std::string host = listen.substr(0, colon);
    if (host.front() == '[') {
        if (host.back() != ']')
            throw bad();
        host = host.substr(1, host.size() - 2);
    }
    boost::system::error_code notAnAddress;
    boost::asio::ip::make_address(host, notAnAddress);
    if (notAnAddress) // a host name: which of its addresses would be served is not the admin's choice
        throw bad();
    const std::string_view port = std::string_view(listen).substr(colon + 1);
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc{} || ptr != port.data() + port.size() || value > 65535)
        throw bad();
    return {host, static_cast<unsigned short>(value)};
}

// GET /metrics: no credentials, no names (GET /v1/health is HealthRoute's).
void registerOperationalRoutes(HttpServer& server, RunManager& runs, const ServiceMetrics& metrics) {
    server.addRoute(
        "GET", "/metrics", [&server, &runs, &metrics](const HttpRequest& request, const Responder& respond) {
            if (request.path != "/metrics") {
                respond(HttpResponse::error(404, pathNotFoundMessage(request.path)));
                return;
            }
            ServiceMetrics::Snapshot snapshot;
            snapshot.tlsCertificateExpiry = server.tlsCertificateExpiry();
            try {
                snapshot.runsByState = runs.countRunsByStatus();
            } catch (const std::exception& e) {
                spdlog::error("metrics: cannot count the runs: {}", e.what()); // the other figures still help
            }
            HttpResponse response;
            response.contentType = "text/plain; version=0.0.4; charset=utf-8";
            response.body = metrics.render(snapshot);
            respond(std::move(response));
        });
}

// What the run manager is told of the options.
RunOptions runOptionsOf(const ServeOptions& options) {
    RunOptions runs;
    runs.dataDir = options.dataDir;
    runs.s3Map = options.s3Map;
    runs.runner = options.runner;
    runs.sparkSubmit = options.sparkSubmit;
    runs.deployMode = options.deployMode;
    runs.sparkMaster = options.sparkMaster;
    runs.cancelGrace = options.cancelGrace;
    runs.retentionDays = options.retentionDays;
    runs.maxLogBytes = options.maxLogBytes;
    runs.clusterStatusInterval = options.clusterStatusInterval;
    runs.shutdownGrace = options.shutdownGrace;
    runs.leaseTimeout = options.leaseTimeout;
    runs.orphanedRunTimeout = options.orphanedRunTimeout;
    return runs;
}

// The HTTP server's options: the transport options given, on the address to listen on.
HttpServerOptions httpServerOptions(const ServeOptions& options, const ListenAddress& where) {
    HttpServerOptions http;
    http.address = where.host;
    http.port = where.port;
    http.headerTimeout = options.headerTimeout;
    http.bodyTimeout = options.readTimeout;
    http.idleTimeout = options.idleTimeout;
    http.firstByteTimeout = options.firstByteTimeout;
    http.maxConnections = options.maxConnections;
    http.reservedConnections = options.reservedConnections;
    http.maxConnectionsPerAddress = options.maxConnectionsPerAddress;
    http.workerThreads = options.workerThreads;
    http.accessLog = options.accessLog;
    http.tlsCertificateFile = options.tlsCertificate;
    http.tlsKeyFile = options.tlsKey;
    // One IO thread per core but one, which is left to the workers and the group commit: on 2 cores
    // one IO thread costs less CPU per request than two contending with them, and is as fast at 1, 16
    // and 64 connections (docs/service.md, figures).
    const unsigned cores = std::thread::hardware_concurrency();
    http.ioThreads = cores > 2 ? cores - 1 : 1;
    return http;
}

// A request's credentials checked against the API keys of the stores: its context, or nullopt.
Authenticator authenticator(Stores& stores) {
    return [&stores](std::string_view projectUid, std::string_view key, std::string_view secret) {
        RequestContext context;
        auto principal = stores.keys().authenticate(projectUid, key, secret, &context.changeStamp);
        if (!principal)
            return std::optional<RequestContext>();
        context.principal = std::move(*principal);
        return std::optional<RequestContext>(std::move(context));
    };
}

// What serve() is given: the database is open and the server listens.
struct Opened {
    Stores& stores;
    HttpServer& server;
    ServiceMetrics& metrics;
    const ReplicaIdentity& replica;
    const SystemdNotifier& systemd;
};

// The listening address, the log line and systemd's READY once the service answers.
void announceServing(const ServeOptions& options, const HttpServer& server, const SystemdNotifier& systemd) {
    // Logged before the address is printed: a client that waits for the address finds this line
    // first in the log, ahead of its own requests.
    spdlog::info("jobdeckd {} serving {} on port {} with data directory {}", JOBDECK_VERSION,
                 options.tlsCertificate.empty() ? "HTTP" : "HTTPS", server.port(), options.dataDir);
    std::cout << "listening on " << options.listen.substr(0, options.listen.rfind(':')) << ':'
              << server.port() << std::endl;
    // The database is open and migrated and the listener answers: systemd may start what needs us.
    systemd.notify("READY=1\nSTATUS=serving on port " + std::to_string(server.port()));
}

// Audit entries and statuses of the last reads are on disk before the process ends.
void flushLastWrites(RequestRegistry& registry, Stores& stores) {
    registry.storeRemembered();
    try {
        stores.flushDeferred();
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("stopped, but the last audit entries and request statuses could "
                                             "not be written: ") +
                                 e.what());
    }
}

// SIGTERM and SIGINT stop the service; SIGHUP (a renewed TLS certificate, `systemctl reload`, a closed
// terminal) reloads the certificate and serves on. Waited for on the serving thread (the server has its
// own IO threads). Held until the service has stopped, so that a second SIGTERM or Ctrl+C while it stops
// is absorbed rather than the end of it.
class ServiceSignals final {
public:
    ServiceSignals()
        : m_signals(m_io, SIGTERM, SIGINT, SIGHUP) {}

    // The stopping signal, once it came.
    int waitForStop(HttpServer& server) {
        arm(server);
        m_io.run();
        return m_received;
    }

private:
    void arm(HttpServer& server) {
        m_signals.async_wait([this, &server](const boost::system::error_code& error, int signal) {
            if (!error && signal == SIGHUP) {
                spdlog::info("signal {} received: reloading the TLS certificate", signal);
                server.reloadTls();
                arm(server);
                return;
            }
            m_received = signal;
        });
    }

    boost::asio::io_context m_io;
    boost::asio::signal_set m_signals;
    int m_received = 0;
};

// Wires the statements, the runs and the routes to the opened stores and server, serves until SIGTERM
// or SIGINT, then shuts down gracefully.
void serve(const ServeOptions& options, const Opened& opened) {
    Stores& stores = opened.stores;
    HttpServer& server = opened.server;
    ServiceMetrics& metrics = opened.metrics;
    EventBus events(stores.events());
    StatementExecutor executor(stores, events);
    RequestRegistry registry(stores.statuses(), server.ioContext(), options.statusRetention);
    const RetentionSweeper sweeper(
        stores.statuses(), stores.audit(),
        {options.statusRetention, options.auditRetention, options.retentionSweepInterval});
    HttpStatementRoutes statements(executor, registry, server, options.statusHold);
    statements.registerRoutes();
    RunManager runs(stores, events, runOptionsOf(options), opened.replica);
    executor.setRunStatementHandler(&runs);
    const auto otherReplicas = stores.watchOtherReplicas(
        {[&events](const std::string& projectUid) { events.changedElsewhere(projectUid); },
         [&runs] { runs.admittedElsewhere(); }});
    EventRoutes eventRoutes(events);
    eventRoutes.registerRoutes(server);
    LogRoutes logRoutes(runs, stores);
    logRoutes.registerRoutes(server);
    HealthRoute health(server, stores);
    health.registerRoute();
    registerOperationalRoutes(server, runs, metrics);
    executor.setMetrics(&metrics);
    runs.setMetrics(&metrics);
    server.setAnswerObserver([&metrics](const AnsweredRequest& answer) {
        metrics.countRequest(answer.method, answer.route, answer.status, answer.duration);
    });

    ServiceSignals signals; // before anything starts: a SIGTERM from then on stops the service
    runs.start();
    server.start();
    announceServing(options, server, opened.systemd);
    const int received = signals.waitForStop(server);
    spdlog::info("signal {} received: shutting down", received);
    opened.systemd.notify("STOPPING=1");
    // Long polls are answered first so that their connections are not what the grace period waits for.
    events.stop();
    server.stop(options.shutdownGrace);
    statements.stop(); // statements still running (RUN JOB's admissions among them) end first
    runs.stop();
    flushLastWrites(registry, stores);
}

} // namespace

std::string defaultDataDir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return (std::filesystem::path(xdg) / "jobdeck").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (std::filesystem::path(home) / ".local/share/jobdeck").string();
    throw std::runtime_error("no data directory: set --data-dir, XDG_DATA_HOME or HOME");
}

bool checkDataDir(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::exists(dir, ec))
        return false;
    if (!fs::is_directory(dir, ec))
        throw std::runtime_error("data directory " + quoted(dir) + " is not a directory");
    if (::access(dir.c_str(), R_OK | W_OK | X_OK) != 0)
        throw std::runtime_error("data directory " + quoted(dir) +
                                 " is not readable and writable: " + std::strerror(errno));
    return true;
}

void prepareDataDir(const std::string& dir) {
    namespace fs = std::filesystem;
    if (checkDataDir(dir))
        return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw std::runtime_error("cannot create data directory " + quoted(dir) + ": " + ec.message());
    // Job parameters and Hudi configurations may hold passwords: only the service's user gets in.
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    if (ec)
        throw std::runtime_error("cannot make data directory " + quoted(dir) + " private: " + ec.message());
    checkDataDir(dir);
}

void refuseEmptyDatabase(const std::string& dataDir, const std::string& databaseUrl) {
    namespace fs = std::filesystem;
    std::string path = databaseUrl;
    if (path.starts_with("sqlite:"))
        path = path.substr(std::strlen("sqlite:"));
    else if (path.find("://") != std::string::npos)
        return; // not a file
    std::error_code ec;
    if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) != 0 || ec)
        return;
    // In WAL mode a new database may be all in its -wal file until the first checkpoint.
    if (const auto wal = fs::file_size(path + "-wal", ec); !ec && wal > 0)
        return;
    const fs::path runs = fs::path(dataDir) / "runs";
    const bool hasRuns = fs::is_directory(runs, ec) && !fs::is_empty(runs, ec);
    const bool servedBefore = fs::exists(fs::path(dataDir) / "jobdeckd.lock", ec);
    if (!hasRuns && !servedBefore)
        return;
    throw std::runtime_error(
        "the database " + path + " is empty (0 bytes) but the data directory " + quoted(dataDir) +
        " held a previous database (" + (hasRuns ? "run directories" : "a lock file of jobdeckd") +
        "); restore the database from a backup, or move the data directory aside to start "
        "afresh (nothing was changed)");
}

void refuseMissingSqliteDatabase(const std::string& databaseUrl) {
    if (isPostgres(databaseKind(databaseUrl)))
        return;
    const std::string path = DatabaseMarker::sqlitePath(databaseUrl);
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec))
        throw std::runtime_error("there is no database " + (path.empty() ? databaseUrl : path) +
                                 ": give the --data-dir (or --database) that jobdeckd serve uses");
}

std::string userName(uid_t uid) {
    const passwd* user = ::getpwuid(uid);
    return user ? user->pw_name : std::to_string(uid);
}

namespace {

// The name of the user `path` belongs to when that is not this process's user; nullopt when it is ours,
// does not exist, or is a directory shared as /tmp is (sticky).
std::optional<std::string> otherOwnerOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || st.st_uid == ::geteuid() ||
        (S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX)))
        return std::nullopt;
    return userName(st.st_uid);
}

// As PostgreSQL refuses a data directory of another user's: what a service started as root makes there
// (run directories, the database's -wal and -shm) would lock the real service out of it later.
void refuseOtherUsersDataDir(const std::string& dir) {
    if (const auto owner = otherOwnerOf(dir))
        throw std::runtime_error("data directory " + quoted(dir) + " belongs to user " + *owner +
                                 ": run jobdeckd serve as that user (sudo -u " + *owner +
                                 " jobdeckd serve ..., or systemctl start jobdeckd), so that the files it "
                                 "makes stay the service's");
}

} // namespace

void refuseOtherUsersDatabase(const std::string& databaseUrl) {
    const std::string path = DatabaseMarker::sqlitePath(databaseUrl);
    if (path.empty())
        return;
    // The database file's owner; before it exists, its directory's.
    std::error_code ec;
    const std::optional<std::string> owner =
        std::filesystem::exists(path, ec) ? otherOwnerOf(path)
                                          : otherOwnerOf(std::filesystem::absolute(path).parent_path());
    if (owner)
        throw std::runtime_error("the database " + path + " belongs to user " + *owner +
                                 ": run this command as that user (sudo -u " + *owner +
                                 " jobdeckd ...), so that the files it makes stay the service's");
}

std::string databaseUrlFor(const std::string& dataDir, const std::string& databaseUrl) {
    if (!databaseUrl.empty())
        return databaseUrl;
    return "sqlite:" + (std::filesystem::path(dataDir) / "jobdeck.db").string();
}

ServiceApp::ServiceApp(ServeOptions options)
    : m_options(std::move(options)) {
    if (m_options.dataDir.empty())
        m_options.dataDir = defaultDataDir();
}

void checkDeployMode(const ServeOptions& options) {
    if (options.deployMode != "cluster") {
        if (!options.sparkMaster.empty())
            throw std::runtime_error(
                "--master is for --deploy-mode cluster; in client deploy mode drivers run on this "
                "host and no master is used, so leave --master out or add --deploy-mode cluster");
        return;
    }
    if (options.runner != "spark-submit")
        throw std::runtime_error(
            "--deploy-mode cluster needs --runner spark-submit: drivers are submitted to "
            "the cluster with spark-submit");
    if (options.sparkMaster.empty())
        throw std::runtime_error(
            "--deploy-mode cluster needs --master <url> of the cluster manager to submit "
            "drivers to (spark://host:6066, k8s://https://host:port)");
    if (options.sparkMaster.rfind("local", 0) == 0)
        throw std::runtime_error("--deploy-mode cluster cannot submit to --master " + options.sparkMaster +
                                 ": a local master has no cluster; give a spark:// or k8s:// master");
}

ListenAddress ServiceApp::checkedListenAddress() const {
    ListenAddress where = parseListen(m_options.listen);
    if (m_options.tlsCertificate.empty() != m_options.tlsKey.empty())
        throw std::runtime_error("--tls-cert and --tls-key go together: give both (HTTPS) or neither (HTTP)");
    checkDeployMode(m_options);
    return where;
}

void ServiceApp::check(std::ostream& out) {
    LogTarget::apply(m_options.logTarget);
    LogTarget::applyLevel(m_options.logLevel);
    checkedListenAddress();
    if (!m_options.tlsCertificate.empty())
        makeServerTlsContext(m_options.tlsCertificate, m_options.tlsKey); // reads and pairs the files
    const bool dataDirExists = checkDataDir(m_options.dataDir);
    const std::string databaseUrl = databaseUrlFor(m_options.dataDir, m_options.databaseUrl);
    checkDatabaseOptions(databaseUrl,
                         OpenStoresOptions{m_options.initDatabase, m_options.databasePasswordFile});
    out << "The options are valid (nothing was started): "
        << (m_options.tlsCertificate.empty() ? "HTTP" : "HTTPS") << " on " << m_options.listen
        << ", database " << maskDatabaseValue(databaseUrl) << ", data directory " << m_options.dataDir
        << (dataDirExists ? "" : " (created at start)") << ", runner " << m_options.runner << ", deploy mode "
        << m_options.deployMode << "." << std::endl;
}

int ServiceApp::run() {
    LogTarget::apply(m_options.logTarget);
    LogTarget::applyLevel(m_options.logLevel);
    const SystemdNotifier systemd;
    const ListenAddress where = checkedListenAddress();
    DriverEnvironment::setAdminNames(m_options.driverEnv);
    prepareDataDir(m_options.dataDir);
    refuseOtherUsersDataDir(m_options.dataDir);
    const std::string databaseUrl = databaseUrlFor(m_options.dataDir, m_options.databaseUrl);
    refuseOtherUsersDatabase(databaseUrl);
    refuseEmptyDatabase(m_options.dataDir, databaseUrl); // before the lock file below exists
    const DataDirLock lock(m_options.dataDir);
    const ReplicaIdentity replica = ReplicaIdentity::load(m_options.dataDir);
    // From here on a fault in SQLite's mapped WAL index becomes an error, not the end of the process.
    WalIndexFaults::install();
    // Before the stores and after them: their last group commit is still timed.
    ServiceMetrics metrics;
    StatementTimer::install(&metrics);
    struct TimerReset {
        ~TimerReset() { StatementTimer::install(nullptr); }
    } timerReset;
    DatabaseTimeouts timeouts;
    timeouts.statement = m_options.databaseTimeout;
    timeouts.connect = m_options.databaseConnectTimeout;
    DatabaseTimeouts::set(timeouts);
    const auto stores =
        openStores(databaseUrl, OpenStoresOptions{m_options.initDatabase, m_options.databasePasswordFile});
    stores->statuses().setReplicaId(replica.id());

    HttpServerOptions httpOptions = httpServerOptions(m_options, where);
    httpOptions.authenticationIsLocal = stores->changeStamp().isLocal();
    HttpServer server(httpOptions, authenticator(*stores));
    server.listen();
    serve(m_options, {*stores, server, metrics, replica, systemd});
    spdlog::info("stopped");
    return 0;
}

} // namespace jobdeck
