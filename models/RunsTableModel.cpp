#include "models/RunsTableModel.h"

#include "core/policy/RunEndMessages.h"
#include "models/LocalTime.h"
#include "models/ModelExporter.h"
#include "models/ThemeColors.h"

#include <QDateTime>
#include <QFont>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <limits>

namespace jobdeck {

namespace {

QString shortTime(const std::optional<TimePoint>& t) {
    if (!t)
        return {};
    return localTimeText(*t);
}

QString overridesText(const SparkJobRun& run) {
    QStringList parts;
    for (const auto& [name, value] : run.argumentOverrides)
        parts << QString::fromStdString(name) + QLatin1Char(' ') + QString::fromStdString(value);
    return parts.join(QStringLiteral(", "));
}

} // namespace

RunsTableModel::RunsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
    , m_now(timestampNow()) {}

void RunsTableModel::rebuildIndex() {
    m_index.clear();
    m_index.reserve(m_rows.size());
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        m_index.emplace(m_rows[i].jobRunId, static_cast<int>(i));
}

void RunsTableModel::setRuns(std::vector<SparkJobRun> runs) {
    beginResetModel();
    m_rows = std::move(runs);
    rebuildIndex();
    std::erase_if(m_cancelRequested, [this](const std::string& id) {
        const int row = rowOf(id);
        return row < 0 || !m_rows[static_cast<std::size_t>(row)].isActive();
    });
    endResetModel();
    pruneEndedUnseen();
}

void RunsTableModel::pruneEndedUnseen() {
    const std::size_t before = m_endedUnseen.size();
    std::erase_if(m_endedUnseen, [this](const std::string& id) { return rowOf(id) < 0; });
    if (m_endedUnseen.size() != before)
        emit endedUnseenChanged(endedUnseenCount());
}

void RunsTableModel::markSeen(const std::string& runId) {
    if (m_endedUnseen.erase(runId) == 0)
        return;
    if (const int row = rowOf(runId); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    emit endedUnseenChanged(endedUnseenCount());
}

void RunsTableModel::upsertRun(SparkJobRun run) {
    std::vector<SparkJobRun> one;
    one.push_back(std::move(run));
    upsertRuns(std::move(one));
}

void RunsTableModel::upsertRuns(std::vector<SparkJobRun> runs) {
    int first = std::numeric_limits<int>::max(), last = -1;
    std::vector<SparkJobRun> added;
    const std::size_t unseenBefore = m_endedUnseen.size();
    for (SparkJobRun& run : runs) {
        const int row = rowOf(run.jobRunId);
        if (!run.isActive()) {
            m_cancelRequested.erase(run.jobRunId);
            // An end learnt now: a new row already final, or a row that was active.
            if (row < 0 || m_rows[static_cast<std::size_t>(row)].isActive())
                m_endedUnseen.insert(run.jobRunId);
        }
        if (row < 0) {
            // The same new run twice in one batch: the later one wins.
            const auto dup = std::find_if(added.begin(), added.end(),
                                          [&](const SparkJobRun& a) { return a.jobRunId == run.jobRunId; });
            if (dup != added.end())
                *dup = std::move(run);
            else
                added.push_back(std::move(run));
            continue;
        }
        m_rows[static_cast<std::size_t>(row)] = std::move(run);
        first = std::min(first, row);
        last = std::max(last, row);
    }
    if (first <= last)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
    if (!added.empty())
        appendRows(std::move(added));
    if (m_endedUnseen.size() != unseenBefore)
        emit endedUnseenChanged(endedUnseenCount());
}

void RunsTableModel::appendRows(std::vector<SparkJobRun> added) {
    const int start = static_cast<int>(m_rows.size());
    beginInsertRows({}, start, start + static_cast<int>(added.size()) - 1);
    for (SparkJobRun& run : added) {
        m_index.emplace(run.jobRunId, static_cast<int>(m_rows.size()));
        m_rows.push_back(std::move(run));
    }
    endInsertRows();
}

void RunsTableModel::removeRun(const std::string& runId) {
    const int row = rowOf(runId);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.erase(m_rows.begin() + row);
    m_cancelRequested.erase(runId);
    rebuildIndex();
    endRemoveRows();
    pruneEndedUnseen();
}

void RunsTableModel::pruneFinished(std::size_t keep) {
    std::vector<const SparkJobRun*> finished;
    for (const SparkJobRun& run : m_rows)
        if (!run.isActive())
            finished.push_back(&run);
    if (finished.size() <= keep)
        return;
    std::sort(finished.begin(), finished.end(),
              [](const SparkJobRun* a, const SparkJobRun* b) { return a->queuedAt > b->queuedAt; });
    std::unordered_set<std::string> drop;
    for (std::size_t i = keep; i < finished.size(); ++i)
        drop.insert(finished[i]->jobRunId);
    // Removed from the bottom up in contiguous spans, so views keep their selection and scroll position.
    for (int row = static_cast<int>(m_rows.size()) - 1; row >= 0;) {
        if (!drop.contains(m_rows[static_cast<std::size_t>(row)].jobRunId)) {
            --row;
            continue;
        }
        int top = row;
        while (top > 0 && drop.contains(m_rows[static_cast<std::size_t>(top - 1)].jobRunId))
            --top;
        beginRemoveRows({}, top, row);
        m_rows.erase(m_rows.begin() + top, m_rows.begin() + row + 1);
        endRemoveRows();
        row = top - 1;
    }
    rebuildIndex();
    pruneEndedUnseen();
}

bool RunsTableModel::markCancelRequested(const std::string& runId) {
    const int row = rowOf(runId);
    if (row < 0 || !m_rows[static_cast<std::size_t>(row)].isActive())
        return false;
    m_cancelRequested.insert(runId);
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    return true;
}

void RunsTableModel::clearCancelRequested(const std::string& runId) {
    if (m_cancelRequested.erase(runId) == 0)
        return;
    if (const int row = rowOf(runId); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RunsTableModel::setNow(TimePoint now) {
    m_now = now;
    int first = std::numeric_limits<int>::max(), last = -1;
    for (int row = 0; row < static_cast<int>(m_rows.size()); ++row) {
        if (m_rows[static_cast<std::size_t>(row)].isActive()) {
            first = std::min(first, row);
            last = row;
        }
    }
    if (first <= last)
        emit dataChanged(index(first, Elapsed), index(last, Elapsed), {Qt::DisplayRole, RawDataRole});
}

int RunsTableModel::rowOf(const std::string& runId) const {
    const auto it = m_index.find(runId);
    return it == m_index.end() ? -1 : it->second;
}

int RunsTableModel::activeCount(const std::string& jobName) const {
    return static_cast<int>(std::count_if(m_rows.begin(), m_rows.end(), [&](const SparkJobRun& run) {
        return run.isActive() && (jobName.empty() || run.jobName == jobName);
    }));
}

bool RunsTableModel::awaitsTheScheduler(int row) const {
    const SparkJobRun& r = run(row);
    return r.status == JobRunStatus::Queued && r.queueReason == waitingForSchedulerReason();
}

QString RunsTableModel::statusText(JobRunStatus status) {
    switch (status) {
    case JobRunStatus::Queued:
        return tr("Queued");
    case JobRunStatus::Running:
        return tr("Running");
    case JobRunStatus::Completed:
        return tr("Completed");
    case JobRunStatus::Failed:
        return tr("Failed");
    case JobRunStatus::Canceled:
        return tr("Canceled");
    }
    return {};
}

QColor RunsTableModel::statusColor(JobRunStatus status) {
    switch (status) {
    case JobRunStatus::Queued:
        return ThemeColors::color(ThemeColor::StatusQueued);
    case JobRunStatus::Running:
        return ThemeColors::color(ThemeColor::StatusRunning);
    case JobRunStatus::Completed:
        return ThemeColors::color(ThemeColor::StatusCompleted);
    case JobRunStatus::Failed:
        return ThemeColors::color(ThemeColor::StatusFailed);
    case JobRunStatus::Canceled:
        return ThemeColors::color(ThemeColor::StatusCanceled);
    }
    return ThemeColors::color(ThemeColor::StatusQueued);
}

QString RunsTableModel::formatElapsed(qint64 milliseconds) {
    const qint64 total = std::max<qint64>(0, milliseconds) / 1000;
    const qint64 hours = total / 3600, minutes = (total / 60) % 60, seconds = total % 60;
    if (hours > 0)
        return QStringLiteral("%1:%2:%3")
            .arg(hours)
            .arg(minutes, 2, 10, QLatin1Char('0'))
            .arg(seconds, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(minutes).arg(seconds, 2, 10, QLatin1Char('0'));
}

qint64 RunsTableModel::elapsedMs(const SparkJobRun& run) const {
    // Queued runs count from when they were queued, others from when the driver started.
    const TimePoint from = run.startedAt.value_or(run.queuedAt);
    const TimePoint to = run.endedAt.value_or(run.isActive() ? m_now : from);
    return std::max<qint64>(0, std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count());
}

int RunsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SparkJobRun& run = m_rows[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case ActiveRole:
        return run.isActive();
    case EndedUnseenRole:
        return m_endedUnseen.contains(run.jobRunId);
    case Qt::FontRole:
        if (m_endedUnseen.contains(run.jobRunId)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case RawDataRole:
        return column == Detail ? displayData(run, column) : rawData(run, column);
    case Qt::DisplayRole:
        return displayData(run, column);
    case ModelExporter::ExportRole:
        return column == Queued || column == Started ? toolTip(run, column) : QVariant();
    case Qt::DecorationRole:
        return column == Status ? QVariant(statusColor(run.status)) : QVariant(); // the status dot
    case Qt::ToolTipRole:
        return toolTip(run, column);
    case Qt::TextAlignmentRole:
        return column == Elapsed || column == ExitCode
                   ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    default:
        return {};
    }
}

// The whole text of the cells too long for their column; a time in UTC, as exports give it.
QVariant RunsTableModel::toolTip(const SparkJobRun& run, Column column) const {
    switch (column) {
    case Detail:
    case RunId:
        return displayData(run, column);
    case Queued:
        return utcTimestampText(run.queuedAt);
    case Started:
        return run.startedAt ? QVariant(utcTimestampText(*run.startedAt)) : QVariant();
    default:
        return {};
    }
}

// What sorting, filtering and exports read: typed values rather than the texts shown.
QVariant RunsTableModel::rawData(const SparkJobRun& run, Column column) const {
    switch (column) {
    case Status:
        return static_cast<int>(run.status);
    case Job:
        return QString::fromStdString(run.jobName);
    case RunId:
        return QString::fromStdString(run.jobRunId);
    case Queued:
        return utcDateTime(run.queuedAt);
    case Started:
        return run.startedAt ? utcDateTime(*run.startedAt) : QDateTime();
    case Elapsed:
        return elapsedMs(run);
    case ExitCode:
        return run.exitCode ? QVariant(*run.exitCode) : QVariant();
    case IdempotencyKey:
        return QString::fromStdString(run.idempotencyKey.value_or(std::string()));
    case Overrides: {
        QVariantList list;
        for (const auto& [name, value] : run.argumentOverrides)
            list.append(QVariantMap{{QStringLiteral("name"), QString::fromStdString(name)},
                                    {QStringLiteral("value"), QString::fromStdString(value)}});
        return list;
    }
    default:
        return {};
    }
}

QVariant RunsTableModel::displayData(const SparkJobRun& run, Column column) const {
    const bool cancelRequested = m_cancelRequested.contains(run.jobRunId);
    switch (column) {
    case Status:
        return cancelRequested ? tr("%1, cancel requested").arg(statusText(run.status))
                               : statusText(run.status);
    case Job:
        return QString::fromStdString(run.jobName);
    case RunId:
        return QString::fromStdString(run.jobRunId);
    case Queued:
        return shortTime(run.queuedAt);
    case Started:
        return shortTime(run.startedAt);
    case Elapsed:
        return formatElapsed(elapsedMs(run));
    case ExitCode:
        return run.exitCode ? QString::number(*run.exitCode) : QString();
    case IdempotencyKey:
        return QString::fromStdString(run.idempotencyKey.value_or(std::string()));
    case Overrides:
        return overridesText(run);
    case Detail:
        if (cancelRequested)
            return tr("Cancel requested");
        if (run.status == JobRunStatus::Queued && run.queueReason)
            return QString::fromStdString(*run.queueReason);
        if (run.message)
            return QString::fromStdString(*run.message);
        if (run.exitCode && !run.isActive())
            return tr("Exit code %1").arg(*run.exitCode);
        return {};
    default:
        return {};
    }
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Status:
        return tr("Status");
    case Job:
        return tr("Job");
    case RunId:
        return tr("Run id");
    case Queued:
        return tr("Queued");
    case Started:
        return tr("Started");
    case Elapsed:
        return tr("Elapsed");
    case ExitCode:
        return tr("Exit code");
    case IdempotencyKey:
        return tr("Idempotency key");
    case Overrides:
        return tr("Overrides");
    case Detail:
        return tr("Detail");
    }
    return {};
}

} // namespace jobdeck
