// LIBS: jobdeck_core
// Core operations against the budgets: classify + validate a typical 20-parameter job (< 2 µs) and a
// 5,000-parameter job (< 1 ms), and parse 10,000 statements; each next to a reference measured in the
// same run so the figures can be compared across machines.
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterValidator.h"
#include "core/statements/StatementParser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
volatile std::size_t g_sink = 0; // keeps results alive so the optimiser cannot drop the work

// The machine is shared: the iterations run in 11 batches, and the median batch is the figure (the best
// is printed too). A mean over one long run counts every time the process was preempted.
struct Timing {
    double median = 0;
    double best = 0;
};

template <typename F> Timing nsPerOp(int iterations, F&& op) {
    op(); // warm-up
    constexpr int kBatches = 11;
    const int perBatch = std::max(1, iterations / kBatches);
    std::array<double, kBatches> ns{};
    for (double& batch : ns) {
        const auto start = Clock::now();
        for (int i = 0; i < perBatch; ++i)
            op();
        batch = std::chrono::duration<double, std::nano>(Clock::now() - start).count() / perBatch;
    }
    std::sort(ns.begin(), ns.end());
    return {ns[kBatches / 2], ns.front()};
}

std::vector<std::string> typicalJob() {
    return {"--class",
            "com.example.CountTransactions",
            "--name",
            "count_transactions",
            "--conf",
            "spark.executor.memory=4g",
            "--conf",
            "spark.sql.shuffle.partitions=200",
            "--conf",
            "spark.executor.cores=2",
            "--hudi-conf",
            "hoodie.datasource.write.operation=upsert",
            "--hudi-conf",
            "hoodie.table.name=transactions",
            "--jars",
            "s3://b/libs/extra.jar",
            "s3://onehouse-customer-bucket-12345/jobs/count-transactions.jar",
            "--date",
            "2024-08-19",
            "--verbose"};
}

std::vector<std::string> largeJob() {
    std::vector<std::string> p{"--class", "com.example.Big"};
    for (int i = 0; p.size() < 4998; ++i) {
        p.push_back(i % 2 ? "--conf" : "--hudi-conf");
        p.push_back(i % 2 ? "spark.app.key" + std::to_string(i) + "=v"
                          : "hoodie.custom.key" + std::to_string(i) + "=1");
    }
    p.push_back("s3://b/big.jar");
    p.push_back("--arg");
    return p;
}

std::vector<std::string> statementMix() {
    const std::vector<std::string> kinds{
        "CREATE JOB `count_transactions` TYPE = 'JAR' PARAMETERS = ( '--class', 'com.example.MySparkApp', "
        "'--conf', 'spark.executor.memory=4g', "
        "'s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar' ) CLUSTER = 'onehouse_cluster_spark' "
        "MAX_CONCURRENT_RUNS = 3",
        "RUN JOB nightly ARGUMENTS = ( '--date' = '2024-08-19', '--filter' = 'a=b, c=''d''' )",
        "RUN JOB count_transactions",
        "SHOW JOBS",
        "DESCRIBE JOB count_transactions",
        "SHOW JOB_RUNS",
        "DESCRIBE JOB_RUN `r-42` JOB_NAME = 'count_transactions'",
        "ALTER JOB j SET CLUSTER = 'c'",
        "CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 8 MIN_OCU = 2 WITH 'spark.executor.memory' = '4g'",
        "DELETE JOB old_job"};
    std::vector<std::string> all;
    for (int i = 0; i < 10000; ++i)
        all.push_back(kinds[std::size_t(i) % kinds.size()]);
    return all;
}

void report(const char* what, Timing t, const char* refWhat, Timing ref, double budgetNs) {
    std::printf("%-44s %12.0f ns/op (best %.0f)   ref %-34s %12.0f ns/op   ratio %6.2f", what, t.median,
                t.best, refWhat, ref.median, t.median / ref.median);
    if (budgetNs > 0)
        std::printf("   budget %.0f ns: %s", budgetNs, t.median < budgetNs ? "MET" : "MISSED");
    std::printf("\n");
}

void benchParameters(const char* what, const std::vector<std::string>& params, int iterations,
                     double budgetNs) {
    const jobdeck::ValidationContext context;
    // As the editor does on every keystroke: classify once (for the colours) and validate that reading.
    const Timing t = nsPerOp(iterations, [&] {
        const jobdeck::ClassifiedParameters classified = jobdeck::classifyTokens(params);
        g_sink = g_sink + classified.tokens.size() +
                 jobdeck::validateParameters(params, classified, context).size();
    });
    const Timing ref = nsPerOp(iterations, [&] {
        std::vector<std::string> copy = params;
        g_sink = g_sink + copy.size();
    });
    report(what, t, "copy of the parameter vector", ref, budgetNs);
    // Where the time goes: classification alone, and validation without the advice pass.
    const double classifyNs =
        nsPerOp(iterations, [&] { g_sink = g_sink + jobdeck::classifyTokens(params).tokens.size(); }).median;
    jobdeck::ValidationContext noAdvice;
    noAdvice.withAdvice = false;
    const double noAdviceNs = nsPerOp(iterations, [&] {
                                  g_sink = g_sink + jobdeck::validateParameters(params, noAdvice).size();
                              }).median;
    std::printf("    of which: classify alone %.0f ns/op, validate without advice %.0f ns/op\n", classifyNs,
                noAdviceNs);
}

} // namespace

int main() {
    benchParameters("classify+validate, typical 20-parameter job", typicalJob(), 44000, 2000);
    benchParameters("classify+validate, 5,000-parameter job", largeJob(), 220, 1e6);

    const std::vector<std::string> statements = statementMix();
    std::vector<std::string> documents; // the same content as JSON documents, for the reference
    for (const std::string& s : statements)
        documents.push_back(nlohmann::json{{"statement", s}, {"kind", s.substr(0, s.find(' '))}}.dump());
    const auto perStatement = [](Timing t) { return Timing{t.median / 10000, t.best / 10000}; };
    const Timing t = nsPerOp(11, [&] {
        for (const std::string& s : statements)
            g_sink = g_sink + (jobdeck::parseStatement(s).statement ? 1 : 0);
    });
    const Timing ref = nsPerOp(11, [&] {
        for (const std::string& d : documents)
            g_sink = g_sink + nlohmann::json::parse(d).size();
    });
    report("parse 10,000 statements (per statement)", perStatement(t), "json::parse of same-size document",
           perStatement(ref), 0);
    return 0;
}
