#include "service/runs/ServiceMetrics.h"

#include "core/wire/SparkJobRun.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace jobdeck {

namespace {

// Seconds. Requests include waits held by `Prefer: wait` and long polls (up to 60 s).
constexpr std::array<double, 16> kRequestBounds{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                0.25,   0.5,   1,      2.5,   5,    10,    30,   60};
constexpr std::array<double, 16> kDatabaseBounds{0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                                 0.025,   0.05,   0.1,     0.25,   0.5,   1,      2.5,   10};

constexpr std::array<std::string_view, 3> kOutcomeNames{"success", "failed", "invalid"};
constexpr std::array<std::string_view, 3> kRefusalNames{"max_concurrent_runs", "idempotency_key_required",
                                                        "idempotency_key_conflict"};
constexpr std::array<std::string_view, 3> kDatabaseKindNames{"read", "write", "commit"};
constexpr std::array<std::string_view, 7> kMethods{"GET",  "POST",    "PUT",  "DELETE",
                                                   "HEAD", "OPTIONS", "PATCH"};

// "CREATE JOB" -> "create_job", for every alternative of Statement, then "unparsed".
template <std::size_t... I> std::vector<std::string> statementKindNames(std::index_sequence<I...>) {
    std::vector<std::string> names;
    for (const std::string_view action : {statementAction(Statement(std::in_place_index<I>))...}) {
        std::string name;
        for (const char c : action)
            name.push_back(c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
        names.push_back(std::move(name));
    }
    names.emplace_back("unparsed");
    return names;
}

const std::vector<std::string>& statementKinds() {
    static const std::vector<std::string> names =
        statementKindNames(std::make_index_sequence<std::variant_size_v<Statement>>());
    return names;
}

std::string number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

// A label value as the text format wants it: backslash, quote and line feed escaped.
std::string escaped(std::string_view value) {
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out.push_back('\\');
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out.push_back(c);
    }
    return out;
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
    out.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void sample(std::string& out, std::string_view name, std::string_view labels, std::string_view value) {
    out.append(name);
    if (!labels.empty())
        out.append("{").append(labels).append("}");
    out.append(" ").append(value).append("\n");
}

} // namespace

LatencyHistogram::LatencyHistogram(std::span<const double> bounds)
    : m_bounds(bounds)
    , m_buckets(std::make_unique<std::atomic<std::uint64_t>[]>(bounds.size() + 1)) {}

void LatencyHistogram::observe(std::chrono::nanoseconds duration) {
    const double seconds = std::chrono::duration<double>(duration).count();
    const auto bucket = std::lower_bound(m_bounds.begin(), m_bounds.end(), seconds) - m_bounds.begin();
    m_buckets[static_cast<std::size_t>(bucket)].fetch_add(1, std::memory_order_relaxed);
    m_sumNanos.fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(0, duration.count())),
                         std::memory_order_relaxed);
    m_count.fetch_add(1, std::memory_order_relaxed);
}

void LatencyHistogram::write(std::string& out, std::string_view name, std::string_view labels) const {
    const std::string prefix = labels.empty() ? std::string() : std::string(labels) + ",";
    // Read once, so that the buckets, +Inf and _count agree even while observations arrive.
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= m_bounds.size(); ++i) {
        cumulative += m_buckets[i].load(std::memory_order_relaxed);
        std::string bucketLabels = prefix;
        bucketLabels.append("le=\"").append(i < m_bounds.size() ? number(m_bounds[i]) : "+Inf").append("\"");
        sample(out, std::string(name) + "_bucket", bucketLabels, std::to_string(cumulative));
    }
    const double sum = static_cast<double>(m_sumNanos.load(std::memory_order_relaxed)) / 1e9;
    sample(out, std::string(name) + "_sum", labels, number(sum));
    sample(out, std::string(name) + "_count", labels, std::to_string(cumulative));
}

ServiceMetrics::ServiceMetrics() {
    for (std::size_t i = 0; i < kDatabaseKinds; ++i)
        m_database.push_back(std::make_unique<LatencyHistogram>(kDatabaseBounds));
}

void ServiceMetrics::countRequest(std::string_view method, std::string_view route, int status,
                                  std::chrono::nanoseconds duration) {
    // Only known methods become label values: a client can send any token there.
    const bool known = std::find(kMethods.begin(), kMethods.end(), method) != kMethods.end();
    const std::string_view methodLabel = known ? method : "other";
    const std::string_view routeLabel = route.empty() ? "none" : route;
    const std::lock_guard lock(m_requestsMutex);
    ++m_requests[{std::string(methodLabel), std::string(routeLabel), status}];
    auto it = m_requestLatency.find(routeLabel);
    if (it == m_requestLatency.end())
        it = m_requestLatency
                 .emplace(std::string(routeLabel), std::make_unique<LatencyHistogram>(kRequestBounds))
                 .first;
    it->second->observe(duration);
}

void ServiceMetrics::countStatement(const Statement* statement, ApiOperationStatus outcome) {
    std::size_t column = 0;
    switch (outcome) {
    case ApiOperationStatus::Success:
        column = 0;
        break;
    case ApiOperationStatus::Failed:
        column = 1;
        break;
    case ApiOperationStatus::Invalid:
        column = 2;
        break;
    case ApiOperationStatus::Pending:
        return;
    }
    const std::size_t row = statement ? statement->index() : kStatementKinds - 1;
    m_statements[row][column].fetch_add(1, std::memory_order_relaxed);
}

void ServiceMetrics::countAdmissionRefusal(AdmissionRefusal reason) {
    m_refusals[static_cast<std::size_t>(reason)].fetch_add(1, std::memory_order_relaxed);
}

void ServiceMetrics::statementTimed(Kind kind, std::chrono::nanoseconds spent) {
    m_database[static_cast<std::size_t>(kind)]->observe(spent);
}

void ServiceMetrics::writeRequests(std::string& out) const {
    const std::lock_guard lock(m_requestsMutex);
    header(out, "jobdeck_http_requests_total", "counter",
           "HTTP answers by method, route pattern (none: no route matched) and status code.");
    for (const auto& [key, count] : m_requests) {
        const auto& [method, route, status] = key;
        sample(out, "jobdeck_http_requests_total",
               "method=\"" + escaped(method) + "\",route=\"" + escaped(route) + "\",status=\"" +
                   std::to_string(status) + "\"",
               std::to_string(count));
    }
    header(out, "jobdeck_http_request_duration_seconds", "histogram",
           "Time from a request's header to its answer being written, by route pattern.");
    for (const auto& [route, histogram] : m_requestLatency)
        histogram->write(out, "jobdeck_http_request_duration_seconds", "route=\"" + escaped(route) + "\"");
}

void ServiceMetrics::writeStatements(std::string& out) const {
    header(out, "jobdeck_statements_total", "counter",
           "Statements executed, by kind and final outcome (success, failed, invalid).");
    const auto& kinds = statementKinds();
    for (std::size_t row = 0; row < kStatementKinds; ++row)
        for (std::size_t column = 0; column < kOutcomes; ++column)
            sample(out, "jobdeck_statements_total",
                   "kind=\"" + kinds[row] + "\",outcome=\"" + std::string(kOutcomeNames[column]) + "\"",
                   std::to_string(m_statements[row][column].load(std::memory_order_relaxed)));
    header(out, "jobdeck_run_admission_refusals_total", "counter",
           "RUN JOB statements refused at admission, by reason.");
    for (std::size_t i = 0; i < kRefusals; ++i)
        sample(out, "jobdeck_run_admission_refusals_total",
               "reason=\"" + std::string(kRefusalNames[i]) + "\"",
               std::to_string(m_refusals[i].load(std::memory_order_relaxed)));
}

void ServiceMetrics::writeDatabase(std::string& out) const {
    header(out, "jobdeck_database_statement_duration_seconds", "histogram",
           "Time SQLite spent on one SQL statement, by kind (read, write, commit: a COMMIT includes the "
           "fsync).");
    for (std::size_t i = 0; i < kDatabaseKinds; ++i)
        m_database[i]->write(out, "jobdeck_database_statement_duration_seconds",
                             "kind=\"" + std::string(kDatabaseKindNames[i]) + "\"");
}

std::string ServiceMetrics::render(const Snapshot& snapshot) const {
    std::string out;
    header(out, "jobdeck_build_info", "gauge", "Always 1; the version of the running jobdeckd.");
    sample(out, "jobdeck_build_info", "version=\"" + escaped(JOBDECK_VERSION) + "\"", "1");
    writeRequests(out);
    writeStatements(out);
    header(out, "jobdeck_runs", "gauge", "Runs kept by the service (all projects), by state.");
    std::int64_t queued = 0;
    for (const JobRunStatus state : {JobRunStatus::Queued, JobRunStatus::Running, JobRunStatus::Completed,
                                     JobRunStatus::Failed, JobRunStatus::Canceled}) {
        const std::string_view wire = jobRunStatusName(state);
        const auto it = snapshot.runsByState.find(std::string(wire));
        const std::int64_t count = it == snapshot.runsByState.end() ? 0 : it->second;
        if (state == JobRunStatus::Queued)
            queued = count;
        std::string label(jobRunStatusWord(state));
        std::transform(label.begin(), label.end(), label.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        sample(out, "jobdeck_runs", "state=\"" + label + "\"", std::to_string(count));
    }
    header(out, "jobdeck_run_queue_length", "gauge",
           "Runs waiting in QUEUED for their driver to start (all projects).");
    sample(out, "jobdeck_run_queue_length", "", std::to_string(queued));
    writeDatabase(out);
    if (snapshot.tlsCertificateExpiry) {
        header(out, "jobdeck_tls_certificate_expiry_timestamp_seconds", "gauge",
               "When the TLS certificate served to new connections expires (Unix time); reload a "
               "renewed one with SIGHUP.");
        sample(out, "jobdeck_tls_certificate_expiry_timestamp_seconds", "",
               std::to_string(*snapshot.tlsCertificateExpiry));
    }
    return out;
}

} // namespace jobdeck
