#pragma once

// What the benches that drive the real jobdeckd share (bench_runs, bench_replicas): blocking kept-alive
// loopback HTTP connections, statement and long-poll requests with credentials, percentiles, the RUN JOB
// admission rows, and waiting until a project has no active run.

#include "tests/service/tst_runsupport.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <QStringList>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

namespace jobdeck::bench {

namespace http = boost::beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
using Clock = std::chrono::steady_clock;

// The admission rows spread their RUN JOBs over jobs a0..a15, 1,000 active runs each at most.
constexpr int kAdmissionJobs = 16;

inline double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Samples in milliseconds and their quantiles.
struct Figures {
    std::vector<double> ms;
    double at(double q) const {
        if (ms.empty())
            return 0;
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
    }
};

// A numeric command line option, `--name value`, and where its value goes.
struct NumberOption {
    QString name;
    std::variant<int*, double*> target;
};

// Reads args[1..] as `--name value` pairs of `options`; throws with one line for an unknown name, a
// missing value or one that is not a number. Ranges are the caller's.
inline void readNumberOptions(const QStringList& args, const std::vector<NumberOption>& options) {
    for (int i = 1; i < args.size(); i += 2) {
        const QString& arg = args[i];
        const auto option = std::find_if(options.begin(), options.end(),
                                         [&](const NumberOption& o) { return o.name == arg; });
        if (option == options.end())
            throw std::runtime_error("unknown argument " + arg.toStdString());
        if (i + 1 >= args.size())
            throw std::runtime_error(arg.toStdString() + " needs a value");
        bool ok = false;
        const QString& value = args[i + 1];
        if (int* const* number = std::get_if<int*>(&option->target))
            **number = value.toInt(&ok);
        else
            *std::get<double*>(option->target) = value.toDouble(&ok);
        if (!ok)
            throw std::runtime_error(arg.toStdString() + " needs a number, got " + value.toStdString());
    }
}

// One kept-alive loopback connection, blocking exchanges.
class Connection final {
public:
    explicit Connection(unsigned short port)
        : m_stream(m_io) {
        m_stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    }
    Response exchange(const Request& request) {
        m_stream.expires_after(std::chrono::seconds(70));
        http::write(m_stream, request);
        Response response;
        http::read(m_stream, m_buffer, response);
        return response;
    }

private:
    boost::asio::io_context m_io;
    boost::beast::tcp_stream m_stream;
    boost::beast::flat_buffer m_buffer;
};

// A kept-alive request with the credentials.
inline Request authenticated(http::verb verb, const std::string& target, const ApiCredentials& who) {
    Request request{verb, target, 11};
    request.set(http::field::host, "127.0.0.1");
    request.keep_alive(true);
    for (const auto& [name, value] : who.headers())
        request.set(name.toStdString(), value.toStdString());
    request.prepare_payload();
    return request;
}

inline Request get(const std::string& target, const ApiCredentials& who) {
    return authenticated(http::verb::get, target, who);
}

// POST /v1/resource/ that waits for the final status.
inline Request statement(const std::string& text, const ApiCredentials& who,
                         const std::string& idempotencyKey = {}) {
    Request request = authenticated(http::verb::post, "/v1/resource/", who);
    if (!idempotencyKey.empty())
        request.set("Idempotency-Key", idempotencyKey);
    request.set(http::field::content_type, "application/json");
    request.set("Prefer", "wait=10");
    request.body() = nlohmann::json{{"statement", text}}.dump();
    request.prepare_payload();
    return request;
}

// GET /v1/events after `after`, waiting up to `waitSeconds`; the page (a discarded value when not JSON).
inline nlohmann::json eventsPage(Connection& connection, const ApiCredentials& who, std::int64_t after,
                                 int waitSeconds) {
    const auto target = "/v1/events?after=" + std::to_string(after) + "&wait=" + std::to_string(waitSeconds);
    return nlohmann::json::parse(connection.exchange(get(target, who)).body(), nullptr, false);
}

// The `next` of the newest page: where a long poll starts so that it sees only what comes after.
inline std::int64_t latestEventSeq(Connection& connection, const ApiCredentials& who) {
    std::int64_t after = 0;
    for (int i = 0; i < 1000; ++i) { // pages hold at most 1,000 events
        const auto next = eventsPage(connection, who, after, 0).at("next").get<std::int64_t>();
        if (next == after)
            break;
        after = next;
    }
    return after;
}

inline std::string runIdIn(const Response& response) {
    const auto status = nlohmann::json::parse(response.body(), nullptr, false);
    if (!status.is_object() || status.value("apiStatus", "") != runtest::kSuccess)
        return {};
    return status["apiResponse"]["runJobApiResponse"].value("jobRunId", "");
}

struct AdmissionRow {
    double seconds = 0;
    int admitted = 0;
    int errors = 0;
    Figures latency;
};

// One client: RUN JOB <jobPrefix><i % jobs> after RUN JOB on its own connection until `total` were sent (by
// all clients) or the deadline.
inline void admitOnOneConnection(unsigned short port, const ApiCredentials& who, int jobs, int total,
                                 const std::string& keyPrefix, std::atomic<int>& next,
                                 Clock::time_point deadline, AdmissionRow& mine,
                                 const std::string& jobPrefix) {
    Connection connection(port);
    for (int i = next++; i < total && Clock::now() < deadline; i = next++) {
        const Request request =
            statement("RUN JOB " + jobPrefix + std::to_string(i % jobs), who, keyPrefix + std::to_string(i));
        const auto sent = Clock::now();
        const bool ok = !runIdIn(connection.exchange(request)).empty();
        mine.latency.ms.push_back(msSince(sent));
        ++(ok ? mine.admitted : mine.errors);
    }
}

// `clients` threads, client c on ports[c % ports.size()] (round-robin over replicas), RUN JOB after
// RUN JOB of jobs <jobPrefix>0..<jobPrefix><jobs-1> until `total` were sent or the time is up. Keys are
// distinct, so each acknowledged answer is one new durable run.
inline AdmissionRow admit(const std::vector<unsigned short>& ports, const ApiCredentials& who, int jobs,
                          int clients, int total, double seconds, const std::string& keyPrefix,
                          const std::string& jobPrefix = "a") {
    std::atomic<int> next{0};
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<AdmissionRow> perClient(static_cast<std::size_t>(clients));
    std::vector<std::thread> threads;
    const auto started = Clock::now();
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            AdmissionRow& mine = perClient[static_cast<std::size_t>(c)];
            try {
                admitOnOneConnection(ports[static_cast<std::size_t>(c) % ports.size()], who, jobs, total,
                                     keyPrefix, next, deadline, mine, jobPrefix);
            } catch (const std::exception& e) {
                std::fprintf(stderr, "client %d: %s\n", c, e.what());
                ++mine.errors;
            }
        });
    }
    for (auto& t : threads)
        t.join();
    AdmissionRow row;
    row.seconds = msSince(started) / 1000;
    for (const auto& mine : perClient) {
        row.admitted += mine.admitted;
        row.errors += mine.errors;
        row.latency.ms.insert(row.latency.ms.end(), mine.latency.ms.begin(), mine.latency.ms.end());
    }
    return row;
}

// Waits (bounded) until no run of the project is active, so one row does not load the next. On a
// connection of its own: jobdeckd closes one that stays silent for its first-byte timeout (5 s).
inline bool waitUntilIdle(unsigned short port, const ApiCredentials& who) {
    Connection connection(port);
    const Request show = statement("SHOW JOB_RUNS ACTIVE LIMIT 1", who); // whether any is left, no more
    for (int i = 0; i < 600; ++i) {
        const auto status = nlohmann::json::parse(connection.exchange(show).body(), nullptr, false);
        if (status.is_object() && status.value("apiStatus", "") == runtest::kSuccess &&
            status["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"].empty())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

} // namespace jobdeck::bench
