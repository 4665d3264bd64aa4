#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <sys/types.h>

namespace jobdeck {

// Everything `jobdeckd serve` can be told on its command line (CONTRACT §5).
struct ServeOptions final {
    std::string listen = "127.0.0.1:8420";
    std::string dataDir;              // empty: defaultDataDir()
    std::string databaseUrl;          // empty: sqlite:<dataDir>/jobdeck.db
    std::string databasePasswordFile; // --database-password-file: its first line is the password
    bool initDatabase = false;        // --init: create the database even where the marker says one was
    std::chrono::seconds databaseTimeout{30}; // a statement, a lock (at most 10 s), a wait on the server
    std::chrono::seconds databaseConnectTimeout{10}; // connecting to PostgreSQL
    std::string runner = "local";                    // local | spark-submit
    std::string deployMode = "client"; // client (drivers on this host) | cluster (submitted to sparkMaster)
    std::string sparkMaster;           // --master: the cluster manager's URL, cluster deploy mode only

    // Transport
    std::chrono::seconds headerTimeout{30};
    std::chrono::seconds readTimeout{60};     // the body, and writing the answer
    std::chrono::seconds idleTimeout{60};     // a kept-alive connection between requests
    std::chrono::seconds shutdownGrace{10};   // requests in flight at SIGTERM get this long
    std::chrono::seconds firstByteTimeout{5}; // a new connection that has sent nothing
    std::chrono::seconds statusHold{2};       // a PENDING GET /v1/status waits this long for the final one
    std::size_t maxConnections = 1024;
    std::size_t reservedConnections = 64;       // kept for connections with a request in progress
    std::size_t maxConnectionsPerAddress = 128; // 0: no limit
    unsigned workerThreads = 4;
    bool accessLog = true; // a structured info line per request (method, path, status, duration, project)
    std::string tlsCertificate; // PEM; with tlsKey, the listener speaks HTTPS only
    std::string tlsKey;

    // Runs (RunManager)
    std::chrono::seconds cancelGrace{10};          // TERM, then KILL after this
    int retentionDays = 30;                        // finished runs' directories and logs are kept this long
    std::chrono::seconds clusterStatusInterval{5}; // between `spark-submit --status` polls of a run
    std::chrono::seconds leaseTimeout{15}; // a replica that has not renewed its lease this long is gone
    // A gone replica's client-mode run ends FAILED once the replica has not renewed its lease this long
    // (0: never; it waits for the replica to come back).
    std::chrono::seconds orphanedRunTimeout{600};

    // Retention of what reads leave behind (RetentionSweeper)
    std::chrono::seconds statusRetention{std::chrono::hours(24)};     // final request statuses
    std::chrono::seconds auditRetention{std::chrono::hours(24 * 90)}; // audit entries
    std::chrono::seconds retentionSweepInterval{60};
    std::string sparkSubmit = "spark-submit";
    std::map<std::string, std::string> s3Map; // bucket -> local directory for s3:// application paths
    std::uint64_t maxLogBytes = 64ull << 20;  // a run's driver log stops growing at this size
    std::vector<std::string> driverEnv;       // --driver-env: names (or PREFIX*) drivers get too

    std::string logTarget = "auto"; // auto | journal | stderr (LogTarget)
    std::string logLevel = "info";  // debug | info | warning | error (LogTarget::applyLevel)
};

// $XDG_DATA_HOME/jobdeck, else ~/.local/share/jobdeck.
std::string defaultDataDir();
// The data directory exists (created 0700 if need be) and is writable; throws std::runtime_error
// otherwise.
void prepareDataDir(const std::string& dir);
// Whether the data directory exists; throws std::runtime_error when it is no directory, or one this
// process cannot read and write. Creates nothing.
bool checkDataDir(const std::string& dir);
// Throws std::runtime_error with one clear line when the SQLite database of `databaseUrl` is an
// existing empty (0-byte) file, with no write-ahead log, while the data directory shows that a
// database was there before (run directories, or the lock file a `serve` leaves): opening it would
// silently start an empty database beside the old runs. A fresh data directory passes.
void refuseEmptyDatabase(const std::string& dataDir, const std::string& databaseUrl);
// For the commands that read or change a database that must already be there (keys list, keys
// revoke, backup): throws std::runtime_error with one clear line when `databaseUrl` names a SQLite file
// that does not exist, so a mistyped --data-dir is an error rather than a new, empty database.
void refuseMissingSqliteDatabase(const std::string& databaseUrl);
// For the commands an admin runs beside the service (keys, backup, restore): throws std::runtime_error
// with one clear line when `databaseUrl`'s SQLite file (before it exists, its directory, unless that is
// a shared one such as /tmp) belongs to another user than the one running the command (root on the packaged
// /var/lib/jobdeckd): files SQLite makes there
// (-wal, -shm, a restored database) would then be that user's, and the service could not open them.
void refuseOtherUsersDatabase(const std::string& databaseUrl);
// The user's name, or its number when it has none.
std::string userName(uid_t uid);
// Throws std::runtime_error with one clear line when --deploy-mode, --runner and --master do not go
// together (cluster mode needs the spark-submit runner and a cluster manager's --master).
void checkDeployMode(const ServeOptions& options);
// The database URL the options stand for ("sqlite:<dataDir>/jobdeck.db" by default).
std::string databaseUrlFor(const std::string& dataDir, const std::string& databaseUrl);

// --listen, read: an IP address (v4, or v6 without its brackets) and a port.
struct ListenAddress final {
    std::string host;
    unsigned short port = 0;
};

// The composition root of jobdeckd: stores, event bus, statement executor, runs and the HTTP
// server, wired together; serves until SIGTERM or SIGINT, then shuts down gracefully.
class ServiceApp final {
public:
    explicit ServiceApp(ServeOptions options);

    // Returns the process exit status. Throws std::runtime_error with one clear line when the
    // service cannot start (data directory, database, listen address).
    int run();
    // `jobdeckd serve --check`: everything run() checks before it binds, opens or starts anything
    // (addresses, TLS files and their pair, deploy mode, the database value and password file, the data
    // directory), then one line saying what would be served. Throws as run() would.
    void check(std::ostream& out);

private:
    // The checks that need no side effect: listen address, TLS options given together, deploy mode.
    ListenAddress checkedListenAddress() const;

    ServeOptions m_options;
};

} // namespace jobdeck
