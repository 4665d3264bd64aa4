#pragma once

#include "core/wire/SparkJobRun.h"

#include <QAbstractTableModel>
#include <QColor>

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace jobdeck {

// Runs as the monitor shows them: one row per run, updated in place (upsertRuns) so live events never
// force a reset. Many changed rows are announced as one dataChanged span; the Elapsed column ticks with
// setNow(). A cancel the user asked for shows as "cancel requested" until the run reports a final state.
// A run whose end arrives through upsertRuns (the events, not a load) is marked as an end not seen yet
// (bold, EndedUnseenRole) until markSeen(), so an end is visible in the table without a notification.
class RunsTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Status,
        Job,
        RunId,
        Queued,
        Started,
        Elapsed,
        ExitCode, // the driver's exit status once it ended
        IdempotencyKey,
        Overrides,
        Detail, // the queue reason while queued, "cancel requested", or why it failed or was canceled
        ColumnCount
    };
    // The underlying value: QString, QDateTime (UTC, null when not yet), qint64 milliseconds for Elapsed,
    // int (JobRunStatus) for Status, int or a null QVariant for ExitCode, and for Overrides a QVariantList of
    // {name, value} QVariantMaps.
    static constexpr int RawDataRole = Qt::UserRole;
    // bool: QUEUED or RUNNING (for a proxy that shows active runs only).
    static constexpr int ActiveRole = Qt::UserRole + 1;
    // bool: the run ended while the console watched and nobody has selected it since.
    static constexpr int EndedUnseenRole = Qt::UserRole + 2;

    explicit RunsTableModel(QObject* parent = nullptr);

    void setRuns(std::vector<SparkJobRun> runs);
    // Replaces the rows of runs with the same id (one dataChanged over the changed span) and appends the
    // others (one insert).
    void upsertRuns(std::vector<SparkJobRun> runs);
    void upsertRun(SparkJobRun run);
    void removeRun(const std::string& runId);
    // Removes the oldest finished runs beyond `keep` (by queuedAt).
    void pruneFinished(std::size_t keep);
    void clear() { setRuns({}); }

    // Shown until the run reaches a final state; false when the run is unknown or already final.
    bool markCancelRequested(const std::string& runId);
    void clearCancelRequested(const std::string& runId);
    bool isCancelRequested(const std::string& runId) const { return m_cancelRequested.contains(runId); }

    // Ends not looked at yet: how many, and clearing one when the user selects its run.
    int endedUnseenCount() const { return static_cast<int>(m_endedUnseen.size()); }
    void markSeen(const std::string& runId);

    // The time the Elapsed column measures active runs against; ticks repaint that column only.
    void setNow(TimePoint now);
    TimePoint now() const { return m_now; }

    int rowOf(const std::string& runId) const;
    const SparkJobRun& run(int row) const { return m_rows[static_cast<std::size_t>(row)]; }
    const std::vector<SparkJobRun>& runs() const { return m_rows; }
    // Active runs, of one job or (empty name) of all.
    int activeCount(const std::string& jobName = {}) const;
    // The run is queued with the reason its admission gave it, which the scheduler replaces when it next
    // looks, with no event (docs/runs.md): a view reads it again to show the service's reason now.
    bool awaitsTheScheduler(int row) const;

    static QString statusText(JobRunStatus status);
    static QColor statusColor(JobRunStatus status);
    // "1:05:09", "4:07", "0:03".
    static QString formatElapsed(qint64 milliseconds);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void endedUnseenChanged(int count);

private:
    // Keeps only the marks of rows still there; announces a changed count.
    void pruneEndedUnseen();
    void appendRows(std::vector<SparkJobRun> added);
    void rebuildIndex();
    qint64 elapsedMs(const SparkJobRun& run) const;
    QVariant toolTip(const SparkJobRun& run, Column column) const;
    QVariant rawData(const SparkJobRun& run, Column column) const;
    QVariant displayData(const SparkJobRun& run, Column column) const;

    std::vector<SparkJobRun> m_rows;
    std::unordered_map<std::string, int> m_index;
    std::unordered_set<std::string> m_cancelRequested;
    std::unordered_set<std::string> m_endedUnseen;
    TimePoint m_now;
};

} // namespace jobdeck
