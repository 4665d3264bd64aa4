// LIBS: jobdeck_core
// Parse throughput of the statement language: a CREATE JOB with 5,000 parameters and SHOW JOBS,
// against nlohmann::json::parse of the same parameters as a JSON array, measured in the same run.
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Measurement {
    double statementsPerSecond = 0;
    double megabytesPerSecond = 0;
};

// Runs `parseOnce` until at least `seconds` have passed (and at least 3 times).
template <class F> Measurement measure(std::size_t inputBytes, double seconds, F&& parseOnce) {
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    std::size_t runs = 0;
    double elapsed = 0;
    do {
        parseOnce();
        ++runs;
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    } while (elapsed < seconds || runs < 3);
    return {static_cast<double>(runs) / elapsed,
            static_cast<double>(runs) * static_cast<double>(inputBytes) / elapsed / (1024.0 * 1024.0)};
}

} // namespace

int main() {
    using namespace jobdeck;
    std::vector<std::string> parameters = {"--class", "com.example.Backfill"};
    while (parameters.size() < 4999)
        parameters.push_back("--conf");
    for (std::size_t i = 2; i < parameters.size(); i += 2)
        parameters[i] = "spark.app.option" + std::to_string(i) + "=it's value " + std::to_string(i);
    parameters.push_back("s3://bucket/jobs/backfill.jar");

    const std::string createJob =
        printStatement(CreateJobStatement{"backfill", JobType::Jar, parameters, "onehouse_cluster_spark", 3});
    const std::string showJobs = "SHOW JOBS";
    const std::string jsonArray = nlohmann::json(parameters).dump();

    // Check once that the parse is complete and right before timing it.
    const ParseResult check = parseStatement(createJob);
    if (!check.statement || std::get<CreateJobStatement>(*check.statement).parameters != parameters ||
        nlohmann::json::parse(jsonArray).size() != parameters.size()) {
        std::fprintf(stderr, "bench_statementparser: the input did not parse back to its parameters\n");
        return EXIT_FAILURE;
    }

    std::size_t sink = 0; // keeps the results alive so the work is not optimised away
    const Measurement create = measure(createJob.size(), 1.0, [&] {
        sink += std::get<CreateJobStatement>(*parseStatement(createJob).statement).parameters.size();
    });
    const Measurement json =
        measure(jsonArray.size(), 1.0, [&] { sink += nlohmann::json::parse(jsonArray).size(); });
    const Measurement show =
        measure(showJobs.size(), 0.5, [&] { sink += parseStatement(showJobs).statement->index(); });

    std::printf("CREATE JOB, %zu parameters (%zu bytes): %.0f statements/s, %.1f MB/s\n", parameters.size(),
                createJob.size(), create.statementsPerSecond, create.megabytesPerSecond);
    std::printf(
        "reference nlohmann::json::parse of the same parameters (%zu bytes): %.0f arrays/s, %.1f MB/s\n",
        jsonArray.size(), json.statementsPerSecond, json.megabytesPerSecond);
    std::printf("ratio statement parser / json parser: %.2fx (MB/s)\n",
                create.megabytesPerSecond / json.megabytesPerSecond);
    std::printf("SHOW JOBS: %.0f statements/s, %.1f MB/s\n", show.statementsPerSecond,
                show.megabytesPerSecond);
    return sink == 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
