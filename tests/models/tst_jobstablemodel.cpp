// JobsTableModel and JobsFilterProxy: structure checked by QAbstractItemModelTester, live updates
// one row at a time, batched dataChanged, filter and sort on raw values.
#include "models/JobsFilterProxy.h"
#include "models/JobsTableModel.h"

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

#include <algorithm>
#include <memory>
#include <random>
#include <thread>
#include <variant>

using namespace jobdeck;

namespace {

SparkJob makeJob(const std::string& name, const std::string& cluster, JobType type, int minutes = 0) {
    SparkJob j;
    j.jobId = "id-" + name;
    j.name = name;
    j.cluster = cluster;
    j.type = type;
    j.parameters = {"s3://b/" + name + ".jar"};
    j.applicationPath = j.parameters.front();
    j.createdAt = TimePoint{} + std::chrono::hours(24 * 365 * 56);
    j.updatedAt = j.createdAt + std::chrono::minutes(minutes);
    return j;
}

std::vector<SparkJob> sample() {
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
        row << QString::number(m.rowOf(m.job(r).name));
        out << row.join(QLatin1Char(';'));
    }
    return out;
}

std::vector<SparkJob> randomJobs(int n, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<SparkJob> jobs;
    for (int i = 0; i < n; ++i) {
        SparkJob j = makeJob("Job" + std::to_string(random() % 100) + "_" + std::to_string(i),
                             "c" + std::to_string(random() % 4),
                             random() % 2 ? JobType::Jar : JobType::Python, static_cast<int>(random() % 50));
        j.maxConcurrentRuns = static_cast<int>(random() % 5);
        jobs.push_back(std::move(j));
    }
    return jobs;
}

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
        QVERIFY(!model.index(row, JobsTableModel::Updated).data().toString().isEmpty());
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
        SparkJob altered = makeJob("ingest_orders", "demo_cluster", JobType::Jar, 9);
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
        std::vector<SparkJob> jobs;
        for (int i = 0; i < 100; ++i)
            jobs.push_back(makeJob("job" + std::to_string(i), "c", JobType::Jar));
        model.setJobs(jobs);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        std::vector<SparkJob> updates;
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
        std::vector<SparkJob> jobs;
        for (int i = 0; i < 400; ++i) {
            SparkJob j =
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
        const auto value = [&](const SparkJob& j, int column) -> std::variant<std::string, long long> {
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
                    const SparkJob& a = model.job(r - 1);
                    const SparkJob& b = model.job(r);
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
        std::vector<SparkJob> jobs;
        for (int i = 0; i < 60; ++i)
            jobs.push_back(job(i));
        model.setJobs(jobs);
        proxy.sort(JobsTableModel::Updated);
        // A row changed in place (its sort position kept) is filtered by its new fields.
        proxy.setFilterText(QStringLiteral("cluster:elsewhere"));
        QCOMPARE(proxy.rowCount(), 0);
        SparkJob moved = model.job(model.rowOf("job_7"));
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
                const SparkJob& j = model.job(r);
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
        const std::vector<SparkJob> jobs = randomJobs(300, 5);
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
        const std::vector<SparkJob> first = randomJobs(120, 9), second = randomJobs(80, 10);
        auto preparedFirst = JobsTableModel::prepareRows(first, w.model.sortColumn(), w.model.sortOrder());
        auto preparedSecond = JobsTableModel::prepareRows(second, w.model.sortColumn(), w.model.sortOrder());
        w.model.upsertJob(makeJob("live_update", "c9", JobType::Jar));
        w.model.removeJob(w.model.job(0).name);
        for (auto* prepared : {&preparedFirst, &preparedSecond}) {
            const std::vector<SparkJob>& jobs = prepared == &preparedFirst ? first : second;
            w.model.setPreparedRows(std::move(*prepared));
            JobsTableModel expected;
            expected.sort(JobsTableModel::Cluster, Qt::DescendingOrder);
            expected.setJobs(jobs);
            QCOMPARE(contents(w.model), contents(expected));
            QCOMPARE(w.model.rowOf("live_update"), -1);
            w.proxy.setFilterText(QStringLiteral("cluster:c2"));
            QCOMPARE(w.proxy.rowCount(),
                     static_cast<int>(std::count_if(jobs.begin(), jobs.end(),
                                                    [](const SparkJob& j) { return j.cluster == "c2"; })));
            w.proxy.setFilterText({});
        }
        QThreadPool::globalInstance()->waitForDone(); // the replaced rows are freed by then
        QCOMPARE(w.model.rowCount(), 80);
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
            QCOMPARE(model.job(model.rowOf(name)).name, std::string(name));
        QCOMPARE(model.job(model.rowOf("Early_job")).cluster, std::string("other"));
        QCOMPARE(model.rowOf("daily_report"), -1);
        model.setJobs(sample());
        QCOMPARE(names(proxy), (QStringList{"ingest_orders", "daily_report", "count_transactions"}));
        QCOMPARE(model.rowOf("zeta"), -1);
    }
};

QTEST_GUILESS_MAIN(TestJobsTableModel)
#include "tst_jobstablemodel.moc"
