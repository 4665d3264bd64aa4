// LIBS: jobdeck_service
// CREATE JOB and ALTER JOB per second through StatementExecutor, in-process, with durability on
// (WAL, synchronous=FULL: each acknowledged statement is on disk), next to a reference measured in the
// same run on the same file system: a raw SQLite INSERT of a row of the same size, each in its own
// transaction with the same settings. The ratio says what parsing, validation, the audit entry and the
// event cost on top of the one durable write they share.
#include "service/runs/EventBus.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/SqliteStores.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

using namespace jobdeck;
using Clock = std::chrono::steady_clock;

namespace {

double perSecond(int count, Clock::duration elapsed) {
    return count / std::chrono::duration<double>(elapsed).count();
}

std::string parametersFor(int i) {
    return "'--class', 'com.example.MySparkApp', '--conf', 'spark.executor.memory=4g', '--hudi-conf', "
           "'hoodie.datasource.meta.sync.glue.catalogId=123456789012', "
           "'s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar', '--date', '2026-11-" +
           std::to_string(i % 28 + 1) + "'";
}

} // namespace

int main(int argc, char** argv) {
    const int count = argc > 1 ? std::atoi(argv[1]) : 200;
    if (count < 1) {
        std::fprintf(stderr, "usage: %s [statements per measurement, default 200]\n", argv[0]);
        return 2;
    }
    char pattern[] = "/tmp/bench_storage_writes.XXXXXX";
    if (!mkdtemp(pattern)) {
        std::perror("mkdtemp");
        return 1;
    }
    const std::filesystem::path dir(pattern);
    int status = 0;
    try {
        auto stores = SqliteStores::open("sqlite:" + (dir / "jobdeck.db").string());
        EventBus events(stores->events());
        StatementExecutor executor(*stores, events);
        const CreatedKey key = stores->keys().createKey("bench", Role::Admin);
        RequestContext context;
        context.principal = *stores->keys().authenticate(key.projectUid, key.apiKey, key.apiSecret);
        const auto check = [&](const std::string& statement) {
            const StatusJson s = executor.execute(context, statement);
            if (s.apiStatus() != ApiOperationStatus::Success)
                throw std::runtime_error(statement + " -> " + s.errorMessage().value_or("?"));
        };
        check("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 0");
        check("ALTER PROJECT SET HUDI_CONFIGS = ENABLED");
        check("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.meta.sync.')");

        auto start = Clock::now();
        for (int i = 0; i < count; ++i)
            check("CREATE JOB job_" + std::to_string(i) + " TYPE = 'JAR' PARAMETERS = (" + parametersFor(i) +
                  ") CLUSTER = 'c'");
        const double creates = perSecond(count, Clock::now() - start);

        start = Clock::now();
        for (int i = 0; i < count; ++i)
            check("ALTER JOB job_" + std::to_string(i) + " SET PARAMETERS = (" + parametersFor(i + 1) + ")");
        const double alters = perSecond(count, Clock::now() - start);

        // The reference: the same durability, one row of about the stored job's size per transaction.
        auto raw = SqliteDatabase::open((dir / "reference.db").string());
        raw->executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, parameters TEXT, at TEXT)");
        const std::string row = "[\"" + parametersFor(0) + "\"]";
        start = Clock::now();
        for (int i = 0; i < count; ++i)
            raw->transaction([&] {
                raw->execute("INSERT INTO t(name, parameters, at) VALUES (?, ?, ?)",
                             "job_" + std::to_string(i), row, "2026-11-30T05:00:00.000Z");
            });
        const double reference = perSecond(count, Clock::now() - start);

        std::printf("bench_storage_writes: %d statements each, durability on (WAL, synchronous=FULL)\n",
                    count);
        std::printf("  CREATE JOB via StatementExecutor   %10.1f /s\n", creates);
        std::printf("  ALTER JOB via StatementExecutor    %10.1f /s\n", alters);
        std::printf("  reference: raw INSERT + COMMIT     %10.1f /s\n", reference);
        std::printf("  ratio reference/CREATE JOB         %10.2f\n", reference / creates);
        std::printf("  ratio reference/ALTER JOB          %10.2f\n", reference / alters);
        events.stop();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_storage_writes: %s\n", e.what());
        status = 1;
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return status;
}
