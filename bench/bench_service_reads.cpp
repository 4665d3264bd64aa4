// LIBS: jobdeck_service jobdeck_core Boost::boost Threads::Threads
// Read throughput and latency of jobdeckd (DESCRIBE JOB through POST /v1/resource/ with Prefer: wait,
// and GET /v1/status/<id>) at 1, 16 and 64 kept-alive connections, next to nginx serving a static
// file of the same size as the DESCRIBE answer; then CREATE/ALTER JOB per second, which are durable
// (synchronous SQLite commits) before they are acknowledged; then SHOW JOBS of 100,000 jobs, what the
// console's Jobs list waits for. Loopback only, bounded in requests and time. Usage:
//   bench_service_reads [--jobdeckd PATH] [--nginx-port N --nginx-root DIR] [--seconds S] [--requests N]
//                       [--only describe|status|writes|showjobs]   (one part alone, e.g. under perf)
// bench/run-service-bench.sh starts nginx and passes its port and document root.
#include "bench/ListedJobs.h"
#include "core/wire/Timestamp.h"
#include "service/stores/SqliteDatabase.h"
#include "service/stores/SqliteStores.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;
using Request = http::request<http::string_body>;

struct Options {
    std::string jobdeckd =
#ifdef JOBDECKD_PATH
        JOBDECKD_PATH;
#else
        "jobdeckd";
#endif
    unsigned short nginxPort = 0;
    std::string nginxRoot;
    double seconds = 3.0;
    std::size_t requests = 50'000;
    std::string only; // empty: everything
};

struct Credentials {
    std::string projectUid, apiKey, apiSecret;
};

// jobdeckd as a child process with its own data directory; SIGTERM and cleanup on destruction.
class Service {
public:
    explicit Service(const std::string& binary)
        : m_binary(binary) {
        char pattern[] = "/tmp/jobdeck-bench-XXXXXX";
        if (!mkdtemp(pattern))
            throw std::runtime_error("cannot create a temporary directory");
        m_dir = pattern;
    }
    ~Service() {
        if (m_pid > 0) {
            kill(m_pid, SIGTERM);
            int status = 0;
            waitpid(m_pid, &status, 0);
        }
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }

    Credentials createKey() {
        const std::string command =
            m_binary + " keys create --data-dir " + m_dir + " --project bench --role admin --json";
        FILE* pipe = popen(command.c_str(), "r");
        if (!pipe)
            throw std::runtime_error("cannot run " + command);
        std::string out;
        char buffer[512];
        while (fgets(buffer, sizeof buffer, pipe))
            out += buffer;
        if (pclose(pipe) != 0)
            throw std::runtime_error("keys create failed");
        const auto key = nlohmann::json::parse(out);
        return {key.at("projectUid"), key.at("apiKey"), key.at("apiSecret")};
    }

    unsigned short start() {
        int out[2];
        if (pipe(out) != 0)
            throw std::runtime_error("pipe failed");
        m_pid = fork();
        if (m_pid == 0) {
            dup2(out[1], STDOUT_FILENO);
            const std::string log = m_dir + "/jobdeckd.log";
            if (FILE* err = std::freopen(log.c_str(), "w", stderr); !err)
                _exit(127);
            close(out[0]);
            // Like nginx here (access_log off): the per-request line goes to debug.
            execl(m_binary.c_str(), m_binary.c_str(), "serve", "--listen", "127.0.0.1:0", "--data-dir",
                  m_dir.c_str(), "--no-access-log", static_cast<char*>(nullptr));
            _exit(127);
        }
        close(out[1]);
        std::string line;
        char c = 0;
        while (read(out[0], &c, 1) == 1 && c != '\n')
            line += c;
        close(out[0]);
        const std::string prefix = "listening on 127.0.0.1:";
        if (!line.starts_with(prefix))
            throw std::runtime_error("jobdeckd did not start: " + line);
        return static_cast<unsigned short>(std::stoi(line.substr(prefix.size())));
    }

    // CPU time (user + system, all threads) the service has used so far; a figure the other processes
    // on the machine disturb far less than its rate.
    double cpuSeconds() const {
        std::ifstream stat("/proc/" + std::to_string(m_pid) + "/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        // Fields after the command name (which may hold spaces) start at the last ')'.
        std::istringstream fields(text.substr(text.rfind(')') + 2));
        std::string field;
        double ticks = 0;
        for (int i = 3; i <= 15 && fields >> field; ++i)
            if (i >= 14)
                ticks += std::stod(field); // utime, stime
        return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
    }

    std::string databasePath() const { return m_dir + "/jobdeck.db"; }

private:
    std::string m_binary;
    std::string m_dir;
    pid_t m_pid = -1;
};

Request makeRequest(http::verb verb, const std::string& target, const Credentials* credentials,
                    const std::string& statement = {}) {
    Request request{verb, target, 11};
    request.set(http::field::host, "127.0.0.1");
    request.keep_alive(true);
    if (credentials) {
        request.set("x-onehouse-project-uid", credentials->projectUid);
        request.set("x-onehouse-api-key", credentials->apiKey);
        request.set("x-onehouse-api-secret", credentials->apiSecret);
    }
    if (!statement.empty()) {
        request.set(http::field::content_type, "application/json");
        request.set("Prefer", "wait=10");
        request.body() = nlohmann::json{{"statement", statement}}.dump();
    }
    request.prepare_payload();
    return request;
}

// One blocking exchange on a fresh connection, for setup.
http::response<http::string_body> fetchOnce(unsigned short port, const Request& request) {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(30));
    stream.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::write(stream, request);
    beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(stream, buffer, response);
    return response;
}

nlohmann::json runStatement(unsigned short port, const Credentials& credentials,
                            const std::string& statement) {
    const auto response =
        fetchOnce(port, makeRequest(http::verb::post, "/v1/resource/", &credentials, statement));
    auto status = nlohmann::json::parse(response.body());
    if (status.value("apiStatus", "") != "API_OPERATION_STATUS_SUCCESS")
        throw std::runtime_error("'" + statement + "' failed: " + response.body());
    return status;
}

struct LoadResult {
    double seconds = 0;
    std::size_t errors = 0;
    std::vector<double> latenciesMs;

    double rate() const { return seconds > 0 ? static_cast<double>(latenciesMs.size()) / seconds : 0; }
    double percentile(double p) const {
        if (latenciesMs.empty())
            return 0;
        const auto at = std::min(latenciesMs.size() - 1, static_cast<std::size_t>(p * latenciesMs.size()));
        return latenciesMs[at];
    }
};

// `connections` kept-alive connections, each sending the next request when the previous answer is in,
// until `maxRequests` were sent or `maxTime` is over. One client thread, so the service gets the rest.
class Load {
public:
    // `statements`: answers count as errors unless their apiStatus is SUCCESS.
    Load(unsigned short port, std::vector<Request> requests, std::size_t maxRequests,
         std::chrono::duration<double> maxTime, bool statements = true)
        : m_statements(statements)
        , m_endpoint(net::ip::make_address("127.0.0.1"), port)
        , m_requests(std::move(requests))
        , m_maxRequests(maxRequests)
        , m_maxTime(std::chrono::duration_cast<Clock::duration>(maxTime)) {}

    LoadResult run(int connections) {
        net::io_context io;
        m_deadline = Clock::now() + m_maxTime;
        std::vector<std::shared_ptr<Connection>> all;
        for (int i = 0; i < connections; ++i) {
            all.push_back(std::make_shared<Connection>(io, *this));
            all.back()->start();
        }
        const auto started = Clock::now();
        io.run();
        LoadResult result;
        result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        for (const auto& connection : all) {
            result.latenciesMs.insert(result.latenciesMs.end(), connection->latencies.begin(),
                                      connection->latencies.end());
            result.errors += connection->errors;
        }
        std::sort(result.latenciesMs.begin(), result.latenciesMs.end());
        return result;
    }

private:
    struct Connection : std::enable_shared_from_this<Connection> {
        Connection(net::io_context& io, Load& load)
            : stream(io)
            , owner(load) {}

        void start() {
            stream.async_connect(owner.m_endpoint, [self = shared_from_this()](beast::error_code ec) {
                if (ec)
                    ++self->errors;
                else
                    self->next();
            });
        }
        void next() {
            const std::size_t n = owner.m_issued.fetch_add(1);
            if (n >= owner.m_maxRequests || Clock::now() >= owner.m_deadline) {
                beast::error_code ignored;
                stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
                return;
            }
            request = &owner.m_requests[n % owner.m_requests.size()];
            sent = Clock::now();
            stream.expires_after(std::chrono::seconds(30));
            http::async_write(
                stream, *request, [self = shared_from_this()](beast::error_code ec, std::size_t) {
                    if (ec) {
                        ++self->errors;
                        return;
                    }
                    self->response = {};
                    http::async_read(self->stream, self->buffer, self->response,
                                     [self](beast::error_code readEc, std::size_t) { self->onRead(readEc); });
                });
        }
        void onRead(beast::error_code ec) {
            if (ec) {
                ++errors;
                return;
            }
            latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - sent).count());
            if (response.result_int() != 200 ||
                (owner.m_statements &&
                 response.body().find(R"("apiStatus":"API_OPERATION_STATUS_SUCCESS")") == std::string::npos))
                ++errors;
            next();
        }

        beast::tcp_stream stream;
        Load& owner;
        beast::flat_buffer buffer;
        http::response<http::string_body> response;
        const Request* request = nullptr;
        Clock::time_point sent;
        std::vector<double> latencies;
        std::size_t errors = 0;
    };

    bool m_statements;
    tcp::endpoint m_endpoint;
    std::vector<Request> m_requests;
    std::size_t m_maxRequests;
    Clock::duration m_maxTime;
    Clock::time_point m_deadline;
    std::atomic<std::size_t> m_issued{0};
};

// `cpuSeconds`: what jobdeckd used for the row, shown per request (nullopt for nginx's rows).
void printRow(const std::string& name, int connections, const LoadResult& result,
              std::optional<double> nginxRate, std::optional<double> cpuSeconds = std::nullopt) {
    std::printf("%-34s %5d %10.0f %9.3f %9.3f %7zu", name.c_str(), connections, result.rate(),
                result.percentile(0.5), result.percentile(0.99), result.errors);
    if (cpuSeconds && !result.latenciesMs.empty())
        std::printf(" %9.1f", *cpuSeconds * 1e6 / static_cast<double>(result.latenciesMs.size()));
    else
        std::printf(" %9s", "-");
    if (nginxRate && *nginxRate > 0)
        std::printf(" %9.2f", result.rate() / *nginxRate);
    std::printf("\n");
    std::fflush(stdout);
}

Options parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::runtime_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--jobdeckd")
            options.jobdeckd = value();
        else if (arg == "--nginx-port")
            options.nginxPort = static_cast<unsigned short>(std::stoi(value()));
        else if (arg == "--nginx-root")
            options.nginxRoot = value();
        else if (arg == "--seconds")
            options.seconds = std::stod(value());
        else if (arg == "--requests")
            options.requests = std::stoul(value());
        else if (arg == "--only")
            options.only = value();
        else
            throw std::runtime_error("unknown argument " + arg);
    }
    if (options.seconds <= 0 || options.seconds > 60 || options.requests == 0 ||
        options.requests > 10'000'000)
        throw std::runtime_error("--seconds must be in (0, 60] and --requests in [1, 10000000]");
    if (!options.only.empty() && options.only != "describe" && options.only != "status" &&
        options.only != "writes" && options.only != "showjobs")
        throw std::runtime_error("--only takes describe, status, writes or showjobs");
    if ((options.nginxPort == 0) != options.nginxRoot.empty())
        throw std::runtime_error("--nginx-port and --nginx-root go together");
    return options;
}

// Writes: each acknowledged only once committed (synchronous=FULL), so they survive kill -9.
template <class Measure>
void measureWrites(unsigned short port, const Credentials& credentials, std::size_t writes,
                   std::chrono::duration<double> maxTime, const Measure& measure) {
    std::printf("\n%-34s %5s %10s %9s %9s %7s %9s\n", "durable writes", "conns", "ops/s", "p50 ms", "p99 ms",
                "errors", "cpu us/op");
    for (const int connections : {1, 16}) {
        std::vector<Request> creates;
        std::vector<Request> alters;
        for (std::size_t i = 0; i < writes; ++i) {
            const std::string name = "w" + std::to_string(connections) + "_" + std::to_string(i);
            creates.push_back(
                makeRequest(http::verb::post, "/v1/resource/", &credentials,
                            "CREATE JOB " + name +
                                " TYPE = 'JAR' PARAMETERS = ('--class', 'Main', '/opt/apps/app.jar') "
                                "CLUSTER = 'bench_cluster'"));
            alters.push_back(makeRequest(http::verb::post, "/v1/resource/", &credentials,
                                         "ALTER JOB " + name + " SET MAX_CONCURRENT_RUNS = 1"));
        }
        const LoadResult created =
            measure("CREATE JOB", connections, Load(port, creates, writes, maxTime), std::nullopt);
        // Only the jobs that were created (the first ones, in order) are altered.
        alters.resize(std::max<std::size_t>(1, created.latenciesMs.size()));
        measure("ALTER JOB", connections, Load(port, alters, alters.size(), maxTime), std::nullopt);
    }
}

// SHOW JOBS of 100,000 jobs (bench/ListedJobs.h); the service reads them as any others. Reference:
// json::parse and dump of the same answer, in this process (what any DOM of the answer costs).
void measureShowJobs(unsigned short port, const Credentials& credentials, Service& service) {
    constexpr int kJobs = 100000;
    jobdeck::bench::seedListedJobs(service.databasePath(), credentials.projectUid, kJobs);
    Request show = makeRequest(http::verb::post, "/v1/resource/", &credentials, "SHOW JOBS");
    show.set("Prefer", "wait=120");
    std::vector<double> wallMs;
    double cpuMs = 0;
    std::string body;
    for (int run = 0; run < 3; ++run) {
        const double cpuBefore = service.cpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        auto response = fetchOnce(port, show);
        wallMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        cpuMs += (service.cpuSeconds() - cpuBefore) * 1000.0 / 3;
        body = std::move(response.body());
    }
    const auto answer = nlohmann::json::parse(body);
    const std::size_t shown = answer.at("apiResponse").at("showJobsApiResponse").at("sparkJobs").size();
    if (answer.value("apiStatus", "") != "API_OPERATION_STATUS_SUCCESS" || shown < kJobs)
        throw std::runtime_error("SHOW JOBS did not answer the jobs: " + body.substr(0, 300));
    const auto start = std::chrono::steady_clock::now();
    const std::size_t dumped = nlohmann::json::parse(body).dump().size();
    const double referenceMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::sort(wallMs.begin(), wallMs.end());
    std::printf("\nSHOW JOBS, %zu jobs (%.1f MiB answer): best %.0f ms, median %.0f ms (fresh connection, "
                "Prefer: wait), service CPU %.0f ms per answer\n"
                "    reference json::parse + dump of the answer here: %.0f ms (%zu bytes)   ratio %.2f\n",
                shown, static_cast<double>(body.size()) / (1024.0 * 1024.0), wallMs.front(), wallMs[1], cpuMs,
                referenceMs, dumped, wallMs[1] / referenceMs);
}

} // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parseOptions(argc, argv);
        Service service(options.jobdeckd);
        const Credentials credentials = service.createKey();
        const unsigned short port = service.start();

        runStatement(port, credentials,
                     "CREATE CLUSTER bench_cluster TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1");
        runStatement(
            port, credentials,
            "CREATE JOB bench_job TYPE = 'JAR' PARAMETERS = ('--class', 'org.example.Main', '--conf', "
            "'spark.executor.memory=4g', '/opt/apps/app.jar', '--date', '2024-01-01') CLUSTER = "
            "'bench_cluster'");
        const Request describe =
            makeRequest(http::verb::post, "/v1/resource/", &credentials, "DESCRIBE JOB bench_job");
        const auto described = fetchOnce(port, describe);
        const std::string requestId = nlohmann::json::parse(described.body()).at("requestId");
        const Request status = makeRequest(http::verb::get, "/v1/status/" + requestId, &credentials);
        const std::size_t describeSize = described.body().size();

        std::optional<Request> staticFile;
        if (options.nginxPort != 0) {
            std::ofstream(options.nginxRoot + "/describe.json") << std::string(describeSize, 'x');
            staticFile = makeRequest(http::verb::get, "/describe.json", nullptr);
        }

        std::printf(
            "jobdeckd on 127.0.0.1:%u; DESCRIBE answer %zu bytes; at most %zu requests or %.1f s per row\n\n",
            port, describeSize, options.requests, options.seconds);
        std::printf("%-34s %5s %10s %9s %9s %7s %9s %9s\n", "scenario", "conns", "req/s", "p50 ms", "p99 ms",
                    "errors", "cpu us/rq", "x nginx");
        // One row of load against jobdeckd, with the CPU time it took.
        const auto measure = [&](const std::string& name, int connections, Load load,
                                 std::optional<double> nginxRate) {
            const double cpuBefore = service.cpuSeconds();
            const LoadResult result = load.run(connections);
            printRow(name, connections, result, nginxRate, service.cpuSeconds() - cpuBefore);
            return result;
        };
        const std::chrono::duration<double> maxTime(options.seconds);
        const auto wanted = [&](const char* part) { return options.only.empty() || options.only == part; };
        for (const int connections : {1, 16, 64}) {
            if (!wanted("describe") && !wanted("status"))
                break;
            std::optional<double> nginxRate;
            if (staticFile) {
                const LoadResult nginx =
                    Load(options.nginxPort, {*staticFile}, options.requests, maxTime, false).run(connections);
                nginxRate = nginx.rate();
                printRow("nginx static file", connections, nginx, std::nullopt);
            }
            if (wanted("describe"))
                measure("DESCRIBE JOB (POST, Prefer: wait)", connections,
                        Load(port, {describe}, options.requests, maxTime), nginxRate);
            if (wanted("status"))
                measure("GET /v1/status/<id>", connections, Load(port, {status}, options.requests, maxTime),
                        nginxRate);
        }
        if (wanted("writes"))
            measureWrites(port, credentials, std::min<std::size_t>(options.requests, 2000), maxTime, measure);
        if (wanted("showjobs"))
            measureShowJobs(port, credentials, service);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_service_reads: %s\n", e.what());
        return 1;
    }
}
