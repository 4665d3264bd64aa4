// LIBS: jobdeck_service jobdeck_testsupport Qt6::Core Qt6::Network Boost::boost Threads::Threads
// Runs through the real jobdeckd (own data directory, free loopback port):
//  - RUN JOB admissions per second at 1 and 16 concurrent kept-alive clients, each acknowledged only
//    once durable, distinct Idempotency-Keys, jobs with a high concurrency limit on a cluster with
//    enough driver slots (every admitted run is also started and ends);
//  - the same with launches held back: the jobs' cluster has one driver slot, taken by a driver that
//    sleeps, so every admitted run waits in the queue and the scheduler starts none;
//  - the processor time the scheduler's ticks cost while those runs wait (jobdeckd, and the PostgreSQL
//    server with --backend postgresql), against the same with no run queued;
//  - driver exit -> final state visible through a GET /v1/events long poll (p50, p99), and RUN JOB ->
//    final state visible;
// next to references measured in the same run: an fsync'd SQLite commit (the service's own
// settings, WAL + synchronous=FULL) and fork+exec+waitpid of the same driver.
// The driver is a stand-in spark-submit (--runner spark-submit) that prints CLOCK_REALTIME in ns and
// ends at once, so the exit time is known to within the exec of `date`.
// Usage: bench_runs [--runs N] [--admissions N] [--seconds S] [--idle-seconds S] [--backend
// sqlite|postgresql]
//   --runs: exit -> event samples (default 100); --admissions: RUN JOBs per row (default 1000);
//   --seconds: cap per admission row (default 10); --idle-seconds: each processor-time row's length
//   (default 10); --backend: the service's storage (default sqlite,
//   the data directory's file); postgresql: a private PostgreSQL cluster started for the run
//   (tests/support/PostgresCluster, default durability: fsync on, synchronous_commit on), one jobdeckd.
#include "bench/ServiceBench.h"
#include "service/stores/SqliteDatabase.h"
#include "tests/service/tst_runsupport.h"
#include "tests/support/PostgresCluster.h"
#include "tests/support/ProcessState.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <QCoreApplication>
#include <QFile>
#include <QTemporaryDir>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace jobdeck;
using namespace jobdeck::runtest;
using namespace jobdeck::bench;

namespace {

constexpr int kJobs = kAdmissionJobs;

struct Options {
    int runs = 100;
    int admissions = 1000;
    double seconds = 10;
    double idleSeconds = 10;
    bool postgresql = false;
};

// The processor time the PostgreSQL server's processes have used so far (seconds).
double serverProcessorSeconds(qint64 postmaster) {
    double total = 0;
    for (const qint64 pid : test::serverProcesses(postmaster))
        total += test::processorSeconds(pid);
    return total;
}

struct ProcessorShares {
    double service = 0;  // jobdeckd's processor time over the row, as a share of one core
    double database = 0; // the PostgreSQL server's, with --backend postgresql
};

// What jobdeckd (and the PostgreSQL server) take of the processor over `seconds` with nothing sent.
ProcessorShares idleShares(const TestService& service, qint64 database, double seconds) {
    const double serviceBefore = test::processorSeconds(service.processId());
    const double databaseBefore = database ? serverProcessorSeconds(database) : 0;
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    return {(test::processorSeconds(service.processId()) - serviceBefore) / seconds,
            database ? (serverProcessorSeconds(database) - databaseBefore) / seconds : 0};
}

void printIdleRow(const char* what, const ProcessorShares& shares, const ProcessorShares* reference,
                  bool withDatabase) {
    const auto ratio = [](double share, double of) { return share / std::max(of, 1e-6); };
    std::printf("%-44s %9.2f %%", what, 100 * shares.service);
    if (withDatabase)
        std::printf(" %9.2f %%", 100 * shares.database);
    else
        std::printf(" %11s", "-");
    if (reference) {
        std::printf("   x%.1f", ratio(shares.service, reference->service));
        if (withDatabase)
            std::printf(", x%.1f", ratio(shares.database, reference->database));
    }
    std::printf("\n");
    std::fflush(stdout);
}

std::int64_t realtimeNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// The active runs of the project (SHOW JOB_RUNS ACTIVE), on a connection of its own: one opened
// earlier and left silent would have been closed by the service (--first-byte-timeout, --idle-timeout).
nlohmann::json activeRuns(unsigned short port, const ApiCredentials& who) {
    Connection connection(port);
    const auto status = nlohmann::json::parse(
        connection.exchange(statement("SHOW JOB_RUNS ACTIVE", who)).body(), nullptr, false);
    if (!status.is_object() || status.value("apiStatus", "") != kSuccess)
        throw std::runtime_error("SHOW JOB_RUNS ACTIVE failed: " + status.dump());
    return status["apiResponse"]["showJobRunsApiResponse"]["sparkJobRuns"];
}

// Cancels every active run of the project (the held-back row's queue and the driver holding the slot).
void cancelActive(unsigned short port, const ApiCredentials& who) {
    Connection connection(port);
    for (const auto& run : activeRuns(port, who))
        connection.exchange(statement("CANCEL JOB_RUN `" + run.value("jobRunId", std::string()) +
                                          "` JOB_NAME = '" + run.value("jobName", std::string()) + "'",
                                      who));
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
        const auto page = nlohmann::json::parse(
            events.exchange(get("/v1/events?after=" + std::to_string(after) + "&wait=10", who)).body());
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
    for (int i = 1; i < args.size(); ++i) {
        const QString& arg = args[i];
        if (i + 1 >= args.size())
            throw std::runtime_error(arg.toStdString() + " needs a value");
        bool ok = false;
        const QString value = args[++i];
        if (arg == "--backend") {
            if (value != "sqlite" && value != "postgresql")
                throw std::runtime_error("--backend is sqlite or postgresql, got " + value.toStdString());
            options.postgresql = value == "postgresql";
            ok = true;
        } else if (arg == "--runs")
            options.runs = value.toInt(&ok);
        else if (arg == "--admissions")
            options.admissions = value.toInt(&ok);
        else if (arg == "--seconds")
            options.seconds = value.toDouble(&ok);
        else if (arg == "--idle-seconds")
            options.idleSeconds = value.toDouble(&ok);
        else
            throw std::runtime_error("unknown argument " + arg.toStdString());
        if (!ok)
            throw std::runtime_error(arg.toStdString() + " needs a number, got " + value.toStdString());
    }
    if (options.runs < 1 || options.runs > 10000 || options.admissions < 1 || options.admissions > 10000 ||
        options.seconds <= 0 || options.seconds > 60 || options.idleSeconds <= 0 || options.idleSeconds > 600)
        throw std::runtime_error("--runs and --admissions must be in [1, 10000], --seconds in (0, 60], "
                                 "--idle-seconds in (0, 600]");
    return options;
}

bool ok(const nlohmann::json& status) {
    return statusOf(status) == kSuccess;
}

// A shell script in `dir` that runs `command`, executable: the stand-in spark-submit.
std::string writeDriver(const QString& dir, const QString& name, const std::string& command) {
    const std::string path = (dir + "/" + name).toStdString();
    {
        std::ofstream script(path);
        script << "#!/bin/sh\n" << command << "\n";
    }
    QFile::setPermissions(QString::fromStdString(path),
                          QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

// kJobs jobs `<prefix>0`.. on `cluster`, each allowed 1,000 active runs.
bool createJobs(const TestService& service, const ApiCredentials& op, const QString& prefix,
                const QString& cluster, const QString& appPath) {
    for (int j = 0; j < kJobs; ++j)
        if (!ok(must(service, op,
                     QString("CREATE JOB %1%2 TYPE = 'PYTHON' PARAMETERS = %3 CLUSTER = '%4' "
                             "MAX_CONCURRENT_RUNS = 1000")
                         .arg(prefix)
                         .arg(j)
                         .arg(tuple({appPath}), cluster))))
            return false;
    return true;
}

// Cluster `b` with room for every run (jobs a*, lat, the exit-time driver) and cluster `held` with one
// driver slot (jobs h*, and `hold`, whose driver sleeps and keeps the slot).
void setUpProject(const TestService& service, const Project& project, const std::string& driver) {
    const ApiCredentials& op = project.op;
    const QString appPath = QString::fromStdString(driver);
    const bool setUp =
        ok(must(service, project.admin, "ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 1000")) &&
        ok(must(service, op, "CREATE CLUSTER b TYPE = 'Spark' MAX_OCU = 10000 MIN_OCU = 1")) &&
        ok(must(service, op, "CREATE CLUSTER held TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 1")) &&
        ok(must(service, op,
                "CREATE JOB lat TYPE = 'PYTHON' PARAMETERS = " + tuple({appPath}) + " CLUSTER = 'b'")) &&
        ok(must(service, op,
                "CREATE JOB hold TYPE = 'PYTHON' PARAMETERS = " + tuple({appPath, "--hold-the-slot"}) +
                    " CLUSTER = 'held'")) &&
        createJobs(service, op, "a", "b", appPath) && createJobs(service, op, "h", "held", appPath);
    if (!setUp)
        throw std::runtime_error("setting up the project failed");
}

// RUN JOB hold, then waits until its driver runs: the `held` cluster has no free slot from then on.
void holdTheSlot(const TestService& service, const ApiCredentials& op) {
    const auto answer = must(service, op, "RUN JOB hold");
    const QString id = runIdOf(answer);
    const auto run = id.isEmpty() ? answer : waitForRun(service, op, "hold", id, hasStatus(kRunning));
    if (run.value("status", "") != kRunning)
        throw std::runtime_error("the run holding the held cluster's slot did not start: " + run.dump());
}

void printAdmissionRow(const char* what, int clients, const AdmissionRow& row, double commitsPerSecond) {
    const double rate = row.admitted / row.seconds;
    std::printf("%-44s %7d %8.0f %8.2f %8.2f %6d %10.2f\n", what, clients, rate, row.latency.at(0.5),
                row.latency.at(0.99), row.errors, rate / commitsPerSecond);
    std::fflush(stdout);
}

// The admission rows: 1 and 16 clients with every run launched, then 16 with launches held back; then
// the idle rows, with no run queued and with the held-back runs waiting. `database`: the PostgreSQL
// server's process id, or 0.
void admissionRows(const TestService& service, const ApiCredentials& op, const Options& options,
                   double commitsPerSecond, qint64 database) {
    std::printf("%-44s %7s %8s %8s %8s %6s %10s\n", "RUN JOB admitted (durable, distinct keys)", "clients",
                "runs/s", "p50 ms", "p99 ms", "errors", "x commits/s");
    for (const int clients : {1, 16}) {
        const auto row = admit({service.port()}, op, kJobs, clients, options.admissions, options.seconds,
                               "k" + std::to_string(clients) + "-");
        printAdmissionRow("  runs launched as they are admitted", clients, row, commitsPerSecond);
        if (!waitUntilIdle(service.port(), op))
            throw std::runtime_error("the admitted runs did not all end within a minute");
    }
    const ProcessorShares noneQueued = idleShares(service, database, options.idleSeconds);
    holdTheSlot(service, op);
    int waiting = 0;
    for (const int clients : {1, 16}) {
        const auto row = admit({service.port()}, op, kJobs, clients, options.admissions, options.seconds,
                               "held" + std::to_string(clients) + "-", "h");
        printAdmissionRow("  admission only, launches held back", clients, row, commitsPerSecond);
        waiting += row.admitted;
    }
    std::printf("\n%-44s %11s %11s   %s\n", "idle, processor time (share of one core)", "jobdeckd",
                database ? "PostgreSQL" : "-", "x no run queued");
    printIdleRow("  no run queued", noneQueued, nullptr, database != 0);
    const std::string what = "  " + std::to_string(waiting) + " runs waiting for a driver slot";
    const ProcessorShares queued = idleShares(service, database, options.idleSeconds);
    printIdleRow(what.c_str(), queued, &noneQueued, database != 0);
    cancelActive(service.port(), op);
    if (!waitUntilIdle(service.port(), op))
        throw std::runtime_error("the held-back runs were not all canceled within a minute");
}

// The exit -> visible rows: one run of job `lat` at a time, on connections opened for them.
void exitRows(const TestService& service, const ApiCredentials& op, const Options& options,
              const Figures& spawn, const Figures& commits) {
    Connection statements(service.port());
    Connection events(service.port());
    // Start after everything the admission rows published (pages hold at most 1,000 events).
    std::int64_t after = 0;
    for (int i = 0; i < 1000; ++i) {
        const auto page = nlohmann::json::parse(
            events.exchange(get("/v1/events?after=" + std::to_string(after), op)).body());
        const auto next = page.at("next").get<std::int64_t>();
        if (next == after)
            break;
        after = next;
    }
    Figures exitToVisible;
    Figures runToVisible;
    for (int i = 0; i < options.runs; ++i) {
        const auto sample = oneRun(statements, events, op, service.dataDir(), after);
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
    std::printf("%-44s %5d %8.2f %8.2f %8.2f %.1f x fork+exec+waitpid\n", "RUN JOB -> final state via events",
                options.runs, runToVisible.at(0.5), runToVisible.at(0.99), runToVisible.at(1),
                runToVisible.at(0.5) / spawn.at(0.5));
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    try {
        const Options options = parseOptions(app.arguments());
        QTemporaryDir scratch;
        // Job `hold`'s driver sleeps (its argument says so): it keeps the held cluster's slot.
        const std::string driver = writeDriver(scratch.path(), "driver",
                                               "case \"$*\" in *--hold-the-slot*) exec sleep 600 ;; esac\n"
                                               "exec date +%s%N");
        PostgresCluster postgres;
        QStringList arguments{"--runner", "spark-submit", "--spark-submit", QString::fromStdString(driver)};
        if (options.postgresql) {
            if (!postgres.start())
                throw std::runtime_error("cannot start PostgreSQL: " + postgres.lastError().toStdString());
            arguments << "--database" << postgres.connectionUri();
        }
        TestService service(arguments);
        Project project;
        if (!service.start() || !project.create(service))
            throw std::runtime_error("cannot start jobdeckd: " + service.lastError().toStdString());
        setUpProject(service, project, driver);

        const Figures spawn = forkExecWait(driver, options.runs);
        const Figures commits = fsyncedCommits((scratch.path() + "/reference.db").toStdString(), 300);
        const double commitsPerSecond = 1000.0 / commits.at(0.5);
        std::printf("jobdeckd %s, storage: %s, driver: /bin/sh exec date (spark-submit runner)\n\n",
                    JOBDECKD_PATH,
                    options.postgresql ? "PostgreSQL (private cluster, fsync on), one jobdeckd"
                                       : "SQLite (the data directory's file)");
        std::printf("reference: fsync'd SQLite commit (WAL, synchronous=FULL): p50 %.2f ms, p99 %.2f ms "
                    "(%.0f commits/s at p50)\n",
                    commits.at(0.5), commits.at(0.99), commitsPerSecond);
        std::printf("reference: fork+exec+waitpid of the driver: p50 %.2f ms, p99 %.2f ms\n\n", spawn.at(0.5),
                    spawn.at(0.99));
        admissionRows(service, project.op, options, commitsPerSecond,
                      options.postgresql ? postgres.serverProcessId() : 0);
        exitRows(service, project.op, options, spawn, commits);
        service.stop();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_runs: %s\n", e.what());
        return 1;
    }
}
