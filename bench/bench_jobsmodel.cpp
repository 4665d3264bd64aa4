// LIBS: jobdeck_models jobdeck_client Qt6::Gui Qt6::Network Qt6::Test Qt6::Core
// The Jobs list with 100,000 jobs, as a user meets it. Load: the SHOW JOBS answer (HTTP on loopback, from
// a fake service on a thread of its own, as the real one is another process)
// through ApiClient::showJobs() into a SparkJobList (read while the bytes arrive), made into rows sorted
// by name on a worker and swapped into the model as MainWindow does, the first screen's cells read
// through the proxy. Then the filter typed one key at a time, a scroll's worth of data() calls, opening
// jobs (each decoded from its text), and memory (RSS delta held, and the peak while loading).
// The GUI thread's longest blocked interval during the load (a 1 ms timer's longest gap) is the stall
// the user sees; the rest of the load runs on worker threads while the window stays live.
// Aims: load < 1 s, < 50 ms per keystroke, < 300 MB.
// References measured in the same run: json::parse of the same bytes (the floor of any load from the
// wire), and QStandardItemModel + QSortFilterProxyModel holding the same cells.
#include "client/ApiClient.h"
#include "core/HeapRetention.h"
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"
#include "tests/client/FakeHttpServer.h"
#include "tests/client/ShowJobsAnswer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdio>
#include <malloc.h>
#include <random>
#include <time.h>
#include <unistd.h>

using namespace jobdeck;
using nlohmann::json;

namespace {

constexpr int kJobs = 100000;
constexpr int kScreenRows = 40;

// Other builds share the machine's two cores: each figure is wall time and the process's CPU time
// (all threads; HTTP runs on Qt's network thread), the latter being what the work itself costs.
class Stopwatch final {
public:
    Stopwatch() { restart(); }
    void restart() {
        m_wall.start();
        m_cpu0 = cpuNowMs();
    }
    double wallMs() const { return static_cast<double>(m_wall.nsecsElapsed()) / 1e6; }
    double cpuMs() const { return cpuNowMs() - m_cpu0; }

private:
    static double cpuNowMs() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    }
    QElapsedTimer m_wall;
    double m_cpu0 = 0;
};

// Resident memory after handing freed heap back, so the figure is what is held, not what was touched.
double rssMiB() {
    malloc_trim(0);
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.value(1).toDouble() * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// The peak resident size since the last resetPeak() (VmHWM).
double peakMiB() {
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    return 0;
}

void resetPeak() {
    QFile f(QStringLiteral("/proc/self/clear_refs"));
    if (f.open(QIODevice::WriteOnly))
        f.write("5");
}

std::vector<SparkJob> makeJobs() {
    static const char* words[] = {"count",   "ingest",   "report", "sync",
                                  "compact", "backfill", "export", "audit"};
    std::vector<SparkJob> jobs;
    jobs.reserve(kJobs);
    const TimePoint base = timestampNow();
    std::mt19937 random(11);
    for (int i = 0; i < kJobs; ++i) {
        SparkJob j;
        j.jobId = "00000000-0000-0000-0000-" + std::to_string(100000000000 + i);
        // Shuffled, as names come from many users: the sort has real work to do.
        j.name = std::string(words[i % 8]) + "_" + words[(i / 8) % 8] + "_" + std::to_string(random());
        j.type = i % 3 == 0 ? JobType::Python : JobType::Jar;
        j.cluster = "cluster_" + std::to_string(i % 50);
        j.applicationPath =
            "s3://bucket-" + std::to_string(i % 100) + "/jobs/" + j.name + (i % 3 ? ".jar" : ".py");
        j.parameters = {"--class",         "com.example.App" + std::to_string(i % 20),
                        "--hudi-conf",     "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                        j.applicationPath, "--date",
                        "2026-11-30"};
        j.arguments = {"--date", "2026-11-30"};
        j.hudiConfigs = {{"hoodie.datasource.meta.sync.glue.catalogId", "123456789012"}};
        j.hudiConfigsStatus = {{"hoodie.datasource.meta.sync.glue.catalogId", HudiConfigStatus::Applied}};
        j.maxConcurrentRuns = 1 + i % 4;
        j.createdAt = base - std::chrono::minutes(i);
        j.updatedAt = base - std::chrono::seconds(i);
        jobs.push_back(std::move(j));
    }
    return jobs;
}

// Reads what a view shows: `rows` rows x all columns from `top`.
template <class Model> qint64 readScreen(const Model& model, int top, int rows) {
    qint64 sink = 0;
    for (int r = top; r < top + rows && r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            sink += model.index(r, c).data().toString().size();
    return sink;
}

// A screen of cells at 200 random positions; ms per screen.
template <class Model> double scrollMs(const Model& model) {
    std::mt19937 random(7);
    QElapsedTimer t;
    t.start();
    qint64 sink = 0;
    for (int page = 0; page < 200; ++page)
        sink += readScreen(
            model,
            static_cast<int>(random() % static_cast<unsigned>(std::max(1, model.rowCount() - kScreenRows))),
            kScreenRows);
    const double ms = t.nsecsElapsed() / 1e6;
    return sink >= 0 ? ms / 200.0 : 0;
}

struct Typing {
    double worstMs = 0;
    double totalMs = 0;
    double cpuMs = 0;
    qsizetype keys = 0;
    double meanMs() const { return keys ? totalMs / static_cast<double>(keys) : 0; }
    double meanCpuMs() const { return keys ? cpuMs / static_cast<double>(keys) : 0; }
};

// Types `text` one key at a time; a view asks the proxy for its row count at once after each key.
template <class SetText> Typing type(const QString& text, const QAbstractItemModel& proxy, SetText set) {
    Typing result;
    Stopwatch t;
    for (qsizetype n = 1; n <= text.size(); ++n) {
        t.restart();
        set(text.left(n));
        proxy.rowCount();
        const double ms = t.wallMs();
        result.cpuMs += t.cpuMs();
        result.worstMs = std::max(result.worstMs, ms);
        result.totalMs += ms;
        ++result.keys;
    }
    return result;
}

// The service is another process in real use. The fake one answers from a thread of its own, so that
// writing 69 MiB does not take turns with the console's GUI thread; the CPU that thread spends is
// measured apart and left out of the console's figures.
class ServiceThread final {
public:
    explicit ServiceThread(test::FakeHttpServer::Handler handler) {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_context,
            [this, handler = std::move(handler)]() mutable {
                m_server = std::make_unique<test::FakeHttpServer>(std::move(handler));
                m_url = m_server->url();
            },
            Qt::BlockingQueuedConnection);
    }
    ~ServiceThread() {
        QMetaObject::invokeMethod(
            &m_context, [this] { m_server.reset(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    ServiceThread(const ServiceThread&) = delete;
    ServiceThread& operator=(const ServiceThread&) = delete;

    QString url() const { return m_url; }
    double cpuMs() {
        double ms = 0;
        QMetaObject::invokeMethod(
            &m_context,
            [&ms] {
                timespec ts{};
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
                ms = static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
            },
            Qt::BlockingQueuedConnection);
        return ms;
    }

private:
    QThread m_thread;
    QObject m_context; // lives in m_thread: what runs there is invoked on it
    std::unique_ptr<test::FakeHttpServer> m_server;
    QString m_url;
};

const char* verdict(double value, double aim) {
    return value <= aim ? "within aim" : "OVER AIM";
}

} // namespace

int main(int argc, char* argv[]) {
    retainFreedHeap(); // as the console's main() does
    QCoreApplication app(argc, argv);
    const QString typed = QStringLiteral("cluster:cluster_7 type:py count");
    const QByteArray answer = test::showJobsAnswer(makeJobs());
    // Built once and shared with the socket, so the fake service's copies are not counted as the
    // console's memory.
    const QByteArray response = test::httpResponse(200, answer, {{"Content-Type", "application/json"}});
    ServiceThread server([response](const test::FakeRequest& request) -> std::optional<QByteArray> {
        if (request.path() != "/v1/resource/")
            return test::httpResponse(404, "{}");
        return response;
    });

    // Reference 1: parsing the bytes alone, no wire types, no model.
    Stopwatch t;
    std::size_t parsedJobs = 0;
    {
        const json parsed = json::parse(answer.begin(), answer.end());
        parsedJobs = parsed["apiResponse"]["showJobsApiResponse"]["sparkJobs"].size();
    }
    const double parseWallMs = t.wallMs(), parseCpuMs = t.cpuMs();

    // Ours: the answer through the client, into the model, sorted, the first screen read.
    ApiClient client;
    client.setConnection({QUrl(server.url()), QStringLiteral("p"), QStringLiteral("k"), QStringLiteral("s")});
    client.setStatementTimeout(std::chrono::minutes(2));
    client.setRequestTimeout(std::chrono::minutes(2));
    JobsTableModel model;
    JobsFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(JobsTableModel::Name); // as JobsView does before any job is there
    // The window loads the jobs once connected: the client has answered a request before (setting up
    // Qt's HTTP stack, its thread and the connection, 120-150 ms of GUI thread here, is not the load's).
    bool connected = false;
    client.health()->then(&app, [&connected](const auto&) { connected = true; });
    if (!QTest::qWaitFor([&] { return connected; }, 10000)) {
        std::fprintf(stderr, "bench_jobsmodel: the fake service did not answer\n");
        return 1;
    }
    const double rss0 = rssMiB();
    resetPeak();
    double clientWallMs = 0, clientCpuMs = 0, modelWallMs = 0, modelCpuMs = 0;
    bool loaded = false;
    QString failure;
    double longestStallMs = 0;
    QElapsedTimer sinceTick;
    QTimer ticker;
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        longestStallMs = std::max(longestStallMs, static_cast<double>(sinceTick.nsecsElapsed()) / 1e6);
        sinceTick.restart();
    });
    sinceTick.start();
    ticker.start();
    double processCpuAtAnswer = 0, serviceCpuMs = 0;
    const double serviceCpu0 = server.cpuMs();
    t.restart();
    QFutureWatcher<std::shared_ptr<JobsTableModel::PreparedRows>> prepared;
    QObject::connect(&prepared, &QFutureWatcherBase::finished, &app, [&] {
        model.setPreparedRows(prepared.future().takeResult());
        proxy.rowCount();
        readScreen(proxy, 0, kScreenRows);
        modelWallMs = t.wallMs() - clientWallMs;
        modelCpuMs = t.cpuMs() - processCpuAtAnswer;
        loaded = true;
    });
    client.showJobs()->then(&app, [&](ApiReply<SparkJobList>& r) {
        clientWallMs = t.wallMs();
        processCpuAtAnswer = t.cpuMs();
        serviceCpuMs = server.cpuMs() - serviceCpu0;
        clientCpuMs = processCpuAtAnswer - serviceCpuMs;
        if (r.isError()) {
            failure = r.error().toString();
            loaded = true;
            return;
        }
        // As MainWindow::refresh() hands the jobs over: rows built and sorted on a worker, swapped in here.
        prepared.setFuture(QtConcurrent::run(
            [jobs = r.takeValue(), column = model.sortColumn(), order = model.sortOrder()]() mutable {
                return JobsTableModel::prepareRows(std::move(jobs), column, order);
            }));
    });
    if (!QTest::qWaitFor([&] { return loaded; }, 300000) || !failure.isEmpty()) {
        std::fprintf(stderr, "bench_jobsmodel: SHOW JOBS failed: %s\n", qPrintable(failure));
        return 1;
    }
    QTest::qWait(5); // a tick after the load, so a stall at its very end counts too
    ticker.stop();
    const double loadWallMs = clientWallMs + modelWallMs;
    const double peak = peakMiB() - rss0;
    const double held = rssMiB() - rss0;

    const Typing ours = type(typed, proxy, [&](const QString& s) { proxy.setFilterText(s); });
    const int shown = proxy.rowCount();
    proxy.setFilterText({});
    const double scroll = scrollMs(proxy);

    // Opening a job (Edit, Run, Describe): the row decodes it from the answer's text. Reference: copying
    // the same job, what opening cost when every row held its whole job.
    constexpr int kOpened = 1000;
    std::vector<SparkJob> opened;
    opened.reserve(kOpened);
    t.restart();
    for (int k = 0; k < kOpened; ++k)
        opened.push_back(model.job(k * (model.rowCount() / kOpened)));
    const double openCpuUs = t.cpuMs() * 1000.0 / kOpened;
    std::vector<SparkJob> copies;
    copies.reserve(kOpened);
    t.restart();
    for (const SparkJob& job : opened)
        copies.push_back(job);
    const double copyCpuUs = t.cpuMs() * 1000.0 / kOpened;

    // Reference 2: the same cells in QStandardItemModel, sorted and filtered by QSortFilterProxyModel.
    std::vector<QList<QString>> cells(static_cast<std::size_t>(model.rowCount()));
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < JobsTableModel::ColumnCount; ++c)
            cells[static_cast<std::size_t>(r)].append(model.index(r, c).data().toString());
    const double rssRef0 = rssMiB();
    t.restart();
    QStandardItemModel reference(0, JobsTableModel::ColumnCount);
    reference.setRowCount(static_cast<int>(cells.size()));
    for (int r = 0; r < static_cast<int>(cells.size()); ++r)
        for (int c = 0; c < JobsTableModel::ColumnCount; ++c)
            reference.setItem(r, c, new QStandardItem(cells[static_cast<std::size_t>(r)][c]));
    QSortFilterProxyModel referenceProxy;
    referenceProxy.setSourceModel(&reference);
    referenceProxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    referenceProxy.sort(JobsTableModel::Name);
    referenceProxy.rowCount();
    readScreen(referenceProxy, 0, kScreenRows);
    const double refWallMs = t.wallMs(), refCpuMs = t.cpuMs();
    const double refRss = rssMiB() - rssRef0;
    const Typing refTyping = type(QStringLiteral("count_sync_7"), referenceProxy,
                                  [&](const QString& s) { referenceProxy.setFilterFixedString(s); });
    referenceProxy.setFilterFixedString({});
    const double refScroll = scrollMs(referenceProxy);

    std::printf("bench_jobsmodel: %d jobs, SHOW JOBS answer of %.1f MiB (%zu jobs); wall ms (cpu ms)\n",
                kJobs, static_cast<double>(answer.size()) / (1024.0 * 1024.0), parsedJobs);
    std::printf("  load, answer to first screen %8.1f (%.1f)   (aim < 1000 ms: %s)\n", loadWallMs,
                clientCpuMs + modelCpuMs, verdict(loadWallMs, 1000));
    std::printf("      GUI thread's longest stall %8.1f   (the rest of the load runs off the GUI thread)\n",
                longestStallMs);
    std::printf("      client: HTTP + decode    %8.1f (%.1f)   reference json::parse alone %.1f (%.1f)"
                "   cpu ratio %.2f\n",
                clientWallMs, clientCpuMs, parseWallMs, parseCpuMs, clientCpuMs / parseCpuMs);
    std::printf("      the fake service's thread writing the answer: %.1f ms CPU (not counted above)\n",
                serviceCpuMs);
    std::printf("      rows, sort, swap, screen %8.1f (%.1f)   reference QStandardItemModel %.1f (%.1f)"
                "   cpu ratio %.2f\n",
                modelWallMs, modelCpuMs, refWallMs, refCpuMs, modelCpuMs / refCpuMs);
    std::printf(
        "  filter per keystroke         %8.2f worst, %.2f (%.2f) mean over %lld keys (\"%s\", %d shown)"
        "   (aim < 50 ms: %s)\n",
        ours.worstMs, ours.meanMs(), ours.meanCpuMs(), static_cast<long long>(ours.keys), qPrintable(typed),
        shown, verdict(ours.worstMs, 50));
    std::printf("      reference                %8.2f worst, %.2f (%.2f) mean (name contains, %lld keys)"
                "   cpu ratio %.2f\n",
                refTyping.worstMs, refTyping.meanMs(), refTyping.meanCpuMs(),
                static_cast<long long>(refTyping.keys), ours.meanCpuMs() / refTyping.meanCpuMs());
    std::printf("  scroll (%d x %d cells)        %8.3f per screen   reference %.3f   ratio %.2f\n",
                kScreenRows, int(JobsTableModel::ColumnCount), scroll, refScroll, scroll / refScroll);
    std::printf("  open a job (decoded from its text) %6.2f us cpu   reference copying the job %.2f us   "
                "ratio %.1f\n",
                openCpuUs, copyCpuUs, openCpuUs / copyCpuUs);
    std::printf(
        "  memory (RSS delta)           %8.1f MiB held by the model   (aim < 300 MB: %s)\n"
        "      peak while loading       %8.1f MiB   reference %.1f MiB (its cells only)   ratio %.2f\n",
        held, verdict(held * 1.048576, 300), peak, refRss, held / refRss);
    return 0;
}
