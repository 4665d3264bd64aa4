// jobdeckd: the Jobs service (CONTRACT §5). Every failure ends with a non-zero exit status and one
// line on stderr.
#include "core/deploy/DatabaseUrl.h"
#include "core/deploy/DriverEnvironment.h"
#include "core/text/AsciiText.h"
#include "service/ConfigFile.h"
#include "service/DatabaseBackup.h"
#include "service/KeyCommands.h"
#include "service/LogEscaping.h"
#include "service/ProcessOneReaper.h"
#include "service/ServiceApp.h"
#include "service/stores/OpenStores.h"
#include "service/stores/Principal.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <exception>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace jobdeck;

int fail(const std::string& message) {
    std::cerr << "jobdeckd: " << message << std::endl;
    return 1;
}

// Sets `target` from a number of seconds given on the command line.
std::function<void(long long)> secondsInto(std::chrono::seconds& target) {
    return [&target](long long value) { target = std::chrono::seconds(value); };
}

void addTimeoutOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option_function<long long>("--header-timeout", secondsInto(serve.headerTimeout),
                                         "Seconds a client has to send a request header (default 30)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option_function<long long>("--read-timeout", secondsInto(serve.readTimeout),
                                         "Seconds a client has to send a request body (default 60)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option_function<long long>("--idle-timeout", secondsInto(serve.idleTimeout),
                                         "Seconds an idle kept-alive connection stays open (default 60)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option_function<long long>("--shutdown-grace", secondsInto(serve.shutdownGrace),
                                         "Seconds requests in flight get at SIGTERM (default 10)")
        ->check(CLI::NonNegativeNumber);
    command
        ->add_option_function<long long>("--first-byte-timeout", secondsInto(serve.firstByteTimeout),
                                         "Seconds a new connection may stay silent (default 5)")
        ->check(CLI::PositiveNumber);
    command
        ->add_option_function<long long>(
            "--status-hold-seconds", secondsInto(serve.statusHold),
            "Seconds GET /v1/status holds a PENDING request for its final status before answering "
            "PENDING (default 2; 0: never; `Prefer: wait` on the GET overrides it)")
        ->check(CLI::Range(0, 60));
}

void addConnectionOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option("--max-connections", serve.maxConnections,
                     "Open connections; when full, the oldest idle one makes room, else 503")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    command
        ->add_option("--reserved-connections", serve.reservedConnections,
                     "Connections kept for requests in progress: idle ones never hold them")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    command
        ->add_option("--max-connections-per-address", serve.maxConnectionsPerAddress,
                     "Open connections from one client address, beyond it 503 (0: no limit)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    command
        ->add_option("--workers", serve.workerThreads,
                     "Threads that take requests in, and as many that run statements")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    command->add_flag_callback(
        "--no-access-log", [&serve] { serve.accessLog = false; },
        "Log the per-request line (method, path, status, duration, project) at debug, not info");
    command->add_option("--tls-cert", serve.tlsCertificate,
                        "PEM certificate chain: serve HTTPS only (TLS 1.2+), with --tls-key");
    command->add_option("--tls-key", serve.tlsKey, "PEM private key of --tls-cert (no passphrase)");
}

// How long the database is waited for, and whether a deleted one may be created anew.
void addDatabaseOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option_function<long long>(
            "--database-timeout", secondsInto(serve.databaseTimeout),
            "Seconds a database statement may take, or a lock be waited for (at most 10), before the "
            "request fails (default 30; docs/service.md)")
        ->check(CLI::Range(1, 3600));
    command
        ->add_option_function<long long>("--database-connect-timeout",
                                         secondsInto(serve.databaseConnectTimeout),
                                         "Seconds connecting to PostgreSQL may take (default 10)")
        ->check(CLI::Range(1, 3600));
    command->add_flag("--init", serve.initDatabase,
                      "Create a new, empty SQLite database where the data directory shows that one was "
                      "(its marker jobdeckd.created, or run directories) but it is gone");
}

// Request statuses' and audit entries' retention.
void addRetentionOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option_function<long long>(
            "--status-retention-hours",
            [&serve](long long hours) { serve.statusRetention = std::chrono::hours(hours); },
            "Hours a final request status can be read after it was written (default 24)")
        ->check(CLI::Range(1, 24 * 366));
    command
        ->add_option_function<long long>(
            "--audit-retention-days",
            [&serve](long long days) { serve.auditRetention = std::chrono::hours(24 * days); },
            "Days audit entries are kept (default 90)")
        ->check(CLI::Range(1, 36500));
    // For tests: retention in seconds, and how often expired rows are looked for. Not in --help.
    command
        ->add_option_function<long long>("--status-retention-seconds", secondsInto(serve.statusRetention), "")
        ->check(CLI::PositiveNumber)
        ->group("");
    command
        ->add_option_function<long long>("--audit-retention-seconds", secondsInto(serve.auditRetention), "")
        ->check(CLI::PositiveNumber)
        ->group("");
    command
        ->add_option_function<long long>("--retention-sweep-seconds",
                                         secondsInto(serve.retentionSweepInterval), "")
        ->check(CLI::PositiveNumber)
        ->group("");
}

// How runs are canceled and how long their logs are kept.
void addRunOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option_function<long long>("--cancel-grace-seconds", secondsInto(serve.cancelGrace),
                                         "Seconds between TERM and KILL when a run is canceled (default 10)")
        ->check(CLI::NonNegativeNumber);
    command->add_option("--retention-days", serve.retentionDays, "Days finished runs' logs are kept")
        ->check(CLI::Range(1, 36500))
        ->capture_default_str();
    command
        ->add_option_function<long long>(
            "--cluster-status-seconds", secondsInto(serve.clusterStatusInterval),
            "Seconds between `spark-submit --status` polls of a run in cluster deploy mode (default 5)")
        ->check(CLI::Range(1, 3600));
    command
        ->add_option_function<long long>(
            "--lease-seconds", secondsInto(serve.leaseTimeout),
            "Seconds after which a replica sharing the database that has not renewed its lease is taken "
            "as gone and its launching and submitted runs are taken over (default 15; docs/scale-out.md)")
        ->check(CLI::Range(3, 3600));
    command
        ->add_option_function<long long>(
            "--orphaned-run-timeout", secondsInto(serve.orphanedRunTimeout),
            "Seconds after which a client-mode run of a replica that has not renewed its lease ends FAILED, "
            "freeing its driver slot (default 600; 0: it waits for the replica; docs/scale-out.md)")
        ->check(CLI::Range(0, 31536000));
}

// What drivers are started with and how much of their output is kept.
void addDriverOptions(CLI::App* command, ServeOptions& serve) {
    command
        ->add_option("--spark-submit", serve.sparkSubmit, "spark-submit executable for --runner spark-submit")
        ->capture_default_str();
    command->add_option_function<std::vector<std::string>>(
        "--s3-map",
        [&serve](const std::vector<std::string>& pairs) {
            for (const auto& pair : pairs) {
                const std::size_t eq = pair.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
                    throw CLI::ValidationError("--s3-map", "expected bucket=directory, got " + quoted(pair));
                serve.s3Map[pair.substr(0, eq)] = pair.substr(eq + 1);
            }
        },
        "Serve s3://<bucket>/... application paths from a local directory: bucket=directory (repeatable)");
    command->add_option("--max-log-bytes", serve.maxLogBytes, "Bytes a run's driver log may grow to")
        ->check(CLI::Range(std::uint64_t{4096}, std::uint64_t{1} << 50))
        ->capture_default_str();
    command->add_option_function<std::vector<std::string>>(
        "--driver-env",
        [&serve](const std::vector<std::string>& names) {
            for (const auto& name : names) {
                if (const auto refusal = driverEnvironmentNameRefusal(name))
                    throw CLI::ValidationError(*refusal);
                serve.driverEnv.push_back(name);
            }
        },
        "A variable of jobdeckd's environment drivers get too, beyond the documented list (NAME or "
        "PREFIX*; repeatable; never PG*)");
}

// Where the database password comes from; not argv, which `ps` shows to everyone on the host.
void addDatabasePasswordOption(CLI::App* command, std::string& passwordFile) {
    command->add_option("--database-password-file", passwordFile,
                        "File whose first line is the PostgreSQL password (keep it mode 0600); or use "
                        "PGPASSFILE / ~/.pgpass");
}

// A password in a --database value on the command line: warned about, and overwritten in this
// process's argv so that `ps` and /proc/<pid>/cmdline show '*' from now on.
void hideDatabasePasswordsInArgv(int argc, char** argv) {
    bool warned = false;
    for (int i = 1; i < argc; ++i) {
        std::string_view argument(argv[i]);
        char* value = argv[i];
        if (argument == "--database" && i + 1 < argc) {
            value = argv[++i];
        } else if (argument.starts_with("--database=")) {
            value += std::string_view("--database=").size();
        } else {
            continue;
        }
        const std::string blanked = blankDatabasePasswords(value);
        if (blanked == value)
            continue;
        std::copy(blanked.begin(), blanked.end(), value);
        if (!std::exchange(warned, true))
            spdlog::warn("{}", databasePasswordOnCommandLineWarning());
    }
}

// `jobdeckd serve` and its options; `configPath` gets --config.
CLI::App* addServeCommand(CLI::App& app, ServeOptions& serve, std::string& configPath, bool& checkOnly) {
    auto* command = app.add_subcommand("serve", "Serve the statement API over HTTP");
    command->add_option("--listen", serve.listen, "Address and port to listen on (port 0: any free port)")
        ->capture_default_str();
    command->add_option("--data-dir", serve.dataDir,
                        "Data directory (default: $XDG_DATA_HOME/jobdeck or ~/.local/share/jobdeck)");
    command->add_option(
        "--database", serve.databaseUrl,
        "sqlite:<path> or postgresql://user@host:port/database (default: <data-dir>/jobdeck.db)");
    addDatabasePasswordOption(command, serve.databasePasswordFile);
    command->add_option("--runner", serve.runner, "How runs are launched")
        ->check(CLI::IsMember({"local", "spark-submit"}))
        ->capture_default_str();
    command
        ->add_option("--deploy-mode", serve.deployMode,
                     "client: drivers run on this host; cluster: each run is submitted to --master with "
                     "spark-submit (needs --runner spark-submit)")
        ->check(CLI::IsMember({"client", "cluster"}))
        ->capture_default_str();
    command->add_option(
        "--master", serve.sparkMaster,
        "Cluster manager URL for --deploy-mode cluster (spark://host:6066, k8s://https://host:port)");
    addTimeoutOptions(command, serve);
    addDatabaseOptions(command, serve);
    addConnectionOptions(command, serve);
    addRunOptions(command, serve);
    addRetentionOptions(command, serve);
    addDriverOptions(command, serve);
    command->add_option("--log-target", serve.logTarget, "auto (journal under systemd), journal or stderr")
        ->check(CLI::IsMember({"auto", "journal", "stderr"}))
        ->capture_default_str();
    command
        ->add_option("--log-level", serve.logLevel,
                     "Least important log lines written: debug (also each TLS handshake refused, each "
                     "access line of --no-access-log), info, warning or error")
        ->check(CLI::IsMember({"debug", "info", "warning", "error"}))
        ->capture_default_str();
    command->add_flag("--check", checkOnly,
                      "Check the options and the configuration file (addresses, TLS files, deploy mode, "
                      "database value, data directory) without serving: exit 0 with what would be served, "
                      "else 1 with the reason");
    command->add_option("--config", configPath,
                        "File of `option = value` lines for every option above; flags win (default: " +
                            std::string(ConfigFile::kDefaultPath) + " when it exists)");
    return command;
}

struct KeysOptions {
    KeyDatabase where;
    std::string project;
    std::string role;
    std::string apiKey;
    bool json = false;
};

// Where a keys command finds the database: as serve does, by default.
void addKeyDatabaseOptions(CLI::App* command, KeyDatabase& where) {
    command->add_option("--data-dir", where.dataDir, "Data directory (default: as for serve)");
    command->add_option(
        "--database", where.databaseUrl,
        "sqlite:<path> or postgresql://user@host:port/database (default: <data-dir>/jobdeck.db)");
    addDatabasePasswordOption(command, where.passwordFile);
}

struct KeysCommands {
    CLI::App* create = nullptr;
    CLI::App* list = nullptr;
    CLI::App* revoke = nullptr;
};

// `jobdeckd keys create | list | revoke` and their options.
KeysCommands addKeysCommand(CLI::App& app, KeysOptions& keys) {
    auto* keysCommand = app.add_subcommand("keys", "Manage API keys");
    keysCommand->require_subcommand(1);
    KeysCommands commands;
    commands.create = keysCommand->add_subcommand(
        "create", "Create an API key (and the project when it is new); prints the secret once");
    addKeyDatabaseOptions(commands.create, keys.where);
    commands.create->add_option("--project", keys.project, "Project name")->required();
    commands.create->add_option("--role", keys.role, "viewer, operator or admin")->required();
    commands.create->add_flag("--json", keys.json,
                              "Print {\"projectUid\", \"apiKey\", \"apiSecret\", \"role\"}");

    commands.list = keysCommand->add_subcommand(
        "list", "List the API keys (revoked ones too) with their projects and roles; never a secret");
    addKeyDatabaseOptions(commands.list, keys.where);
    commands.list->add_option("--project", keys.project, "Only this project's keys");
    commands.list->add_flag(
        "--json", keys.json,
        "Print an array of {\"project\", \"projectUid\", \"apiKey\", \"role\", \"createdAt\", \"revoked\"}");

    commands.revoke = keysCommand->add_subcommand(
        "revoke", "Revoke an API key: requests with it are refused from the next one on, by every replica");
    addKeyDatabaseOptions(commands.revoke, keys.where);
    commands.revoke->add_option("API_KEY", keys.apiKey, "The API key (its id, as keys list shows it)")
        ->required();
    return commands;
}

// Runs the keys command that was given; nullopt when none was.
std::optional<int> runKeysCommand(const KeysCommands& commands, const KeysOptions& keys) {
    if (*commands.create)
        createKeyCommand(keys.where, keys.project, keys.role, keys.json, std::cout);
    else if (*commands.list)
        listKeysCommand(keys.where, keys.project, keys.json, std::cout);
    else if (*commands.revoke)
        revokeKeyCommand(keys.where, keys.apiKey, std::cout);
    else
        return std::nullopt;
    return 0;
}

struct BackupOptions {
    BackupSource source;
    std::string file;
};

// `jobdeckd backup --to FILE` and `jobdeckd restore --from FILE` of a SQLite data directory.
std::pair<CLI::App*, CLI::App*> addBackupCommands(CLI::App& app, BackupOptions& backup) {
    auto* backupCommand = app.add_subcommand(
        "backup", "Copy the SQLite database to a new file, consistent while jobdeckd serve runs");
    auto* restoreCommand = app.add_subcommand(
        "restore", "Put a backup in place of the SQLite database while jobdeckd serve is stopped");
    for (auto* command : {backupCommand, restoreCommand}) {
        command->add_option("--data-dir", backup.source.dataDir, "Data directory (default: as for serve)");
        command->add_option("--database", backup.source.databaseUrl,
                            "sqlite:<path> (default: <data-dir>/jobdeck.db)");
    }
    backupCommand->add_option("--to", backup.file, "The backup file to create (it must not exist)")
        ->required();
    restoreCommand->add_option("--from", backup.file, "The backup file (made by jobdeckd backup)")
        ->required();
    return {backupCommand, restoreCommand};
}

// Parses the command line; the exit status when that is the end of it (help, version, an error).
std::optional<int> parseCommandLine(CLI::App& app, int argc, char** argv) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string message = e.what();
        if (message.empty())
            message = "invalid command line";
        return fail(message + " (see jobdeckd --help)");
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char** argv) {
    static constexpr std::array<std::string_view, 4> kCommands{"serve", "keys", "backup", "restore"};
    // A log pipe whose reader went away (`jobdeckd serve 2>&1 | tee`, a collector restarting) makes a
    // write fail with EPIPE instead of ending the service; every child process gets SIGPIPE back
    // (posix_spawn with POSIX_SPAWN_SETSIGDEF).
    std::signal(SIGPIPE, SIG_IGN);
    // SIGHUP reloads the TLS certificate once serving (ServiceApp); before that (opening and migrating
    // the database) and while stopping it must not end the service either.
    std::signal(SIGHUP, SIG_IGN);
    // stdout carries only what callers parse (the listening line, keys); the log goes to stderr.
    spdlog::set_default_logger(spdlog::stderr_color_mt("jobdeckd"));
    escapeEveryLogLine();
    if (argc > 1 && argv[1][0] != '-' &&
        std::ranges::find(kCommands, std::string_view(argv[1])) == kCommands.end())
        return fail("unknown command " + quoted(argv[1]) +
                    ": expected serve, keys, backup or restore (see jobdeckd --help)");

    CLI::App app{"jobdeckd: the Jobdeck Jobs service for Spark jobs on Apache Hudi"};
    app.require_subcommand(1);
    app.set_version_flag("--version", JOBDECK_VERSION);
    ServeOptions serve;
    std::string configPath;
    bool checkOnly = false;
    CLI::App* serveCommand = addServeCommand(app, serve, configPath, checkOnly);
    KeysOptions keys;
    const KeysCommands keysCommands = addKeysCommand(app, keys);
    BackupOptions backup;
    const auto [backupCommand, restoreCommand] = addBackupCommands(app, backup);
    if (const auto exitStatus = parseCommandLine(app, argc, argv))
        return *exitStatus;
    hideDatabasePasswordsInArgv(argc, argv); // CLI11 holds its own copies by now

    try {
        if (const auto exitStatus = runKeysCommand(keysCommands, keys))
            return *exitStatus;
        if (*backupCommand) {
            backupDatabase(backup.source, backup.file, std::cout);
            return 0;
        }
        if (*restoreCommand) {
            restoreDatabase(backup.source, backup.file, std::cout);
            return 0;
        }
        if (const auto config = ConfigFile::forServe(configPath))
            config->applyTo(*serveCommand);
        ServiceApp service(serve);
        if (checkOnly) {
            service.check(std::cout);
            return 0;
        }
        ProcessOneReaper::takeOverIfProcessOne();
        return service.run();
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
