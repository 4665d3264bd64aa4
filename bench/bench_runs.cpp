// LIBS: jobdeck_service jobdeck_testsupport Qt6::Core Qt6::Network Boost::boost Threads::Threads
// Runs through the real jobdeckd (own data directory, free loopback port):
//  - RUN JOB admissions per second at 1 and 16 concurrent kept-alive clients, each acknowledged only
//    once durable, distinct Idempotency-Keys, jobs with a high concurrency limit on a cluster with
//    enough driver slots (every admitted run is also started and ends);
//  - driver exit -> final state visible through a GET /v1/events long poll (p50, p99), and RUN JOB ->
//    final state visible;
// next to references measured in the same run: an fsync'd SQLite commit (the service's own
// settings, WAL + synchronous=FULL) and fork+exec+waitpid of the same driver.
// The driver is a stand-in spark-submit (--runner spark-submit) that prints CLOCK_REALTIME in ns and
// ends at once, so the exit time is known to within the exec of `date`.
// Usage: bench_runs [--runs N] [--admissions N] [--seconds S]
//   --runs: exit -> event samples (default 100); --admissions: RUN JOBs per row (default 1000);
//   --seconds: cap per admission row (default 10).
#include "bench/ServiceBench.h"
#include "service/stores/SqliteDatabase.h"

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace jobdeck;
using namespace jobdeck::runtest;
using namespace jobdeck::bench;

namespace {

struct Options {
    int runs = 100;
    int admissions = 1000;
    double seconds = 10;
};

std::int64_t realtimeNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

struct ExitSample {
    double exitToVisibleMs = 0;
    double runToVisibleMs = 0;
};

// One run of job `lat`: RUN JOB, then long polls until its final state arrives; the driver's exit
// time is what it printed last.
ExitSample oneRun(Connection& statements, Connection& events, const ApiCredentials& who,
                  const QString& dataDir, std::int64_t& after) {
    const auto started = Clock::now();
    const std::string id = runIdIn(statements.exchange(statement("RUN JOB lat", who)));
    if (id.empty())
        throw std::runtime_error("RUN JOB lat failed");
    std::int64_t visibleNs = 0;
    for (int polls = 0; polls < 100 && visibleNs == 0; ++polls) {
        const auto page = eventsPage(events, who, after, 10);
        const std::int64_t seenNs = realtimeNs();
        after = page.at("next").get<std::int64_t>();
        for (const auto& event : page.at("events"))
            if (event.value("jobRunId", "") == id &&
                (event["status"] == kCompleted || event["status"] == kFailed || event["status"] == kCanceled))
                visibleNs = seenNs;
    }
    if (visibleNs == 0)
        throw std::runtime_error("run " + id + " never ended");
    ExitSample sample;
    sample.runToVisibleMs = msSince(started);
    std::ifstream log((dataDir + "/runs/").toStdString() + id + "/driver.log");
    std::int64_t exitNs = 0;
    if (!(log >> exitNs))
        throw std::runtime_error("run " + id + ": the driver printed no time");
    sample.exitToVisibleMs = static_cast<double>(visibleNs - exitNs) / 1e6;
    return sample;
}

// Reference: the same driver started and reaped directly.
Figures forkExecWait(const std::string& driver, int n) {
    Figures f;
    for (int i = 0; i < n; ++i) {
        const auto started = Clock::now();
        const pid_t pid = ::fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1);
            ::execl(driver.c_str(), driver.c_str(), static_cast<char*>(nullptr));
            _exit(127);
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        f.ms.push_back(msSince(started));
    }
    return f;
}

// Reference: one-row INSERT transactions on a database opened as the service opens its own.
Figures fsyncedCommits(const std::string& path, int n) {
    auto db = SqliteDatabase::open(path);
    db->executeScript("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)");
    Figures f;
    for (int i = 0; i < n; ++i) {
        const auto started = Clock::now();
        db->execute("INSERT INTO t(v) VALUES (?)", std::string(200, 'x'));
        f.ms.push_back(msSince(started));
    }
    return f;
}

Options parseOptions(const QStringList& args) {
    Options options;
    readNumberOptions(
        args,
        {{"--runs", &options.runs}, {"--admissions", &options.admissions}, {"--seconds", &options.seconds}});
    if (options.runs < 1 || options.runs > 10000 || options.admissions < 1 || options.admissions > 10000 ||
        options.seconds <= 0 || options.seconds > 60)
        throw std::runtime_error("--runs and --admissions must be in [1, 10000], --seconds in (0, 60]");
    return options;
}

bool ok(const nlohmann::json& status) {
    return statusOf(status) == kSuccess;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    try {
        const Options options = parseOptions(app.arguments());
        QTemporaryDir scratch;
        const std::string driver = (scratch.path() + "/driver").toStdString();
        {
            std::ofstream script(driver);
            script << "#!/bin/sh\nexec date +%s%N\n";
        }
        QFile::setPermissions(QString::fromStdString(driver),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);

        TestService service({"--runner", "spark-submit", "--spark-submit", QString::fromStdString(driver)});
        Project project;
        if (!service.start() || !project.create(service))
            throw std::runtime_error("cannot start jobdeckd: " + service.lastError().toStdString());
        const ApiCredentials& op = project.op;
        const QString appPath = QString::fromStdString(driver);
        bool setUp =
            ok(must(service, project.admin, "ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 1000")) &&
            ok(must(service, op, "CREATE CLUSTER b TYPE = 'Spark' MAX_OCU = 10000 MIN_OCU = 1")) &&
            ok(must(service, op,
                    "CREATE JOB lat TYPE = 'PYTHON' PARAMETERS = " + tuple({appPath}) + " CLUSTER = 'b'"));
        for (int j = 0; j < kAdmissionJobs && setUp; ++j)
            setUp = ok(must(service, op,
                            QString("CREATE JOB a%1 TYPE = 'PYTHON' PARAMETERS = %2 CLUSTER = 'b' "
                                    "MAX_CONCURRENT_RUNS = 1000")
                                .arg(j)
                                .arg(tuple({appPath}))));
        if (!setUp)
            throw std::runtime_error("setting up the project failed");

        const Figures spawn = forkExecWait(driver, options.runs);
        const Figures commits = fsyncedCommits((scratch.path() + "/reference.db").toStdString(), 300);
        const double commitsPerSecond = 1000.0 / commits.at(0.5);
        std::printf("jobdeckd %s, driver: /bin/sh exec date (spark-submit runner)\n\n", JOBDECKD_PATH);
        std::printf("reference: fsync'd SQLite commit (WAL, synchronous=FULL): p50 %.2f ms, p99 %.2f ms "
                    "(%.0f commits/s at p50)\n",
                    commits.at(0.5), commits.at(0.99), commitsPerSecond);
        std::printf("reference: fork+exec+waitpid of the driver: p50 %.2f ms, p99 %.2f ms\n\n", spawn.at(0.5),
                    spawn.at(0.99));

        std::printf("%-44s %7s %8s %8s %8s %6s %10s\n", "RUN JOB admitted (durable, distinct keys)",
                    "clients", "runs/s", "p50 ms", "p99 ms", "errors", "x commits/s");
        for (const int clients : {1, 16}) {
            const auto row = admit({service.port()}, op, kAdmissionJobs, clients, options.admissions,
                                   options.seconds, "k" + std::to_string(clients) + "-");
            const double rate = row.admitted / row.seconds;
            std::printf("%-44s %7d %8.0f %8.2f %8.2f %6d %10.2f\n", "", clients, rate, row.latency.at(0.5),
                        row.latency.at(0.99), row.errors, rate / commitsPerSecond);
            std::fflush(stdout);
            if (!waitUntilIdle(service.port(), op))
                throw std::runtime_error("the admitted runs did not all end within a minute");
        }

        Connection control(service.port());
        Connection events(service.port());
        // Start after everything the admission rows published.
        std::int64_t after = latestEventSeq(events, op);
        Figures exitToVisible;
        Figures runToVisible;
        for (int i = 0; i < options.runs; ++i) {
            const auto sample = oneRun(control, events, op, service.dataDir(), after);
            exitToVisible.ms.push_back(sample.exitToVisibleMs);
            runToVisible.ms.push_back(sample.runToVisibleMs);
        }
        std::printf("\n%-44s %5s %8s %8s %8s %s\n", "one run at a time", "n", "p50 ms", "p99 ms", "max ms",
                    "p50 x reference");
        // Both references: the path is one commit plus a few thread and process wake-ups.
        std::printf("%-44s %5d %8.2f %8.2f %8.2f %.1f x fsync'd commit, %.2f x fork+exec+waitpid\n",
                    "driver exit -> final state via events", options.runs, exitToVisible.at(0.5),
                    exitToVisible.at(0.99), exitToVisible.at(1), exitToVisible.at(0.5) / commits.at(0.5),
                    exitToVisible.at(0.5) / spawn.at(0.5));
        std::printf("%-44s %5d %8.2f %8.2f %8.2f %.1f x fork+exec+waitpid\n",
                    "RUN JOB -> final state via events", options.runs, runToVisible.at(0.5),
                    runToVisible.at(0.99), runToVisible.at(1), runToVisible.at(0.5) / spawn.at(0.5));
        service.stop();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_runs: %s\n", e.what());
        return 1;
    }
}
