#pragma once

#include "core/statements/Statement.h"
#include "core/wire/ApiStatus.h"
#include "service/stores/StatementTimer.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

namespace jobdeck {

// A Prometheus histogram with fixed bucket bounds (seconds); observe() is lock-free.
class LatencyHistogram final {
public:
    explicit LatencyHistogram(std::span<const double> bounds);
    void observe(std::chrono::nanoseconds duration);
    // The _bucket, _sum and _count lines of the series with `labels` (`a="x",b="y"` or empty).
    void write(std::string& out, std::string_view name, std::string_view labels) const;

private:
    std::span<const double> m_bounds;
    std::unique_ptr<std::atomic<std::uint64_t>[]> m_buckets; // not cumulative; one past the bounds: +Inf
    std::atomic<std::uint64_t> m_count{0};
    std::atomic<std::uint64_t> m_sumNanos{0};
};

// jobdeckd's figures for `GET /metrics`, in Prometheus' text format (0.0.4), written directly.
// Aggregate only: label values come from fixed sets (methods, route patterns, statement kinds,
// outcomes, run states, status codes), never from a project, job, key or path, so the number of
// series stays bounded whatever clients send. Thread-safe.
class ServiceMetrics final : public StatementTimer {
public:
    ServiceMetrics();

    // One HTTP answer: `route` is the matched route's pattern (empty: none matched).
    void countRequest(std::string_view method, std::string_view route, int status,
                      std::chrono::nanoseconds duration);
    // One executed statement; `statement` null when it did not parse. PENDING is not counted.
    void countStatement(const Statement* statement, ApiOperationStatus outcome);

    enum class AdmissionRefusal { MaxConcurrentRuns, IdempotencyKeyRequired, IdempotencyKeyConflict };
    // RUN JOB refused at admission (docs/runs.md, Admission).
    void countAdmissionRefusal(AdmissionRefusal reason);

    void statementTimed(Kind kind, std::chrono::nanoseconds spent) override;

    // Figures read when scraped: runs by state (wire names, SPARK_JOB_RUN_STATUS_*) of every project.
    struct Snapshot {
        std::map<std::string, std::int64_t> runsByState;
        std::optional<std::int64_t> tlsCertificateExpiry; // seconds since the epoch; nullopt: plain HTTP
    };
    std::string render(const Snapshot& snapshot) const;

private:
    static constexpr std::size_t kStatementKinds = std::variant_size_v<Statement> + 1; // + unparsed
    static constexpr std::size_t kOutcomes = 3; // success, failed, invalid
    static constexpr std::size_t kRefusals = 3;
    static constexpr std::size_t kDatabaseKinds = 3;

    void writeRequests(std::string& out) const;
    void writeStatements(std::string& out) const;
    void writeDatabase(std::string& out) const;

    mutable std::mutex m_requestsMutex;
    std::map<std::tuple<std::string, std::string, int>, std::uint64_t> m_requests; // method, route, status
    std::map<std::string, std::unique_ptr<LatencyHistogram>, std::less<>> m_requestLatency; // by route
    std::array<std::array<std::atomic<std::uint64_t>, kOutcomes>, kStatementKinds> m_statements{};
    std::array<std::atomic<std::uint64_t>, kRefusals> m_refusals{};
    std::vector<std::unique_ptr<LatencyHistogram>> m_database; // by StatementTimer::Kind
};

} // namespace jobdeck
