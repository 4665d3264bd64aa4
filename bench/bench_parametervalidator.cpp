// LIBS: jobdeck_core
// The editor re-validates a Job's parameters on every keystroke, so a 5,000-parameter job must validate
// well under one 60 Hz frame (16 ms). Measures validateParameters() with and without advice, the
// classifier alone and the text forms, each against references measured in the same run: copying the
// vector of strings, and nlohmann::json dump of it.
#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/ParameterValidator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

using namespace jobdeck;

namespace {

// Milliseconds per run of `work`, the best of runs lasting at least `seconds` in total (and at least 5).
template <class F> double bestMs(double seconds, F&& work) {
    using Clock = std::chrono::steady_clock;
    double best = 1e9, total = 0;
    std::size_t runs = 0;
    while (total < seconds || runs < 5) {
        const auto start = Clock::now();
        work();
        const double elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        best = std::min(best, elapsed);
        total += elapsed / 1000.0;
        ++runs;
    }
    return best;
}

// A realistic large job: spark-submit options, Spark tuning, 200 real Hudi configs from the catalogue at
// their documented defaults, a few mistakes (a key outside the allow-list, several pairs in one flag, a
// hoodie key in --conf, a typo), then application arguments with Hudi Streamer-style pairs after the path.
std::vector<std::string> realisticJob(std::size_t size) {
    std::vector<std::string> p{"--class",
                               "com.example.MySparkApp",
                               "--name",
                               "nightly-ingest",
                               "--jars",
                               "s3://b/lib/a.jar,s3://b/lib/b.jar",
                               "--verbose",
                               "--executor-memory",
                               "8g",
                               "--conf",
                               "hoodie.upsert.shuffle.parallelism=400"};
    for (int i = 0; i < 300; ++i) {
        p.emplace_back("--conf");
        p.push_back("spark.sql.custom.setting" + std::to_string(i) + "=" + std::to_string(i));
    }
    int hudi = 0;
    for (const HudiConfigEntry& e : HudiCatalogue::instance().entries()) {
        if (hudi == 200)
            break;
        if (e.defaultValue.empty() || !HudiConfigPolicy::allowlistCovers({"hoodie."}, e.key) ||
            HudiConfigPolicy::platformManagedValue(e.key))
            continue;
        p.emplace_back("--hudi-conf");
        p.push_back(e.key + "=" + e.defaultValue);
        ++hudi;
    }
    p.insert(p.end(),
             {"--hudi-conf", "hoodie.datasource.meta.sync.glue.catalogId=123456789012", "--hudi-conf",
              "hoodie.x1=y1,hoodie.x2=y2", "--hudi-conf", "hoodie.datasource.hive_sync.databse=analytics",
              "--hudi-conf", "hoodie.write.lock.provider=x",
              "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"});
    for (int i = 0; p.size() + 1 < size; ++i) {
        if (i % 100 == 0) {
            p.emplace_back("--hudi-conf");
            p.push_back("hoodie.streamer.source" + std::to_string(i) + "=x");
        } else {
            p.push_back("--arg" + std::to_string(i));
            p.push_back("value-" + std::to_string(i));
        }
    }
    p.resize(size, "tail");
    return p;
}

void row(const char* name, double ms, double copyMs, double dumpMs) {
    std::printf("%-40s %9.3f ms   x%8.1f copy   x%6.2f json dump\n", name, ms, ms / copyMs, ms / dumpMs);
}

} // namespace

int main() {
    const std::vector<std::string> params = realisticJob(5000);
    ValidationContext context;
    context.settings.hudiConfigsEnabled = true;
    context.settings.hudiConfigAllowlist = {"hoodie."};
    ValidationContext noAdvice = context;
    noAdvice.withAdvice = false;

    std::size_t sink = 0;
    const double copyMs = bestMs(0.5, [&] {
        std::vector<std::string> copy = params;
        sink += copy.size();
    });
    const double dumpMs = bestMs(0.5, [&] { sink += nlohmann::json(params).dump().size(); });

    const auto diags = validateParameters(params, context);
    std::printf("job: %zu parameters, %zu diagnostics, refusal: %s\n\n", params.size(), diags.size(),
                refusalMessage(diags).value_or("(accepted)").c_str());
    std::printf("%-40s %9.3f ms\n", "reference: copy vector<string>", copyMs);
    std::printf("%-40s %9.3f ms\n", "reference: nlohmann::json dump", dumpMs);
    row("classifyParameters", bestMs(1.0, [&] { sink += classifyParameters(params).tokens.size(); }), copyMs,
        dumpMs);
    const double plain = bestMs(1.0, [&] { sink += validateParameters(params, noAdvice).size(); });
    row("validateParameters (no advice)", plain, copyMs, dumpMs);
    const double full = bestMs(1.0, [&] { sink += validateParameters(params, context).size(); });
    row("validateParameters (with advice)", full, copyMs, dumpMs);
    const std::string json = formatParameterText(params, ParameterTextForm::JsonArray);
    row("parse JSON array text",
        bestMs(0.5,
               [&] { sink += parseParameterText(json, ParameterTextForm::JsonArray).parameters.size(); }),
        copyMs, dumpMs);
    row("format + parse shell text",
        bestMs(0.5,
               [&] {
                   sink += parseParameterText(formatParameterText(params, ParameterTextForm::ShellCommand),
                                              ParameterTextForm::ShellCommand)
                               .parameters.size();
               }),
        copyMs, dumpMs);
    std::printf("\nbudget: 16 ms per keystroke; validation with advice uses %.1f%% of it\n",
                full / 16.0 * 100.0);
    return sink == 0 ? 1 : 0;
}
