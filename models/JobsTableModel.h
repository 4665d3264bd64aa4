#pragma once

#include "core/wire/SparkJobRun.h"
#include "core/wire/SparkJobSummary.h"

#include <QAbstractTableModel>
#include <QString>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace jobdeck {

// The Jobs list: one row per Job, each holding the job's summary (SHOW JOBS SUMMARY; a job's whole
// object comes from DESCRIBE JOB when it is opened). Live-updated one row at a time (upsertJob /
// removeJob) so events never force a full reload. Updates of many rows are announced as one
// dataChanged span.
class JobsTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Type, Cluster, MaxConcurrentRuns, ActiveRuns, RecentRuns, Updated, ColumnCount };
    // The underlying value: QString, int, QDateTime (UTC), or for RecentRuns a QVariantList of
    // JobRunStatus as int, newest first.
    static constexpr int RawDataRole = Qt::UserRole;
    static constexpr int kRecentRunsKept = 10;

    explicit JobsTableModel(QObject* parent = nullptr);
    ~JobsTableModel() override;

    // A full load's rows made ready on a worker thread (prepareRows), so the GUI thread only swaps
    // them in (setPreparedRows): building, sorting and indexing 100,000 rows would stall the window.
    class PreparedRows;
    // Thread-safe (touches no model): the jobs as rows sorted by `column` and `order`, as sort() does.
    static std::shared_ptr<PreparedRows> prepareRows(std::vector<SparkJobSummary> jobs, int column,
                                                     Qt::SortOrder order);
    // What setJobs(jobs) does, with the rows prepared. The recent runs of the rows held now carry over;
    // a sort chosen meanwhile is applied. The rows replaced are freed on a worker thread.
    void setPreparedRows(std::shared_ptr<PreparedRows> prepared);
    void setJobs(std::vector<SparkJobSummary> jobs);
    // Replaces the row of a job with the same name, or appends one.
    void upsertJob(SparkJobSummary job);
    void upsertJobs(std::vector<SparkJobSummary> jobs);
    void removeJob(const std::string& name);
    // Newest first; only the first kRecentRunsKept are kept.
    void setRecentRuns(const std::string& jobName, std::vector<JobRunStatus> newestFirst);
    // From SHOW JOB_RUNS (newest first, several jobs): every job's recent runs at once.
    void setRecentRunsFromRuns(const std::vector<SparkJobRun>& runsNewestFirst);
    void clear();

    int rowOf(std::string_view name) const;
    const SparkJobSummary& summary(int row) const {
        return m_state.rows[static_cast<std::size_t>(row)]->summary;
    }
    std::string_view name(int row) const { return summary(row).name; }
    const std::vector<JobRunStatus>& recentRuns(int row) const {
        return m_state.rows[static_cast<std::size_t>(row)]->recent;
    }

    // The fields the Jobs filter reads (as JobFilter::matches takes them). After packFilterFields()
    // and until rows change they come from a copy of all rows' fields side by side in row order, so a
    // keystroke's pass over 100,000 rows reads memory in sequence instead of following row pointers.
    struct FilterFields {
        std::string_view name, cluster, type;
    };
    FilterFields filterFields(int row) const;
    void packFilterFields() const;

    // Sorting happens here, not in a proxy, so a filter change is one linear pass over 100,000 rows
    // instead of a re-sort. Rows that arrive or change later keep the order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // What sorting compares first: when two rows' keys differ, they are in the keys' order.
    using SortKey = std::array<std::uint64_t, 2>;
    struct Row {
        SparkJobSummary summary;
        std::vector<JobRunStatus> recent; // newest first
        // The Updated cell as shown: local-time formatting asks the C library for the time zone
        // (a stat() each time), too slow to repeat for every cell of every scrolled screen.
        mutable QString updatedText;
        int at = 0; // the row's number
    };
    // Everything a full load replaces.
    struct Rows {
        // In the table's order; sorting and inserting move pointers rather than whole rows.
        std::vector<std::unique_ptr<Row>> rows;
        // Each row by its name (the key views the row's own name, so a row's name is dropped from here
        // before its summary is replaced).
        std::unordered_map<std::string_view, Row*> index;
        // Every row's name, cluster and type, one after the other; row r's fields start at
        // filterStarts[3r], [3r+1], [3r+2] and end where the next begins. filterStarts is empty when
        // the copy is stale.
        std::string filterText;
        std::vector<std::size_t> filterStarts;
    };
    // Row numbers in m_index from `first` on.
    void reindexFrom(std::size_t first);
    static void reindexFrom(Rows& rows, std::size_t first);
    static std::shared_ptr<PreparedRows> prepared(Rows rows, int column, Qt::SortOrder order);
    static void sortRows(std::vector<std::unique_ptr<Row>>& rows, int column, Qt::SortOrder order);
    static void pack(Rows& rows);
    void sortRows();
    void emitRowsChanged(int first, int last);
    // True when a goes before b in the current sort (ties by name keep the order stable).
    bool before(const Row& a, const Row& b) const;
    static SortKey sortKey(const Row& row, int column);
    bool inOrder(int row) const;
    std::size_t sortedPosition(const Row& row) const;

    void rowsChanged() { m_state.filterStarts.clear(); }

    // Mutable: the filter's packed copy is renewed on demand by const readers.
    mutable Rows m_state;
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
};

} // namespace jobdeck
