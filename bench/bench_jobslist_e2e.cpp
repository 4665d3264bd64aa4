// LIBS: jobdeck_models jobdeck_service jobdeck_testsupport Qt6::Gui
// The console's Jobs list with 100,000 jobs, end to end, against the budgets of docs/performance.md:
// the real jobdeckd (its own data directory and loopback port; the jobs written before it starts by the
// service's own store code, JobStore::insertJob, in one transaction: 100,000 CREATE JOBs would take
// minutes) and, in this process, the console's ApiClient + JobsListLoader + JobsTableModel +
// JobsFilterProxy as MainWindow wires them. Measured, each load from the request to the first
// screen's cells read through the proxy:
//   - the complete list on screen (SHOW JOBS SUMMARY, decoded, rows prepared and swapped in),
//   - first rows (JobsListLoader's first rows by name into the empty list, or the whole list if it
//     comes first),
//   - the GUI thread's longest stall while loading (a 1 ms timer's largest gap),
//   - a filter keystroke (the filter typed key by key: mean and worst),
//   - console memory held (RSS after the load, freed memory trimmed, minus RSS before it).
// Reference in the same run: the full SHOW JOBS answer of the same jobs through ApiClient::showJobs()
// (every job decoded with nlohmann into SparkJob), request to value. Usage:
//   QT_QPA_PLATFORM=offscreen bench_jobslist_e2e [--jobs N] [--runs R]
#include "bench/ListedJobs.h"
#include "client/ApiClient.h"
#include "client/EventsSubscription.h"
#include "models/JobsFilterProxy.h"
#include "models/JobsListLoader.h"
#include "models/JobsTableModel.h"
#include "tests/support/TestService.h"

#include <QElapsedTimer>
#include <QGuiApplication>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <malloc.h>
#include <optional>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace jobdeck;
using namespace std::chrono_literals;

namespace {

constexpr int kScreenRows = 40;

struct Options {
    int jobs = 100000;
    int runs = 3;
};

Options parseOptions(const QStringList& arguments) {
    Options options;
    for (qsizetype i = 1; i + 1 < arguments.size(); i += 2) {
        if (arguments[i] == QLatin1String("--jobs"))
            options.jobs = arguments[i + 1].toInt();
        else if (arguments[i] == QLatin1String("--runs"))
            options.runs = arguments[i + 1].toInt();
        else
            throw std::runtime_error("usage: bench_jobslist_e2e [--jobs N] [--runs R]");
    }
    return options;
}

// Resident memory of this process, in MiB (Linux: /proc/self/statm).
double residentMiB() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// What memory the process holds once freed blocks go back (workers done, the C library's free lists
// trimmed): the figure a user's system monitor settles on.
double settledMiB() {
    QThreadPool::globalInstance()->waitForDone();
    QCoreApplication::processEvents();
    malloc_trim(0);
    return residentMiB();
}

// Reads the first screen's cells through the proxy, as a view painting them would.
void readFirstScreen(const QAbstractItemModel& proxy) {
    const int rows = std::min(kScreenRows, proxy.rowCount());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < JobsTableModel::ColumnCount; ++c)
            (void)proxy.index(r, c).data();
}

// The console's side as MainWindow wires it: a client, its events, the loader, the model and its proxy.
struct Console final {
    ApiClient client;
    EventsSubscription events{&client};
    JobsTableModel model;
    JobsFilterProxy proxy;
    JobsListLoader loader{&client, &events, &model};

    explicit Console(const ConnectionInfo& connection) {
        client.setConnection(connection);
        client.setStatementTimeout(300s);
        client.setRequestTimeout(300s);
        proxy.setSourceModel(&model);
        proxy.sort(JobsTableModel::Name); // as JobsView does before any job is there
    }

    // A full load; `replaced` runs as soon as the rows are in the model. Throws when it fails.
    void load(const std::function<void()>& replaced) {
        bool done = false;
        QString failure;
        const QMetaObject::Connection a = QObject::connect(&loader, &JobsListLoader::rowsReplaced, [&] {
            replaced();
            done = true;
        });
        const QMetaObject::Connection b = QObject::connect(&loader, &JobsListLoader::loadFailed,
                                                           [&](const QString& why) { failure = why; });
        loader.reload();
        while (!done && failure.isEmpty())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
        QObject::disconnect(a);
        QObject::disconnect(b);
        if (!failure.isEmpty())
            throw std::runtime_error("load failed: " + failure.toStdString());
    }
};

struct LoadFigures {
    double firstMs = 0;
    double listMs = 0;
    double stallMs = 0;
    double heldMiB = 0;
    int rows = 0;
};

// One full load by a fresh console, timed from the request to the first screen read.
LoadFigures measureLoad(const ConnectionInfo& connection) {
    const double before = settledMiB();
    LoadFigures figures;
    Console console(connection);
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        figures.stallMs = std::max(figures.stallMs, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    QElapsedTimer clock;
    QObject::connect(&console.loader, &JobsListLoader::firstRowsShown, [&] {
        readFirstScreen(console.proxy);
        figures.firstMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    });
    sinceTick.start();
    ticker.start();
    clock.start();
    console.load([&] {
        readFirstScreen(console.proxy);
        figures.listMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
        if (figures.firstMs == 0)
            figures.firstMs = figures.listMs;
        figures.rows = console.model.rowCount();
    });
    ticker.stop();
    figures.heldMiB = settledMiB() - before;
    return figures;
}

// The filter typed key by key over the loaded list: each keystroke's filter pass and first screen.
std::pair<double, double> measureFilter(const ConnectionInfo& connection, const QString& typed) {
    Console console(connection);
    console.load([] {});
    double total = 0, worst = 0;
    for (qsizetype n = 1; n <= typed.size(); ++n) {
        QElapsedTimer t;
        t.start();
        console.proxy.setFilterText(typed.left(n));
        (void)console.proxy.rowCount();
        readFirstScreen(console.proxy);
        const double ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
        total += ms;
        worst = std::max(worst, ms);
    }
    return {total / static_cast<double>(typed.size()), worst};
}

// The reference: the full SHOW JOBS answer of the same jobs, request to decoded jobs.
std::pair<double, std::size_t> measureFullShowJobs(const ConnectionInfo& connection) {
    ApiClient client;
    client.setConnection(connection);
    client.setStatementTimeout(300s);
    client.setRequestTimeout(300s);
    QElapsedTimer clock;
    clock.start();
    std::optional<std::size_t> jobs;
    QString failure;
    client.showJobs()->then(&client, [&](const ApiReply<std::vector<SparkJob>>& r) {
        if (r.isError())
            failure = r.error().message;
        else
            jobs = r.value().size();
    });
    while (!jobs && failure.isEmpty())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    if (!jobs)
        throw std::runtime_error("SHOW JOBS failed: " + failure.toStdString());
    return {static_cast<double>(clock.nsecsElapsed()) / 1e6, *jobs};
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void printRow(const char* what, const std::vector<double>& values, const char* unit, double budget) {
    const double best = *std::min_element(values.begin(), values.end());
    const double mid = median(values);
    std::printf("  %-36s best %8.1f %-3s median %8.1f %-3s", what, best, unit, mid, unit);
    if (budget > 0)
        std::printf(" budget < %5.0f %-3s %s", budget, unit, mid < budget ? "met" : "NOT MET");
    std::printf("\n");
}

int run(const Options& options) {
    TestService service({QStringLiteral("--no-access-log")});
    const ApiCredentials admin = service.createKey(QStringLiteral("bench"), QStringLiteral("admin"));
    if (!admin.isValid())
        throw std::runtime_error("keys create failed: " + service.lastError().toStdString());
    QElapsedTimer seeding;
    seeding.start();
    bench::seedListedJobs((service.dataDir() + QStringLiteral("/jobdeck.db")).toStdString(),
                          admin.projectUid.toStdString(), options.jobs);
    std::printf("seeded %d jobs with JobStore::insertJob in %.1f s\n", options.jobs,
                static_cast<double>(seeding.elapsed()) / 1000.0);
    if (!service.start())
        throw std::runtime_error("cannot start jobdeckd: " + service.lastError().toStdString());
    const ConnectionInfo connection{service.baseUrl(), admin.projectUid, admin.apiKey, admin.apiSecret};

    measureLoad(connection); // warms the service's caches and this process's allocator
    std::vector<double> first, list, stall, held;
    int rows = 0;
    for (int i = 0; i < options.runs; ++i) {
        const LoadFigures f = measureLoad(connection);
        first.push_back(f.firstMs);
        list.push_back(f.listMs);
        stall.push_back(f.stallMs);
        held.push_back(f.heldMiB);
        rows = f.rows;
    }
    const auto [filterMean, filterWorst] =
        measureFilter(connection, QStringLiteral("cluster:cluster_7 type:py list_job_1"));
    std::vector<double> reference;
    std::size_t referenceJobs = 0;
    for (int i = 0; i < options.runs; ++i) {
        const auto [ms, jobs] = measureFullShowJobs(connection);
        reference.push_back(ms);
        referenceJobs = jobs;
    }

    std::printf("\nJobs list, %d rows, %d runs (Release figures are the ones that count):\n", rows,
                options.runs);
    printRow("complete list on screen", list, "ms", 1000);
    printRow("first rows", first, "ms", 200);
    printRow("GUI thread's longest stall", stall, "ms", 0);
    printRow("filter keystroke, mean", {filterMean}, "ms", 50);
    printRow("filter keystroke, worst", {filterWorst}, "ms", 50);
    printRow("console memory held (RSS delta)", held, "MiB", 60);
    std::printf("  reference: full SHOW JOBS (%zu jobs) via ApiClient::showJobs(): best %.1f ms, median "
                "%.1f ms\n  ratio complete list / reference (median): %.2f\n",
                referenceJobs, *std::min_element(reference.begin(), reference.end()), median(reference),
                median(list) / median(reference));
    service.stop();
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QGuiApplication app(argc, argv);
    try {
        return run(parseOptions(app.arguments()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_jobslist_e2e: %s\n", e.what());
        return 1;
    }
}
