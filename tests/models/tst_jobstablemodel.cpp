// JobsTableModel and JobsFilterProxy: structure checked by QAbstractItemModelTester, live updates
// one row at a time, batched dataChanged, filter and sort on raw values.
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"
#include "models/ModelExporter.h"
#include "tests/runner/SuiteRegistry.h"

#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <variant>

using namespace jobdeck;

namespace {

SparkJobSummary makeJob(const std::string& name, const std::string& cluster, JobType type, int minutes = 0) {
    SparkJobSummary j;
    j.name = name;
    j.cluster = cluster;
    j.type = type;
    j.updatedAt = TimePoint{} + std::chrono::hours(24 * 365 * 56) + std::chrono::minutes(minutes);
    return j;
}

std::vector<SparkJobSummary> sample() {
    return {makeJob("count_transactions", "demo_cluster", JobType::Jar, 3),
            makeJob("daily_report", "demo_cluster", JobType::Python, 1),
            makeJob("ingest_orders", "prod", JobType::Jar, 2)};
}

QStringList names(const QAbstractItemModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.index(r, JobsTableModel::Name).data().toString();
    return out;
}

// A model and its proxy, watched by QAbstractItemModelTester.
struct Watched final {
    JobsTableModel model;
    JobsFilterProxy proxy;
    std::unique_ptr<QAbstractItemModelTester> tester;
    Watched() {
        proxy.setSourceModel(&model);
        tester = std::make_unique<QAbstractItemModelTester>(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
};

// Every cell (display and raw), the filter's fields and the name index, row by row.
QStringList contents(const JobsTableModel& m) {
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r) {
        QStringList row;
        for (int c = 0; c < JobsTableModel::ColumnCount; ++c)
            for (int role : {int(Qt::DisplayRole), JobsTableModel::RawDataRole, int(Qt::ToolTipRole)})
                row << m.index(r, c).data(role).toString();
        const auto f = m.filterFields(r);
        row << QString::fromStdString(std::string(f.name) + "|" + std::string(f.cluster) + "|" +
                                      std::string(f.type));
        row << QString::number(m.rowOf(m.summary(r).name));
        out << row.join(QLatin1Char(';'));
    }
    return out;
}

std::vector<SparkJobSummary> randomJobs(int n, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<SparkJobSummary> jobs;
    for (int i = 0; i < n; ++i) {
        SparkJobSummary j =
            makeJob("Job" + std::to_string(random() % 100) + "_" + std::to_string(i),
                    "c" + std::to_string(random() % 4), random() % 2 ? JobType::Jar : JobType::Python,
                    static_cast<int>(random() % 50));
        j.maxConcurrentRuns = static_cast<int>(random() % 5);
        jobs.push_back(std::move(j));
    }
    return jobs;
}

// Jobs unlike each other in every way the list cares about: names and clusters with quotes,
// backslashes, control characters and non-ASCII text, run counts set and at their defaults, equal sort
// keys. No two names differ only in case, so every sort has one order.
std::vector<SparkJobSummary> variedJobs() {
    const std::vector<std::pair<std::string, std::string>> named = {
        {"count_transactions", "demo_cluster"},
        {"quote\"d job", "prod"},
        {"caf\xc3\xa9_\xc3\xa9t\xc3\xa9", "demo_cluster"},
        {"back\\slash", "cl\xc3\xbcster \"x\""},
        {"tab\tand\nnewline", "c\\1"},
        {"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x82\xb8\xe3\x83\xa7\xe3\x83\x96", "prod"},
        {"emoji_\xf0\x9f\x98\x80", ""},
        {"Zeta", "demo_cluster"},
        {"alpha", "prod"},
        {"same_prefix_of_16_chars_1", "same_prefix_of_16_chars_b"},
        {"SAME_prefix_of_16_chars_2", "same_prefix_of_16_chars_a"},
        {"ctl\x01"
         "char",
         "\x7f"
         "del"},
        {"slash/and\\u0041", "prod"},
        {"\xc3\xa9_first_byte_high", "demo_cluster"},
        {"ingest_orders", "prod"},
    };
    std::vector<SparkJobSummary> jobs;
    for (std::size_t i = 0; i < named.size(); ++i) {
        SparkJobSummary j =
            makeJob(named[i].first, named[i].second, i % 3 == 1 ? JobType::Python : JobType::Jar,
                    static_cast<int>(i % 4)); // equal update times
        if (i % 2 == 0) {                     // run counts set; the others keep their defaults
            j.maxConcurrentRuns = static_cast<int>(i % 5);
            j.activeRuns = static_cast<int>(i % 3);
        }
        jobs.push_back(std::move(j));
    }
    for (SparkJobSummary& j : randomJobs(60, 11)) // equal clusters, types and run counts
        jobs.push_back(std::move(j));
    return jobs;
}

// A watched model (the model and its proxy under QAbstractItemModelTester) sorted by `column` and
// `order`, then loaded with rows prepared as JobsListLoader loads them.
struct LoadedList final {
    Watched w;
    QAbstractItemModelTester modelTester{&w.model, QAbstractItemModelTester::FailureReportingMode::QtTest};
    LoadedList(const std::vector<SparkJobSummary>& jobs, int column, Qt::SortOrder order) {
        w.model.sort(column, order);
        w.model.setPreparedRows(JobsTableModel::prepareRows(jobs, w.model.sortColumn(), w.model.sortOrder()));
    }
};

QString describe(const SparkJobSummary& job) {
    return QString::fromStdString(nlohmann::json(job).dump());
}

// What a model shows and holds: every cell, the name index, the summaries and the recent runs.
void compareModels(const JobsTableModel& actual, const JobsTableModel& expected) {
    QCOMPARE(actual.rowCount(), expected.rowCount());
    QCOMPARE(contents(actual), contents(expected));
    for (int r = 0; r < expected.rowCount(); ++r) {
        const SparkJobSummary a = actual.summary(r), e = expected.summary(r);
        QVERIFY2(a == e,
                 qPrintable(QStringLiteral("row %1: %2 instead of %3").arg(r).arg(describe(a), describe(e))));
        QCOMPARE(std::string(actual.name(r)), e.name);
        QCOMPARE(actual.rowOf(e.name), r);
        QCOMPARE(actual.recentRuns(r), expected.recentRuns(r));
    }
}

// A model loaded from `jobs` by setJobs, in a sort, with recent runs: what the model under test should
// equal.
struct Expected final {
    std::vector<SparkJobSummary> jobs; // in the order of arrival
    std::map<std::string, std::vector<JobRunStatus>> recent;
    std::unique_ptr<JobsTableModel> model(int column, Qt::SortOrder order) const {
        auto m = std::make_unique<JobsTableModel>();
        m->sort(column, order);
        m->setJobs(jobs);
        for (const auto& [name, runs] : recent)
            m->setRecentRuns(name, runs);
        return m;
    }
    void upsert(const SparkJobSummary& job) {
        const auto at = std::find_if(jobs.begin(), jobs.end(),
                                     [&](const SparkJobSummary& j) { return j.name == job.name; });
        if (at == jobs.end())
            jobs.push_back(job);
        else
            *at = job;
    }
    void remove(const std::string& name) {
        std::erase_if(jobs, [&](const SparkJobSummary& j) { return j.name == name; });
        recent.erase(name);
    }
};

} // namespace

class TestJobsTableModel final : public QObject {
    Q_OBJECT
private slots:
    void structureAndValues() {
        JobsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(sample());
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(JobsTableModel::ColumnCount));
        const int row = model.rowOf("daily_report");
        QCOMPARE(row, 1);
        QCOMPARE(model.index(row, JobsTableModel::Type).data().toString(), QStringLiteral("PYTHON"));
        QCOMPARE(model.index(row, JobsTableModel::Cluster).data(JobsTableModel::RawDataRole).toString(),
                 QStringLiteral("demo_cluster"));
        QCOMPARE(
            model.index(row, JobsTableModel::MaxConcurrentRuns).data(JobsTableModel::RawDataRole).toInt(), 1);
        const QDateTime updated =
            model.index(row, JobsTableModel::Updated).data(JobsTableModel::RawDataRole).toDateTime();
        QVERIFY(updated.isValid());
        QCOMPARE(updated.timeSpec(), Qt::UTC);
        // Shown as the runs and the audit log show times: local, to the second, one sortable form.
        QCOMPARE(model.index(row, JobsTableModel::Updated).data().toString(),
                 updated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        QCOMPARE(model.headerData(JobsTableModel::RecentRuns, Qt::Horizontal).toString(),
                 QStringLiteral("Recent runs"));
        QCOMPARE(model.rowOf("missing"), -1);
    }

    void upsertUpdatesOneRowAndAppendsNewOnes() {
        JobsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(sample());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        SparkJobSummary altered = makeJob("ingest_orders", "demo_cluster", JobType::Jar, 9);
        altered.maxConcurrentRuns = 3;
        model.upsertJob(altered);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 2);
        QCOMPARE(changed.first().at(1).toModelIndex().row(), 2);
        QCOMPARE(model.index(2, JobsTableModel::MaxConcurrentRuns).data().toInt(), 3);
        QCOMPARE(model.index(2, JobsTableModel::Cluster).data().toString(), QStringLiteral("demo_cluster"));
        QCOMPARE(inserted.count(), 0);
        model.upsertJob(makeJob("new_job", "demo_cluster", JobType::Python));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.rowOf("new_job"), 3);
        QCOMPARE(reset.count(), 0); // never a full reload for a live update
    }

    void manyUpdatesAreOneDataChangedSpan() {
        JobsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<SparkJobSummary> jobs;
        for (int i = 0; i < 100; ++i)
            jobs.push_back(makeJob("job" + std::to_string(i), "c", JobType::Jar));
        model.setJobs(jobs);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        std::vector<SparkJobSummary> updates;
        for (int i : {10, 40, 70})
            updates.push_back(makeJob("job" + std::to_string(i), "other", JobType::Jar));
        model.upsertJobs(updates);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 10);
        QCOMPARE(changed.first().at(1).toModelIndex().row(), 70);
        QCOMPARE(model.index(40, JobsTableModel::Cluster).data().toString(), QStringLiteral("other"));
    }

    void removeKeepsIndexConsistent() {
        JobsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(sample());
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        model.removeJob("count_transactions");
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.rowOf("daily_report"), 0);
        QCOMPARE(model.rowOf("ingest_orders"), 1);
        model.removeJob("count_transactions"); // already gone: nothing happens
        QCOMPARE(removed.count(), 1);
    }

    void recentRuns() {
        JobsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(sample());
        std::vector<JobRunStatus> many(15, JobRunStatus::Completed);
        many.front() = JobRunStatus::Failed;
        model.setRecentRuns("daily_report", many);
        const QVariantList dots =
            model.index(1, JobsTableModel::RecentRuns).data(JobsTableModel::RawDataRole).toList();
        QCOMPARE(dots.size(), JobsTableModel::kRecentRunsKept);
        QCOMPARE(dots.front().toInt(), int(JobRunStatus::Failed));
        QVERIFY(model.index(1, JobsTableModel::RecentRuns)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith("Newest first: FAILED"));

        std::vector<SparkJobRun> runs;
        for (int i = 0; i < 12; ++i) {
            SparkJobRun r;
            r.jobRunId = "r" + std::to_string(i);
            r.jobName = i % 2 ? "count_transactions" : "ingest_orders";
            r.status = i == 0 ? JobRunStatus::Running : JobRunStatus::Completed;
            runs.push_back(r);
        }
        model.setRecentRunsFromRuns(runs);
        QCOMPARE(model.recentRuns(model.rowOf("ingest_orders")).size(), std::size_t(6));
        QCOMPARE(model.recentRuns(model.rowOf("ingest_orders")).front(), JobRunStatus::Running);
        // Recent runs survive a reload of the jobs.
        model.setJobs(sample());
        QCOMPARE(model.recentRuns(model.rowOf("ingest_orders")).size(), std::size_t(6));
    }

    void proxyFiltersWithJobFilter() {
        JobsTableModel model;
        JobsFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJobs(sample());
        proxy.sort(JobsTableModel::Name);
        QCOMPARE(proxy.rowCount(), 3);
        proxy.setFilterText(QStringLiteral("cluster:demo"));
        QCOMPARE(names(proxy), (QStringList{"count_transactions", "daily_report"}));
        proxy.setFilterText(QStringLiteral("cluster:demo type:python"));
        QCOMPARE(names(proxy), QStringList{"daily_report"});
        proxy.setFilterText(QStringLiteral("-type:python"));
        QCOMPARE(names(proxy), (QStringList{"count_transactions", "ingest_orders"}));
        proxy.setFilterText(QStringLiteral("nothing_like_this"));
        QCOMPARE(proxy.rowCount(), 0);
        // Live rows are filtered as they come.
        model.upsertJob(makeJob("nothing_like_this_one", "x", JobType::Jar));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setFilterText({});
        QCOMPARE(proxy.rowCount(), 4);
    }

    void proxySortsByRawValues() {
        JobsTableModel model;
        JobsFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto jobs = sample();
        jobs[0].maxConcurrentRuns = 10; // 10 > 2 as numbers, not as text
        jobs[2].maxConcurrentRuns = 2;
        model.setJobs(jobs);
        proxy.sort(JobsTableModel::MaxConcurrentRuns, Qt::DescendingOrder);
        QCOMPARE(names(proxy).front(), QStringLiteral("count_transactions"));
        proxy.sort(JobsTableModel::Updated, Qt::AscendingOrder);
        QCOMPARE(names(proxy), (QStringList{"daily_report", "ingest_orders", "count_transactions"}));
        proxy.sort(JobsTableModel::Name, Qt::DescendingOrder);
        QCOMPARE(names(proxy), (QStringList{"ingest_orders", "daily_report", "count_transactions"}));
        // A row that changes is moved to its sorted place.
        model.upsertJob(makeJob("daily_report", "demo_cluster", JobType::Python, 100));
        proxy.sort(JobsTableModel::Updated, Qt::AscendingOrder);
        QCOMPARE(names(proxy).back(), QStringLiteral("daily_report"));
    }

    // Sorting compares packed keys first; the order must be the one the columns' values give, ties by
    // name, including names alike in their first 16 characters or differing only in case.
    void sortOrdersByValueThenName() {
        Watched w;
        JobsTableModel& model = w.model;
        JobsFilterProxy& proxy = w.proxy;
        std::mt19937 random(3);
        const char* stems[] = {"a", "B", "same_prefix_of_16_chars_", "SAME_prefix_of_16_chars_", "zz", ""};
        std::vector<SparkJobSummary> jobs;
        for (int i = 0; i < 400; ++i) {
            SparkJobSummary j =
                makeJob(stems[random() % 6] + std::to_string(random() % 1000) + "_" + std::to_string(i),
                        stems[random() % 6] + std::to_string(random() % 3),
                        random() % 2 ? JobType::Jar : JobType::Python, static_cast<int>(random() % 50) - 25);
            j.maxConcurrentRuns = static_cast<int>(random() % 7) - 3;
            j.activeRuns = static_cast<int>(random() % 3);
            jobs.push_back(std::move(j));
        }
        model.setJobs(jobs);
        const auto fold = [](std::string s) {
            for (char& c : s)
                c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
            return s;
        };
        const auto value = [&](const SparkJobSummary& j, int column) -> std::variant<std::string, long long> {
            switch (column) {
            case JobsTableModel::Type:
                return fold(std::string(jobTypeName(j.type)));
            case JobsTableModel::Cluster:
                return fold(j.cluster);
            case JobsTableModel::MaxConcurrentRuns:
                return j.maxConcurrentRuns;
            case JobsTableModel::ActiveRuns:
                return j.activeRuns;
            case JobsTableModel::Updated:
                return static_cast<long long>(j.updatedAt.time_since_epoch().count());
            default:
                return fold(j.name);
            }
        };
        for (int column :
             {JobsTableModel::Name, JobsTableModel::Type, JobsTableModel::Cluster,
              JobsTableModel::MaxConcurrentRuns, JobsTableModel::ActiveRuns, JobsTableModel::Updated})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                proxy.sort(column, order);
                for (int r = 1; r < model.rowCount(); ++r) {
                    const SparkJobSummary a = model.summary(r - 1);
                    const SparkJobSummary b = model.summary(r);
                    auto ka = std::make_pair(value(a, column), fold(a.name));
                    auto kb = std::make_pair(value(b, column), fold(b.name));
                    if (order == Qt::DescendingOrder)
                        std::swap(ka, kb);
                    QVERIFY2(!(kb < ka), qPrintable(QStringLiteral("column %1: %2 before %3")
                                                        .arg(column)
                                                        .arg(QString::fromStdString(a.name),
                                                             QString::fromStdString(b.name))));
                }
            }
    }

    // The filter reads a packed copy of the rows' fields: it must follow every change of the rows.
    void filterFollowsEveryChange() {
        Watched w;
        JobsTableModel& model = w.model;
        JobsFilterProxy& proxy = w.proxy;
        std::mt19937 random(5);
        const auto job = [&](int n) {
            return makeJob("job_" + std::to_string(n), "cluster_" + std::to_string(random() % 4),
                           random() % 2 ? JobType::Jar : JobType::Python, static_cast<int>(random() % 100));
        };
        std::vector<SparkJobSummary> jobs;
        for (int i = 0; i < 60; ++i)
            jobs.push_back(job(i));
        model.setJobs(jobs);
        proxy.sort(JobsTableModel::Updated);
        // A row changed in place (its sort position kept) is filtered by its new fields.
        proxy.setFilterText(QStringLiteral("cluster:elsewhere"));
        QCOMPARE(proxy.rowCount(), 0);
        SparkJobSummary moved = model.summary(model.rowOf("job_7"));
        moved.cluster = "elsewhere";
        model.upsertJob(moved);
        QCOMPARE(names(proxy), QStringList{"job_7"});
        const QString texts[] = {QStringLiteral("cluster:cluster_1"), QStringLiteral("type:py job_1"),
                                 QStringLiteral("-cluster:cluster_2 2")};
        for (int step = 0; step < 300; ++step) {
            proxy.setFilterText(texts[random() % 3]);
            switch (random() % 5) {
            case 0:
                model.upsertJob(job(static_cast<int>(random() % 80))); // changed, or new
                break;
            case 1:
                model.removeJob("job_" + std::to_string(random() % 80));
                break;
            case 2:
                model.setRecentRuns("job_" + std::to_string(random() % 80), {JobRunStatus::Running});
                break;
            case 3:
                proxy.sort(static_cast<int>(random() % 2) ? JobsTableModel::Name : JobsTableModel::Cluster,
                           random() % 2 ? Qt::AscendingOrder : Qt::DescendingOrder);
                break;
            default:
                if (random() % 10 == 0)
                    model.setJobs({job(1), job(2), job(3)});
                break;
            }
            QStringList expected;
            for (int r = 0; r < model.rowCount(); ++r) {
                const SparkJobSummary j = model.summary(r);
                if (proxy.filter().matches(j.name, j.cluster, jobTypeName(j.type)))
                    expected << QString::fromStdString(j.name);
            }
            QCOMPARE(names(proxy), expected);
        }
    }

    // A reload (after a reconnect, or Refresh) keeps the order the user chose, and every row stays
    // findable by name through inserts and removals in the middle.
    void rowsPreparedOnAWorkerEqualSetJobs() {
        // The rows built and sorted on another thread and swapped in give the model setJobs() gives, in
        // every sort; recent runs carry over, and a sort chosen while they were built is applied.
        const std::vector<SparkJobSummary> jobs = randomJobs(300, 5);
        for (int column : {int(JobsTableModel::Name), int(JobsTableModel::Cluster),
                           int(JobsTableModel::MaxConcurrentRuns), int(JobsTableModel::RecentRuns)}) {
            Watched expected, actual;
            for (Watched* w : {&expected, &actual}) {
                w->proxy.sort(JobsTableModel::Name, Qt::DescendingOrder);
                w->model.setJobs({jobs.begin(), jobs.begin() + 40}); // an earlier load, whose jobs stay
                for (int k = 0; k < 40; k += 3)
                    w->model.setRecentRuns(jobs[static_cast<std::size_t>(k)].name,
                                           {JobRunStatus(k % 4), JobRunStatus::Completed});
                w->model.setJobs(jobs); // now holds the recent runs of the jobs that stay
                for (int k = 0; k < 300; k += 7)
                    w->model.setRecentRuns(jobs[static_cast<std::size_t>(k)].name, {JobRunStatus(k % 5)});
            }
            expected.proxy.sort(column, Qt::AscendingOrder);
            expected.model.setJobs(jobs);
            std::shared_ptr<JobsTableModel::PreparedRows> prepared;
            std::thread worker([&] {
                prepared =
                    JobsTableModel::prepareRows(jobs, actual.model.sortColumn(), actual.model.sortOrder());
            });
            worker.join();
            actual.proxy.sort(column, Qt::AscendingOrder); // the user clicked a header meanwhile
            QSignalSpy resets(&actual.model, &QAbstractItemModel::modelReset);
            actual.model.setPreparedRows(std::move(prepared));
            QCOMPARE(resets.count(), 1);
            QCOMPARE(actual.model.rowCount(), 300);
            QCOMPARE(contents(actual.model), contents(expected.model));
            QCOMPARE(actual.model.recentRuns(actual.model.rowOf(jobs[7].name)),
                     std::vector<JobRunStatus>{JobRunStatus(7 % 5)});
            actual.proxy.setFilterText(QStringLiteral("cluster:c1"));
            expected.proxy.setFilterText(QStringLiteral("cluster:c1"));
            QCOMPARE(names(actual.proxy), names(expected.proxy));
            QVERIFY(actual.proxy.rowCount() > 30);
        }
    }

    void preparedRowsReplaceWhateverChangedMeanwhile() {
        // Loads overlap: rows prepared for one answer are swapped in after live updates to the rows
        // shown, and a newer load's rows right after; each swap leaves exactly its own jobs, indexed,
        // filterable and in the current sort, and the rows it replaced (freed on a worker) are not
        // read again.
        Watched w;
        w.proxy.sort(JobsTableModel::Cluster, Qt::DescendingOrder);
        w.model.setJobs(randomJobs(50, 8));
        const std::vector<SparkJobSummary> first = randomJobs(120, 9), second = randomJobs(80, 10);
        auto preparedFirst = JobsTableModel::prepareRows(first, w.model.sortColumn(), w.model.sortOrder());
        auto preparedSecond = JobsTableModel::prepareRows(second, w.model.sortColumn(), w.model.sortOrder());
        w.model.upsertJob(makeJob("live_update", "c9", JobType::Jar));
        w.model.removeJob(w.model.summary(0).name);
        for (auto* prepared : {&preparedFirst, &preparedSecond}) {
            const std::vector<SparkJobSummary>& jobs = prepared == &preparedFirst ? first : second;
            w.model.setPreparedRows(std::move(*prepared));
            JobsTableModel expected;
            expected.sort(JobsTableModel::Cluster, Qt::DescendingOrder);
            expected.setJobs(jobs);
            QCOMPARE(contents(w.model), contents(expected));
            QCOMPARE(w.model.rowOf("live_update"), -1);
            w.proxy.setFilterText(QStringLiteral("cluster:c2"));
            QCOMPARE(w.proxy.rowCount(),
                     static_cast<int>(std::count_if(jobs.begin(), jobs.end(), [](const SparkJobSummary& j) {
                         return j.cluster == "c2";
                     })));
            w.proxy.setFilterText({});
        }
        QThreadPool::globalInstance()->waitForDone(); // the replaced rows are freed by then
        QCOMPARE(w.model.rowCount(), 80);
    }

    // A load prepared in one sort and swapped in after the user chose another is re-sorted.
    void rowsPreparedInAnotherSortAreResorted() {
        const std::vector<SparkJobSummary> jobs = variedJobs();
        Watched actual;
        auto prepared = JobsTableModel::prepareRows(jobs, JobsTableModel::Name, Qt::AscendingOrder);
        actual.model.sort(JobsTableModel::Cluster, Qt::DescendingOrder);
        actual.model.setPreparedRows(std::move(prepared));
        JobsTableModel expected;
        expected.sort(JobsTableModel::Cluster, Qt::DescendingOrder);
        expected.setJobs(jobs);
        compareModels(actual.model, expected);
    }

    // Live changes to rows that came from a load: a loaded job replaced, a new job inserted at its sorted
    // place, loaded and upserted rows removed; after each step the model equals one setJobs() made of the
    // jobs expected by then.
    void liveChangesOnLoadedRows() {
        const std::vector<SparkJobSummary> jobs = variedJobs();
        for (int column : {-1, int(JobsTableModel::Name), int(JobsTableModel::Cluster),
                           int(JobsTableModel::Updated), int(JobsTableModel::RecentRuns)})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                const QByteArray where =
                    "column " + QByteArray::number(column) + ", order " + QByteArray::number(order);
                LoadedList loaded(jobs, column, order);
                JobsTableModel& model = loaded.w.model;
                Expected expected{jobs, {}};
                const auto check = [&](const char* step) {
                    compareModels(model, *expected.model(column, order));
                    for (const SparkJobSummary& j : expected.jobs)
                        QVERIFY2(model.rowOf(j.name) >= 0, j.name.c_str());
                    QCOMPARE(model.rowCount(), static_cast<int>(expected.jobs.size()));
                    if (QTest::currentTestFailed())
                        qWarning("%s, after %s", where.constData(), step);
                };

                // A loaded job's new version: same name, another cluster.
                SparkJobSummary changed = jobs[1]; // quote"d job
                changed.cluster = "moved_\xc3\xa9";
                changed.updatedAt += std::chrono::minutes(30);
                QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
                model.upsertJob(changed);
                expected.upsert(changed);
                QCOMPARE(inserted.count(), 0);
                const int changedRow = model.rowOf(changed.name);
                QVERIFY(changedRow >= 0);
                QCOMPARE(model.index(changedRow, JobsTableModel::Cluster).data().toString(),
                         QString::fromUtf8("moved_\xc3\xa9"));
                QVERIFY(model.summary(changedRow) == changed);
                check("replacing a loaded job");
                if (QTest::currentTestFailed())
                    return;

                // A new job goes to its sorted place.
                const SparkJobSummary fresh =
                    makeJob("new_\xc3\xa9_job \"q\"", "demo_cluster", JobType::Python, 2);
                model.upsertJob(fresh);
                expected.upsert(fresh);
                QCOMPARE(inserted.count(), 1);
                QCOMPARE(inserted.first().at(1).toInt(), model.rowOf(fresh.name));
                QVERIFY(model.summary(model.rowOf(fresh.name)) == fresh);
                check("inserting a new job");
                if (QTest::currentTestFailed())
                    return;

                // Recent runs on a loaded row and on the new one.
                for (const std::string& name : {jobs[2].name, fresh.name, jobs[20].name}) {
                    const std::vector<JobRunStatus> runs{JobRunStatus::Failed, JobRunStatus::Completed};
                    model.setRecentRuns(name, runs);
                    expected.recent[name] = runs;
                }
                check("recent runs");
                if (QTest::currentTestFailed())
                    return;

                // Removing a loaded row, the upserted new row, and the replaced loaded row.
                for (const std::string& name : {jobs[2].name, fresh.name, changed.name, jobs[0].name}) {
                    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
                    model.removeJob(name);
                    expected.remove(name);
                    QCOMPARE(removed.count(), 1);
                    QCOMPARE(model.rowOf(name), -1);
                    check(name.c_str());
                    if (QTest::currentTestFailed())
                        return;
                }
                model.removeJob(changed.name); // gone already: nothing happens
                check("removing again");
                if (QTest::currentTestFailed())
                    return;

                // The removed names come back (as new rows), then a random mix of all of it.
                std::mt19937 random(static_cast<unsigned>(column + 10 * order + 100));
                for (int step = 0; step < 40; ++step) {
                    const auto pick = [&]() -> SparkJobSummary { return jobs[random() % jobs.size()]; };
                    switch (random() % 6) {
                    case 0:
                    case 1: { // a new version of some job: it may be loaded, upserted, or removed
                        SparkJobSummary j = pick();
                        j.cluster = "c" + std::to_string(random() % 5) + (random() % 2 ? "\xc3\xa9" : "\"");
                        j.updatedAt += std::chrono::minutes(random() % 100);
                        j.maxConcurrentRuns = static_cast<int>(random() % 4);
                        j.type = random() % 2 ? JobType::Jar : JobType::Python;
                        model.upsertJob(j);
                        expected.upsert(j);
                        break;
                    }
                    case 2: { // several at once, some new
                        std::vector<SparkJobSummary> batch;
                        for (int k = 0; k < 3; ++k) {
                            SparkJobSummary j = k == 2
                                                    ? makeJob("batch_" + std::to_string(random() % 20), "b",
                                                              JobType::Jar, static_cast<int>(random() % 9))
                                                    : pick();
                            j.activeRuns = static_cast<int>(random() % 3);
                            if (std::none_of(batch.begin(), batch.end(),
                                             [&](const SparkJobSummary& b) { return b.name == j.name; }))
                                batch.push_back(j);
                        }
                        for (const SparkJobSummary& j : batch)
                            expected.upsert(j);
                        model.upsertJobs(batch);
                        break;
                    }
                    case 3: {
                        const std::string name =
                            random() % 4 == 0 ? "batch_" + std::to_string(random() % 20) : pick().name;
                        model.removeJob(name);
                        expected.remove(name);
                        break;
                    }
                    case 4: {
                        const std::string name = pick().name;
                        const std::vector<JobRunStatus> runs{JobRunStatus(random() % 5),
                                                             JobRunStatus(random() % 5)};
                        model.setRecentRuns(name, runs);
                        if (std::any_of(expected.jobs.begin(), expected.jobs.end(),
                                        [&](const SparkJobSummary& j) { return j.name == name; }))
                            expected.recent[name] = runs;
                        break;
                    }
                    default:
                        model.removeJob("never_there");
                        break;
                    }
                    check(("random step " + std::to_string(step)).c_str());
                    if (QTest::currentTestFailed())
                        return;
                }
            }
    }

    // A reload after live changes: the new list's rows replace all rows (loaded, replaced and new
    // alike), recent runs of the jobs still there carry over, and the replaced rows are not read again.
    void reloadAfterLiveChanges() {
        const std::vector<SparkJobSummary> first = variedJobs();
        for (int column :
             {int(JobsTableModel::Name), int(JobsTableModel::RecentRuns), int(JobsTableModel::Cluster)})
            for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder}) {
                const QByteArray where =
                    "column " + QByteArray::number(column) + ", order " + QByteArray::number(order);
                LoadedList loaded(first, column, order);
                JobsTableModel& model = loaded.w.model;
                // Live changes: a loaded job replaced, a new one, one removed.
                SparkJobSummary replaced = first[3];
                replaced.cluster = "replaced";
                model.upsertJob(replaced);
                const SparkJobSummary fresh = makeJob("fresh_\xe6\x97\xa5", "prod", JobType::Jar, 7);
                model.upsertJob(fresh);
                model.removeJob(first[4].name);
                std::map<std::string, std::vector<JobRunStatus>> recent = {
                    {first[0].name, {JobRunStatus::Running}},                         // loaded, stays
                    {replaced.name, {JobRunStatus::Failed, JobRunStatus::Completed}}, // replaced, stays
                    {fresh.name, {JobRunStatus::Canceled}},                           // new, stays
                    {first[5].name, {JobRunStatus::Queued}},                          // loaded, goes
                    {first[1].name, {JobRunStatus::Completed, JobRunStatus::Failed}}, // loaded, stays
                };
                for (const auto& [name, runs] : recent)
                    model.setRecentRuns(name, runs);

                // The service's next answer: some jobs gone, some changed, some new, the fresh one in it.
                std::vector<SparkJobSummary> second;
                for (std::size_t i = 0; i < first.size(); ++i) {
                    if (i == 5 || i % 7 == 6)
                        continue;
                    SparkJobSummary j = first[i];
                    if (i % 5 == 1)
                        j.cluster += "_v2";
                    second.push_back(std::move(j));
                }
                second.push_back(fresh);
                second.push_back(makeJob("second_only \"q\"", "c2", JobType::Python, 1));
                std::reverse(second.begin(), second.end());

                QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
                model.setPreparedRows(
                    JobsTableModel::prepareRows(second, model.sortColumn(), model.sortOrder()));
                QCOMPARE(resets.count(), 1);
                Expected expected{second, {}};
                for (const auto& entry : recent)
                    if (std::any_of(second.begin(), second.end(),
                                    [&](const SparkJobSummary& j) { return j.name == entry.first; }))
                        expected.recent[entry.first] = entry.second;
                QCOMPARE(expected.recent.size(), std::size_t(4));
                compareModels(model, *expected.model(column, order));
                if (QTest::currentTestFailed())
                    QFAIL(where.constData());
                QCOMPARE(model.rowOf(first[5].name), -1);
                QCOMPARE(model.summary(model.rowOf(replaced.name)),
                         first[3]); // the list's version, not the upsert
                QCOMPARE(model.recentRuns(model.rowOf(replaced.name)),
                         (std::vector<JobRunStatus>{JobRunStatus::Failed, JobRunStatus::Completed}));

                // The replaced rows are freed on a worker; a third load (list to list) still carries the
                // recent runs, and live changes keep working on its rows.
                QThreadPool::globalInstance()->waitForDone();
                compareModels(model, *expected.model(column, order));
                model.setRecentRuns("second_only \"q\"", {JobRunStatus::Running, JobRunStatus::Running});
                expected.recent["second_only \"q\""] = {JobRunStatus::Running, JobRunStatus::Running};
                model.setPreparedRows(
                    JobsTableModel::prepareRows(second, model.sortColumn(), model.sortOrder()));
                QThreadPool::globalInstance()->waitForDone();
                compareModels(model, *expected.model(column, order));
                if (QTest::currentTestFailed())
                    QFAIL(where.constData());
                SparkJobSummary again = second[2];
                again.cluster = "again";
                model.upsertJob(again);
                expected.upsert(again);
                model.removeJob(second[0].name);
                expected.remove(second[0].name);
                compareModels(model, *expected.model(column, order));
                if (QTest::currentTestFailed())
                    QFAIL(where.constData());
            }
    }

    void reloadKeepsSortAndIndex() {
        JobsTableModel model;
        JobsFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(JobsTableModel::Name, Qt::DescendingOrder);
        model.setJobs(sample());
        QCOMPARE(names(proxy), (QStringList{"ingest_orders", "daily_report", "count_transactions"}));
        model.upsertJob(makeJob("Early_job", "prod", JobType::Jar)); // case-insensitive: between d and c
        model.upsertJob(makeJob("zeta", "prod", JobType::Jar));
        QCOMPARE(names(proxy),
                 (QStringList{"zeta", "ingest_orders", "Early_job", "daily_report", "count_transactions"}));
        model.removeJob("daily_report");
        const auto updatedText = [&model] {
            return model.index(model.rowOf("Early_job"), JobsTableModel::Updated).data().toString();
        };
        const QString before = updatedText();
        model.upsertJob(makeJob("Early_job", "other", JobType::Python, 90)); // replaced in place
        QVERIFY(!before.isEmpty());
        QVERIFY2(updatedText() != before, qPrintable(before)); // the shown text follows the job
        for (const char* name : {"zeta", "ingest_orders", "Early_job", "count_transactions"})
            QCOMPARE(model.summary(model.rowOf(name)).name, std::string(name));
        QCOMPARE(model.summary(model.rowOf("Early_job")).cluster, std::string("other"));
        QCOMPARE(model.rowOf("daily_report"), -1);
        model.setJobs(sample());
        QCOMPARE(names(proxy), (QStringList{"ingest_orders", "daily_report", "count_transactions"}));
        QCOMPARE(model.rowOf("zeta"), -1);
    }

    // File → Export writes what a file needs, not what the view paints: Updated as ISO 8601 in UTC, the
    // recent runs (dots on screen) as words, newest first.
    void exportsTimesAsIso8601AndRunsAsWords() {
        JobsTableModel model;
        model.setJobs(sample());
        model.setRecentRuns("daily_report", {JobRunStatus::Failed, JobRunStatus::Completed});
        ModelExporter exporter(model);
        exporter.setColumns({JobsTableModel::Name, JobsTableModel::RecentRuns, JobsTableModel::Updated});
        const QString csv = QString::fromUtf8(exporter.csv());
        const int row = model.rowOf("daily_report");
        const QString updated = QString::fromStdString(formatTimestamp(model.summary(row).updatedAt));
        QVERIFY2(updated.endsWith(QLatin1Char('Z')), qPrintable(updated));
        QVERIFY2(csv.contains(QStringLiteral("daily_report,\"FAILED, COMPLETED\",") + updated),
                 qPrintable(csv));
        // The view still shows the local short form and paints the dots.
        QVERIFY(model.index(row, JobsTableModel::Updated).data().toString() != updated);
        QVERIFY(!model.index(row, JobsTableModel::RecentRuns).data().isValid());
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestJobsTableModel)
#include "tst_jobstablemodel.moc"
