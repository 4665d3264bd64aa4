// LIBS: jobdeck_service jobdeck_testsupport Qt6::Core Qt6::Network Boost::boost Threads::Threads
// jobdeckd replicas on one PostgreSQL database (a private cluster the bench starts on loopback), next to
// one jobdeckd on SQLite measured in the same run:
//  - RUN JOB admissions per second at 1 and 16 concurrent kept-alive clients, each acknowledged only once
//    durable, distinct Idempotency-Keys, jobs with a high concurrency limit on a cluster with enough
//    driver slots, a driver that ends at once (every admitted run is also started and ends): SQLite,
//    PostgreSQL with 1 replica, PostgreSQL with 3 replicas (clients round-robin over them); a row fails
//    unless the database holds one new run and one RUN JOB audit entry per acknowledged one; per row,
//    also per second until the last of its runs ended (the starts a burst held back included), and
//    three replicas against one;
//  - with --rounds N, the three configurations' rows N times in turn (SQLite, one replica, three), and
//    each ratio's median and range over the rounds, so that a shared machine's slow spells weigh on the
//    rows and their reference alike;
//  - event latency: ALTER JOB sent -> its JOB_ALTERED answered to a long poll already waiting (p50, p99),
//    on the process that made the change (SQLite, PostgreSQL) and from replica 1 to replica 2.
// Usage: bench_replicas [--admissions N] [--seconds S] [--events N] [--rounds N]
//   --admissions: RUN JOBs per row (default 1000); --seconds: cap per admission row (default 10);
//   --events: latency samples per row (default 200; a row stops after 60 s); --rounds: default 1.
#include "bench/ServiceBench.h"
#include "service/stores/SqlConnection.h"
#include "service/stores/SqliteDatabase.h"
#include "service/stores/postgres/PgConnection.h"
#include "tests/support/PostgresCluster.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace jobdeck;
using namespace jobdeck::runtest;
using namespace jobdeck::bench;

namespace {

struct Options {
    int admissions = 1000;
    double seconds = 10;
    int events = 200;
    int rounds = 1;
};

Options parseOptions(const QStringList& args) {
    Options options;
    readNumberOptions(args, {{"--admissions", &options.admissions},
                             {"--seconds", &options.seconds},
                             {"--events", &options.events},
                             {"--rounds", &options.rounds}});
    if (options.admissions < 1 || options.admissions > 10000 || options.events < 1 ||
        options.events > 10000 || options.seconds <= 0 || options.seconds > 60 || options.rounds < 1 ||
        options.rounds > 10)
        throw std::runtime_error("--admissions and --events must be in [1, 10000], --seconds in (0, 60], "
                                 "--rounds in [1, 10]");
    return options;
}

std::string loadAverage() {
    QFile file(QStringLiteral("/proc/loadavg"));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toStdString() : std::string("?");
}

std::string postgresVersion() {
    QProcess postgres;
    postgres.start(PostgresCluster::binDirectory() + "/postgres", {"--version"});
    postgres.waitForFinished(10000);
    return postgres.readAllStandardOutput().trimmed().toStdString();
}

bool ok(const nlohmann::json& status) {
    return statusOf(status) == kSuccess;
}

// A row's rates: RUN JOBs admitted per second while they were sent, and per second until the last of
// their runs ended (its driver started and exited), which counts the starts a burst holds back.
struct RowRates {
    double admitted = 0;
    double ended = 0;
};

double ratio(double rate, double reference) {
    return reference > 0 ? rate / reference : 1.0;
}

// The project every row uses: jobs a0..a15 (MAX_CONCURRENT_RUNS 1000) and `ev`, all running `driver`,
// on cluster b with 10,000 driver slots.
Project setUpProject(TestService& service, const QString& driver) {
    Project project;
    if (!project.create(service))
        throw std::runtime_error("cannot create keys: " + service.lastError().toStdString());
    const ApiCredentials& op = project.op;
    const QString parameters = tuple({driver});
    bool setUp =
        ok(must(service, project.admin, "ALTER PROJECT SET MAX_CONCURRENT_RUNS_LIMIT = 1000")) &&
        ok(must(service, op, "CREATE CLUSTER b TYPE = 'Spark' MAX_OCU = 10000 MIN_OCU = 1")) &&
        ok(must(service, op, "CREATE JOB ev TYPE = 'PYTHON' PARAMETERS = " + parameters + " CLUSTER = 'b'"));
    for (int j = 0; j < kAdmissionJobs && setUp; ++j)
        setUp = ok(
            must(service, op,
                 QString("CREATE JOB a%1 TYPE = 'PYTHON' PARAMETERS = %2 CLUSTER = 'b' MAX_CONCURRENT_RUNS "
                         "= 1000")
                     .arg(j)
                     .arg(parameters)));
    if (!setUp)
        throw std::runtime_error("setting up the project failed");
    return project;
}

// What the database holds: runs, and RUN JOBs audited as answered with success.
struct Durable {
    std::int64_t runs = 0;
    std::int64_t auditedRunJobs = 0;
};

template <SqlConnection Db> Durable durableIn(Db& db) {
    auto q =
        db.query("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM audit WHERE statement LIKE ? "
                 "AND outcome = ?)",
                 std::string("RUN JOB %"), std::string("API_OPERATION_STATUS_SUCCESS"));
    if (!q.step())
        throw std::runtime_error("counting runs and audit entries read no row");
    return {q.int64(0), q.int64(1)};
}

// `databaseUri`: TestService::databaseUri(), sqlite:<file> or a PostgreSQL URI.
Durable durableIn(const QString& databaseUri) {
    if (databaseUri.startsWith(QLatin1String("sqlite:")))
        return durableIn(
            *SqliteDatabase::open(databaseUri.mid(7).toStdString(), SqliteDatabase::Mode::ReadOnly));
    return durableIn(*PgConnection::open(databaseUri.toStdString()));
}

// Each acknowledged admission is one run in the database and one RUN JOB audit entry, or the row fails.
void checkDurable(const Durable& before, const Durable& after, int admitted) {
    if (after.runs - before.runs != admitted || after.auditedRunJobs - before.auditedRunJobs != admitted)
        throw std::runtime_error(
            std::to_string(admitted) + " RUN JOBs were acknowledged, but the database holds " +
            std::to_string(after.runs - before.runs) + " new runs and " +
            std::to_string(after.auditedRunJobs - before.auditedRunJobs) + " new RUN JOB audit entries");
}

// The 1- and 16-client rows on `ports`, each checked against the database at `databaseUri`; their
// rates (runs/s). `reference`: SQLite's, for the ratio.
std::array<RowRates, 2> admissionRows(int round, const char* label, const std::vector<unsigned short>& ports,
                                      const QString& databaseUri, const ApiCredentials& who,
                                      const Options& options, const std::array<RowRates, 2>& reference) {
    std::array<RowRates, 2> rates{};
    const std::array<int, 2> clientCounts{1, 16};
    for (std::size_t i = 0; i < clientCounts.size(); ++i) {
        const int clients = clientCounts[i];
        const std::string keyPrefix = std::string(label) + "-" + std::to_string(round) + "-" +
                                      std::to_string(ports.size()) + "-" + std::to_string(clients) + "-";
        const Durable before = durableIn(databaseUri);
        const auto row =
            admit(ports, who, kAdmissionJobs, clients, options.admissions, options.seconds, keyPrefix);
        checkDurable(before, durableIn(databaseUri), row.admitted);
        const auto drainStarted = Clock::now();
        if (!waitUntilIdle(ports.front(), who))
            throw std::runtime_error("the admitted runs did not all end within a minute");
        rates[i].admitted = row.admitted / row.seconds;
        rates[i].ended = row.admitted / (row.seconds + msSince(drainStarted) / 1000);
        std::printf("%5d %-18s %8zu %7d %8.0f %8.2f %8.2f %6d %9.2f %8.0f %9.2f\n", round, label,
                    ports.size(), clients, rates[i].admitted, row.latency.at(0.5), row.latency.at(0.99),
                    row.errors, ratio(rates[i].admitted, reference[i].admitted), rates[i].ended,
                    ratio(rates[i].ended, reference[i].ended));
        std::fflush(stdout);
    }
    return rates;
}

// One sample: a long poll on `polls` is waiting when ALTER JOB ev goes to `changes`; the time from
// sending the ALTER to the poll's answer. `after` moves past the page.
double oneEventLatency(Connection& changes, Connection& polls, const ApiCredentials& who, std::int64_t& after,
                       int maxConcurrentRuns) {
    Clock::time_point seen;
    nlohmann::json page;
    std::string pollError;
    std::thread poller([&] {
        try {
            page = eventsPage(polls, who, after, 10);
            seen = Clock::now();
        } catch (const std::exception& e) {
            pollError = e.what();
        }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // the poll reaches the service first
    const auto sent = Clock::now();
    const auto altered = nlohmann::json::parse(
        changes
            .exchange(
                statement("ALTER JOB ev SET MAX_CONCURRENT_RUNS = " + std::to_string(maxConcurrentRuns), who))
            .body(),
        nullptr, false);
    poller.join();
    if (!pollError.empty())
        throw std::runtime_error("long poll: " + pollError);
    if (!ok(altered))
        throw std::runtime_error("ALTER JOB ev failed: " + altered.dump());
    bool announced = false;
    for (const auto& event : page.at("events"))
        announced =
            announced || (event.value("type", "") == "JOB_ALTERED" && event.value("jobName", "") == "ev");
    if (!announced)
        throw std::runtime_error("the long poll was answered without the JOB_ALTERED event: " + page.dump());
    after = page.at("next").get<std::int64_t>();
    return std::chrono::duration<double, std::milli>(seen - sent).count();
}

// Up to `n` samples, for 60 s at most (a poll that is not woken takes its whole 10 s wait).
Figures eventLatency(unsigned short changePort, unsigned short pollPort, const ApiCredentials& who, int n) {
    Connection changes(changePort);
    Connection polls(pollPort);
    std::int64_t after = latestEventSeq(polls, who);
    Figures figures;
    const auto started = Clock::now();
    for (int i = 0; i < n && msSince(started) < 60000; ++i)
        figures.ms.push_back(oneEventLatency(changes, polls, who, after, 2 + i % 2));
    return figures;
}

void printEventRow(const char* label, const Figures& figures, const Figures& reference) {
    std::printf("%-40s %5zu %8.2f %8.2f %8.2f %9.2f\n", label, figures.ms.size(), figures.at(0.5),
                figures.at(0.99), figures.at(1), figures.at(0.5) / reference.at(0.5));
    std::fflush(stdout);
}

QString writeDriver(const QTemporaryDir& scratch) {
    QString driver = scratch.filePath("driver");
    std::ofstream(driver.toStdString()) << "#!/bin/sh\nexit 0\n";
    QFile::setPermissions(driver, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return driver;
}

// The 16-client rows of one round, each configuration's.
struct Round {
    RowRates sqlite;
    RowRates one;
    RowRates three;
};

// Everything the rows run on, started once: jobdeckd on SQLite, and the replicas on the private
// PostgreSQL cluster, of which replica 1 runs throughout and replicas 2 and 3 for the three-replica rows
// only (a running replica claims and starts runs). No data directory is removed before the end, so that
// removing one does not slow down creating the next rows' run directories (on ext4 without a journal,
// allocating an inode skips the ones freed in the last seconds, one by one).
class Services final {
public:
    Services(const QStringList& runner, const QString& driver)
        : m_sqlite(runner) {
        if (!m_sqlite.start())
            throw std::runtime_error("cannot start jobdeckd on SQLite: " +
                                     m_sqlite.lastError().toStdString());
        m_sqliteProject = setUpProject(m_sqlite, driver);
        if (!m_cluster.start(60000))
            throw std::runtime_error("the private PostgreSQL cluster did not start: " +
                                     m_cluster.lastError().toStdString());
        for (auto& replica : m_replicas)
            replica =
                std::make_unique<TestService>(QStringList{"--database", m_cluster.connectionUri()} + runner);
        if (!m_replicas[0]->start())
            throw std::runtime_error("cannot start jobdeckd on PostgreSQL: " +
                                     m_replicas[0]->lastError().toStdString());
        m_postgresProject = setUpProject(*m_replicas[0], driver);
    }

    Round measureRound(int round, const Options& options) {
        const auto sqlite = admissionRows(round, "SQLite", {m_sqlite.port()}, m_sqlite.databaseUri(),
                                          m_sqliteProject.op, options, {});
        const auto one = admissionRows(round, "PostgreSQL", {m_replicas[0]->port()}, postgresUri(),
                                       m_postgresProject.op, options, sqlite);
        const auto three = admissionRows(round, "PostgreSQL", startAllReplicas(), postgresUri(),
                                         m_postgresProject.op, options, sqlite);
        std::printf("%5d 3 replicas x 1 replica, 16 clients: admitted %.2f, ended %.2f\n", round,
                    ratio(three[1].admitted, one[1].admitted), ratio(three[1].ended, one[1].ended));
        std::fflush(stdout);
        return {sqlite[1], one[1], three[1]};
    }

    // Replicas 2 and 3 stop: the next round's one-replica rows are replica 1's alone.
    void stopOtherReplicas() {
        for (std::size_t r = 1; r < m_replicas.size(); ++r)
            m_replicas[r]->stop();
    }

    void measureEvents(const Options& options) {
        const Figures sqlite =
            eventLatency(m_sqlite.port(), m_sqlite.port(), m_sqliteProject.op, options.events);
        const auto ports = startAllReplicas();
        const Figures same = eventLatency(ports[0], ports[0], m_postgresProject.op, options.events);
        const Figures cross = eventLatency(ports[0], ports[1], m_postgresProject.op, options.events);
        std::printf("\n%-40s %5s %8s %8s %8s %9s\n", "ALTER JOB sent -> JOB_ALTERED on a poll", "n", "p50 ms",
                    "p99 ms", "max ms", "x SQLite");
        printEventRow("SQLite, same process", sqlite, sqlite);
        printEventRow("PostgreSQL, same replica", same, sqlite);
        printEventRow("PostgreSQL, replica 1 -> replica 2", cross, sqlite);
    }

    // What the replicas logged last says why a row broke off.
    void printReplicaLogs() const {
        for (std::size_t r = 0; r < m_replicas.size(); ++r)
            std::fprintf(stderr, "replica %zu (%s), last lines of its log:\n%s\n", r + 1,
                         m_replicas[r]->isRunning() ? "running" : "not running",
                         qPrintable(m_replicas[r]->errorOutput().right(3000)));
    }

    void stop() {
        for (auto& replica : m_replicas)
            replica->stop();
        m_sqlite.stop();
    }

private:
    QString postgresUri() const { return m_replicas[0]->databaseUri(); }

    // Every replica's port, replicas 2 and 3 started if they are not running.
    std::vector<unsigned short> startAllReplicas() {
        std::vector<unsigned short> ports;
        for (std::size_t r = 0; r < m_replicas.size(); ++r) {
            if (!m_replicas[r]->isRunning() && !m_replicas[r]->start())
                throw std::runtime_error("cannot start replica " + std::to_string(r + 1) + ": " +
                                         m_replicas[r]->lastError().toStdString());
            ports.push_back(m_replicas[r]->port());
        }
        return ports;
    }

    TestService m_sqlite;
    Project m_sqliteProject;
    PostgresCluster m_cluster{PostgresCluster::Memory::ServerDefaults};
    std::array<std::unique_ptr<TestService>, 3> m_replicas;
    Project m_postgresProject;
};

// A ratio's median over the rounds (the lower middle one of an even count) and its range.
void printRatioSummary(const char* label, std::vector<double> ratios) {
    std::sort(ratios.begin(), ratios.end());
    std::printf("%-44s %6.2f %6.2f %6.2f\n", label, ratios[(ratios.size() - 1) / 2], ratios.front(),
                ratios.back());
}

void printSummary(const std::vector<Round>& rounds) {
    std::vector<double> oneAdmitted, oneEnded, threeAdmitted, threeEnded;
    for (const Round& r : rounds) {
        oneAdmitted.push_back(ratio(r.one.admitted, r.sqlite.admitted));
        oneEnded.push_back(ratio(r.one.ended, r.sqlite.ended));
        threeAdmitted.push_back(ratio(r.three.admitted, r.one.admitted));
        threeEnded.push_back(ratio(r.three.ended, r.one.ended));
    }
    std::printf("\n%-44s %6s %6s %6s\n", "16 clients, over the rounds", "median", "least", "most");
    printRatioSummary("PostgreSQL 1 replica x SQLite, admitted", oneAdmitted);
    printRatioSummary("PostgreSQL 1 replica x SQLite, ended", oneEnded);
    printRatioSummary("PostgreSQL 3 replicas x 1 replica, admitted", threeAdmitted);
    printRatioSummary("PostgreSQL 3 replicas x 1 replica, ended", threeEnded);
}

void measure(const QStringList& runner, const QString& driver, const Options& options) {
    Services services(runner, driver);
    try {
        std::vector<Round> rounds;
        for (int round = 1; round <= options.rounds; ++round) {
            if (round > 1)
                services.stopOtherReplicas();
            rounds.push_back(services.measureRound(round, options));
        }
        if (rounds.size() > 1)
            printSummary(rounds);
        services.measureEvents(options);
    } catch (const std::exception&) {
        services.printReplicaLogs();
        throw;
    }
    services.stop();
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    try {
        const Options options = parseOptions(app.arguments());
        qunsetenv("JOBDECK_TEST_BACKEND"); // the reference is SQLite, whatever the environment says
        QTemporaryDir scratch;
        const QString driver = writeDriver(scratch);
        const QStringList runner{"--runner", "spark-submit", "--spark-submit", driver};
        std::printf(
            "jobdeckd %s, %s, driver: /bin/sh exit 0 (spark-submit runner)\nload average at start: %s\n\n",
            JOBDECKD_PATH, postgresVersion().c_str(), loadAverage().c_str());
        std::printf("%5s %-18s %8s %7s %8s %8s %8s %6s %9s %8s %9s\n", "round", "RUN JOB admitted",
                    "replicas", "clients", "runs/s", "p50 ms", "p99 ms", "errors", "x SQLite", "ended/s",
                    "x SQLite");
        measure(runner, driver, options);
        std::printf("\nload average at the end: %s\n", loadAverage().c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_replicas: %s\n", e.what());
        return 1;
    }
}
