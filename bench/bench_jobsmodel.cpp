// LIBS: jobdeck_models Qt6::Gui Qt6::Core
// The Jobs list with 100,000 jobs: load time, filter time per keystroke, a scroll's worth of data()
// calls, and memory (RSS delta), against the aims (load < 1 s, filter < 50 ms per keystroke,
// < 300 MB). Reference measured in the same run: QStandardItemModel with the same cells, filtered by
// QSortFilterProxyModel's fixed-string filter on the name column.
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>

#include <algorithm>
#include <cstdio>
#include <random>
#include <unistd.h>

using namespace jobdeck;

namespace {

constexpr int kJobs = 100000;

double rssMiB() {
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().split(' ');
    return fields.value(1).toDouble() * static_cast<double>(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

std::vector<SparkJob> makeJobs() {
    static const char* words[] = {"count",   "ingest",   "report", "sync",
                                  "compact", "backfill", "export", "audit"};
    std::vector<SparkJob> jobs;
    jobs.reserve(kJobs);
    const TimePoint base = timestampNow();
    for (int i = 0; i < kJobs; ++i) {
        SparkJob j;
        j.jobId = "00000000-0000-0000-0000-" + std::to_string(100000000000 + i);
        j.name = std::string(words[i % 8]) + "_" + words[(i / 8) % 8] + "_" + std::to_string(i);
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

// Touches what a viewport shows: 40 rows x all columns at 200 positions.
template <class Model> double scrollMs(const Model& model) {
    std::mt19937 random(7);
    QElapsedTimer t;
    t.start();
    qint64 sink = 0;
    for (int page = 0; page < 200; ++page) {
        const int top =
            static_cast<int>(random() % static_cast<unsigned>(std::max(1, model.rowCount() - 40)));
        for (int r = top; r < top + 40 && r < model.rowCount(); ++r)
            for (int c = 0; c < model.columnCount(); ++c)
                sink += model.index(r, c).data().toString().size();
    }
    const double ms = t.nsecsElapsed() / 1e6;
    return sink >= 0 ? ms / 200.0 : 0;
}

const char* verdict(double value, double aim) {
    return value <= aim ? "within aim" : "OVER AIM";
}

} // namespace

int main(int argc, char* argv[]) {
    QCoreApplication app(argc, argv);
    const QString typed = QStringLiteral("cluster:cluster_7 type:py count");

    // Ours: generate, load, sort by name, then type the filter one key at a time.
    const double rss0 = rssMiB();
    QElapsedTimer t;
    std::vector<SparkJob> jobs = makeJobs();
    const double rssGenerated = rssMiB();
    JobsTableModel model;
    JobsFilterProxy proxy;
    t.start();
    model.setJobs(std::move(jobs));
    proxy.setSourceModel(&model);
    proxy.sort(JobsTableModel::Name);
    proxy.rowCount();
    const double loadMs = t.nsecsElapsed() / 1e6;
    const double rssLoaded = rssMiB();
    double worstKeyMs = 0, totalKeyMs = 0;
    for (int n = 1; n <= typed.size(); ++n) {
        t.restart();
        proxy.setFilterText(typed.left(n));
        proxy.rowCount(); // the proxy maps lazily; a view asks at once
        const double ms = t.nsecsElapsed() / 1e6;
        worstKeyMs = std::max(worstKeyMs, ms);
        totalKeyMs += ms;
    }
    const int shown = proxy.rowCount();
    proxy.setFilterText({});
    const double scroll = scrollMs(proxy);

    // Reference: the same cells in QStandardItemModel, name filter by QSortFilterProxyModel.
    const double rssRef0 = rssMiB();
    t.restart();
    QStandardItemModel reference(0, JobsTableModel::ColumnCount);
    reference.setRowCount(kJobs);
    for (int r = 0; r < kJobs; ++r) {
        for (int c = 0; c < JobsTableModel::ColumnCount; ++c) {
            reference.setItem(r, c, new QStandardItem(model.index(r, c).data().toString()));
        }
    }
    QSortFilterProxyModel referenceProxy;
    referenceProxy.setSourceModel(&reference);
    referenceProxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
    referenceProxy.sort(JobsTableModel::Name);
    referenceProxy.rowCount();
    const double refLoadMs = t.nsecsElapsed() / 1e6;
    const double refRss = rssMiB() - rssRef0;
    double refWorstKeyMs = 0, refTotalKeyMs = 0;
    const QString refTyped = QStringLiteral("count_sync_7");
    for (int n = 1; n <= refTyped.size(); ++n) {
        t.restart();
        referenceProxy.setFilterFixedString(refTyped.left(n));
        referenceProxy.rowCount();
        const double ms = t.nsecsElapsed() / 1e6;
        refWorstKeyMs = std::max(refWorstKeyMs, ms);
        refTotalKeyMs += ms;
    }
    referenceProxy.setFilterFixedString({});
    const double refScroll = scrollMs(referenceProxy);

    const double ourRss = rssLoaded - rss0;
    std::printf("bench_jobsmodel: %d jobs\n", kJobs);
    std::printf("  load + sort          %8.1f ms   (aim < 1000 ms: %s)   reference %8.1f ms   ratio %.2f\n",
                loadMs, verdict(loadMs, 1000), refLoadMs, loadMs / refLoadMs);
    std::printf("  filter per keystroke %8.2f ms worst, %.2f ms mean over %lld keys (\"%s\", %d shown)"
                "   (aim < 50 ms: %s)\n",
                worstKeyMs, totalKeyMs / static_cast<double>(typed.size()),
                static_cast<long long>(typed.size()), qPrintable(typed), shown, verdict(worstKeyMs, 50));
    std::printf(
        "      reference        %8.2f ms worst, %.2f ms mean (name contains, %lld keys)   ratio %.2f\n",
        refWorstKeyMs, refTotalKeyMs / static_cast<double>(refTyped.size()),
        static_cast<long long>(refTyped.size()), worstKeyMs / refWorstKeyMs);
    std::printf("  scroll (40x7 cells)  %8.3f ms per page   reference %.3f ms   ratio %.2f\n", scroll,
                refScroll, scroll / refScroll);
    std::printf("  memory (RSS delta)   %8.1f MiB (jobs generated + loaded; %.1f MiB of it generating)"
                "   (aim < 300 MB: %s)   reference %.1f MiB (its cells only)\n",
                ourRss, rssGenerated - rss0, verdict(ourRss, 300), refRss);
    return 0;
}
