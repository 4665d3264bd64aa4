// jobdeckd: the Jobs service (CONTRACT §5). Every failure ends with a non-zero exit status and one
// line on stderr.
#include "service/ConfigFile.h"
#include "service/LogEscaping.h"
#include "service/Principal.h"
#include "service/ServiceApp.h"
#include "service/Storage.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <iostream>
#include <string>
#include <string_view>

namespace {

using namespace jobdeck;

int fail(const std::string& message) {
    std::cerr << "jobdeckd: " << message << std::endl;
    return 1;
}

int createKey(const std::string& dataDir, const std::string& databaseUrl, const std::string& project,
              const std::string& roleText, bool json) {
    const auto role = roleFromName(roleText);
    if (!role)
        return fail("invalid role '" + roleText + "': expected viewer, operator or admin");
    if (project.empty())
        return fail("the project name must not be empty");
    prepareDataDir(dataDir);
    const std::string url = databaseUrlFor(dataDir, databaseUrl);
    refuseEmptyDatabase(dataDir, url);
    auto storage = Storage::open(url);
    const CreatedKey key = storage->createKey(project, *role);
    if (json) {
        std::cout << nlohmann::json{{"projectUid", key.projectUid},
                                    {"apiKey", key.apiKey},
                                    {"apiSecret", key.apiSecret},
                                    {"role", roleName(key.role)}}
                         .dump()
                  << std::endl;
    } else {
        std::cout << "project:    " << key.projectName << "\n"
                  << "projectUid: " << key.projectUid << "\n"
                  << "apiKey:     " << key.apiKey << "\n"
                  << "apiSecret:  " << key.apiSecret << "\n"
                  << "role:       " << roleName(key.role) << "\n"
                  << "The secret is shown only this once; jobdeckd keeps only a hash of it." << std::endl;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    // stdout carries only what callers parse (the listening line, keys); the log goes to stderr.
    spdlog::set_default_logger(spdlog::stderr_color_mt("jobdeckd"));
    escapeEveryLogLine();
    if (argc > 1 && argv[1][0] != '-' && std::string_view(argv[1]) != "serve" &&
        std::string_view(argv[1]) != "keys")
        return fail("unknown command '" + std::string(argv[1]) +
                    "': expected serve or keys (see jobdeckd --help)");

    CLI::App app{"jobdeckd: the Jobdeck Jobs service for Spark jobs on Apache Hudi"};
    app.require_subcommand(1);
    app.set_version_flag("--version", JOBDECK_VERSION);

    ServeOptions serve;
    auto* serveCommand = app.add_subcommand("serve", "Serve the statement API over HTTP");
    serveCommand
        ->add_option("--listen", serve.listen, "Address and port to listen on (port 0: any free port)")
        ->capture_default_str();
    serveCommand->add_option("--data-dir", serve.dataDir,
                             "Data directory (default: $XDG_DATA_HOME/jobdeck or ~/.local/share/jobdeck)");
    serveCommand->add_option("--database", serve.databaseUrl,
                             "sqlite:<path> (default: <data-dir>/jobdeck.db)");
    serveCommand->add_option("--runner", serve.runner, "How runs are launched")
        ->check(CLI::IsMember({"local", "spark-submit"}))
        ->capture_default_str();
    auto seconds = [](std::chrono::seconds& target) {
        return [&target](long long value) { target = std::chrono::seconds(value); };
    };
    serveCommand
        ->add_option_function<long long>("--header-timeout", seconds(serve.headerTimeout),
                                         "Seconds a client has to send a request header (default 30)")
        ->check(CLI::PositiveNumber);
    serveCommand
        ->add_option_function<long long>("--read-timeout", seconds(serve.readTimeout),
                                         "Seconds a client has to send a request body (default 60)")
        ->check(CLI::PositiveNumber);
    serveCommand
        ->add_option_function<long long>("--idle-timeout", seconds(serve.idleTimeout),
                                         "Seconds an idle kept-alive connection stays open (default 60)")
        ->check(CLI::PositiveNumber);
    serveCommand
        ->add_option_function<long long>("--shutdown-grace", seconds(serve.shutdownGrace),
                                         "Seconds requests in flight get at SIGTERM (default 10)")
        ->check(CLI::NonNegativeNumber);
    serveCommand
        ->add_option_function<long long>("--first-byte-timeout", seconds(serve.firstByteTimeout),
                                         "Seconds a new connection may stay silent (default 5)")
        ->check(CLI::PositiveNumber);
    serveCommand
        ->add_option("--max-connections", serve.maxConnections,
                     "Open connections; when full, the oldest idle one makes room, else 503")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    serveCommand
        ->add_option("--reserved-connections", serve.reservedConnections,
                     "Connections kept for requests in progress: idle ones never hold them")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    serveCommand
        ->add_option("--max-connections-per-address", serve.maxConnectionsPerAddress,
                     "Open connections from one client address, beyond it 503 (0: no limit)")
        ->check(CLI::Range(0, 100000))
        ->capture_default_str();
    serveCommand->add_option("--workers", serve.workerThreads, "Threads that run statements")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    serveCommand->add_flag_callback(
        "--no-access-log", [&serve] { serve.accessLog = false; },
        "Log the per-request line (method, path, status, duration, project) at debug, not info");
    serveCommand->add_option("--tls-cert", serve.tlsCertificate,
                             "PEM certificate chain: serve HTTPS only (TLS 1.2+), with --tls-key");
    serveCommand->add_option("--tls-key", serve.tlsKey, "PEM private key of --tls-cert (no passphrase)");
    serveCommand
        ->add_option_function<long long>("--cancel-grace-seconds", seconds(serve.cancelGrace),
                                         "Seconds between TERM and KILL when a run is canceled (default 10)")
        ->check(CLI::NonNegativeNumber);
    serveCommand->add_option("--retention-days", serve.retentionDays, "Days finished runs' logs are kept")
        ->check(CLI::Range(1, 36500))
        ->capture_default_str();
    serveCommand
        ->add_option_function<long long>(
            "--status-retention-hours",
            [&serve](long long hours) { serve.statusRetention = std::chrono::hours(hours); },
            "Hours a final request status can be read after it was written (default 24)")
        ->check(CLI::Range(1, 24 * 366));
    serveCommand
        ->add_option_function<long long>(
            "--audit-retention-days",
            [&serve](long long days) { serve.auditRetention = std::chrono::hours(24 * days); },
            "Days audit entries are kept (default 90)")
        ->check(CLI::Range(1, 36500));
    // For tests: retention in seconds, and how often expired rows are looked for. Not in --help.
    serveCommand
        ->add_option_function<long long>("--status-retention-seconds", seconds(serve.statusRetention), "")
        ->check(CLI::PositiveNumber)
        ->group("");
    serveCommand
        ->add_option_function<long long>("--audit-retention-seconds", seconds(serve.auditRetention), "")
        ->check(CLI::PositiveNumber)
        ->group("");
    serveCommand
        ->add_option_function<long long>("--retention-sweep-seconds", seconds(serve.retentionSweepInterval),
                                         "")
        ->check(CLI::PositiveNumber)
        ->group("");
    serveCommand
        ->add_option("--spark-submit", serve.sparkSubmit, "spark-submit executable for --runner spark-submit")
        ->capture_default_str();
    serveCommand->add_option_function<std::vector<std::string>>(
        "--s3-map",
        [&serve](const std::vector<std::string>& pairs) {
            for (const auto& pair : pairs) {
                const std::size_t eq = pair.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
                    throw CLI::ValidationError("--s3-map", "expected bucket=directory, got '" + pair + "'");
                serve.s3Map[pair.substr(0, eq)] = pair.substr(eq + 1);
            }
        },
        "Serve s3://<bucket>/... application paths from a local directory: bucket=directory (repeatable)");
    serveCommand->add_option("--max-log-bytes", serve.maxLogBytes, "Bytes a run's driver log may grow to")
        ->check(CLI::Range(std::uint64_t{4096}, std::uint64_t{1} << 50))
        ->capture_default_str();
    serveCommand
        ->add_option("--log-target", serve.logTarget, "auto (journal under systemd), journal or stderr")
        ->check(CLI::IsMember({"auto", "journal", "stderr"}))
        ->capture_default_str();
    std::string configPath;
    serveCommand->add_option("--config", configPath,
                             "File of `option = value` lines for every option above; flags win (default: " +
                                 std::string(ConfigFile::kDefaultPath) + " when it exists)");

    std::string keysDataDir;
    std::string keysDatabase;
    std::string keysProject;
    std::string keysRole;
    bool keysJson = false;
    auto* keysCommand = app.add_subcommand("keys", "Manage API keys");
    keysCommand->require_subcommand(1);
    auto* createCommand = keysCommand->add_subcommand(
        "create", "Create an API key (and the project when it is new); prints the secret once");
    createCommand->add_option("--data-dir", keysDataDir, "Data directory (default: as for serve)");
    createCommand->add_option("--database", keysDatabase, "Database URL (default: <data-dir>/jobdeck.db)");
    createCommand->add_option("--project", keysProject, "Project name")->required();
    createCommand->add_option("--role", keysRole, "viewer, operator or admin")->required();
    createCommand->add_flag("--json", keysJson,
                            "Print {\"projectUid\", \"apiKey\", \"apiSecret\", \"role\"}");

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

    try {
        if (*createCommand)
            return createKey(keysDataDir.empty() ? defaultDataDir() : keysDataDir, keysDatabase, keysProject,
                             keysRole, keysJson);
        if (const auto config = ConfigFile::forServe(configPath))
            config->applyTo(*serveCommand);
        ServiceApp service(serve);
        return service.run();
    } catch (const std::exception& e) {
        return fail(e.what());
    }
}
