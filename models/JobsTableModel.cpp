#include "models/JobsTableModel.h"

#include "models/LocalTime.h"
#include "models/ModelExporter.h"

#include <QDateTime>
#include <QStringList>
#include <QThreadPool>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace jobdeck {

namespace {

QString statusWord(JobRunStatus s) {
    QString name =
        QString::fromUtf8(jobRunStatusName(s).data(), static_cast<qsizetype>(jobRunStatusName(s).size()));
    return name.mid(name.lastIndexOf(QLatin1Char('_')) + 1);
}

// ASCII folding, not std::tolower: names are ASCII, and a locale lookup per character was most of the
// cost of sorting 100,000 rows.
int foldCase(unsigned char c) {
    return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int compareNoCase(std::string_view a, std::string_view b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        const int ca = foldCase(static_cast<unsigned char>(a[i]));
        const int cb = foldCase(static_cast<unsigned char>(b[i]));
        if (ca != cb)
            return ca < cb ? -1 : 1;
    }
    return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
}

template <class T> int compareValues(const T& a, const T& b) {
    return (b < a) - (a < b);
}

// A sort key's words compare as unsigned numbers; a signed value moves up by half the range.
std::uint64_t ordered(std::int64_t v) {
    return static_cast<std::uint64_t>(v) ^ (std::uint64_t(1) << 63);
}

// The first 16 bytes of s, folded, as two big-endian words: comparing them orders as compareNoCase
// does, as far as they reach.
std::array<std::uint64_t, 2> foldedPrefix(std::string_view s) {
    std::array<std::uint64_t, 2> k{};
    for (std::size_t i = 0; i < 16 && i < s.size(); ++i)
        k[i / 8] |= static_cast<std::uint64_t>(foldCase(static_cast<unsigned char>(s[i])))
                    << (8 * (7 - i % 8));
    return k;
}

} // namespace

JobsTableModel::JobsTableModel(QObject* parent)
    : QAbstractTableModel(parent) {}

// A full load's rows, made ready off the GUI thread, and the sort they are in.
class JobsTableModel::PreparedRows final {
public:
    Rows rows;
    int column = -1;
    Qt::SortOrder order = Qt::AscendingOrder;
};

JobsTableModel::~JobsTableModel() = default;

void JobsTableModel::reindexFrom(std::size_t first) {
    reindexFrom(m_state, first);
}

void JobsTableModel::reindexFrom(Rows& rows, std::size_t first) {
    for (std::size_t i = first; i < rows.rows.size(); ++i)
        rows.rows[i]->at = static_cast<int>(i);
}

void JobsTableModel::sortRows() {
    sortRows(m_state.rows, m_sortColumn, m_sortOrder);
}

void JobsTableModel::sortRows(std::vector<std::unique_ptr<Row>>& rows, int column, Qt::SortOrder order) {
    if (column < 0 || column >= ColumnCount)
        return;
    // Comparing 100,000 rows through their pointers misses the cache at every step: sort compact keys
    // (the column's value, or its text's first 16 bytes) with views of the texts that decide ties,
    // the order before() gives. Rows alike in all that keep their order (`at`), as a stable sort would,
    // without the stable sort's buffer.
    struct Keyed {
        SortKey key;
        std::string_view text; // a text column's value, for keys alike
        std::string_view name;
        std::size_t at;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SparkJobSummary& job = rows[i]->summary;
        const std::string_view text = column == Name      ? job.name
                                      : column == Cluster ? job.cluster
                                      : column == Type    ? jobTypeName(job.type)
                                                          : std::string_view();
        keyed.push_back({sortKey(*rows[i], column), text, job.name, i});
    }
    const bool ascending = order == Qt::AscendingOrder;
    std::sort(keyed.begin(), keyed.end(), [ascending](const Keyed& a, const Keyed& b) {
        int c = a.key == b.key ? 0 : (a.key < b.key ? -1 : 1);
        if (c == 0)
            c = compareNoCase(a.text, b.text);
        if (c == 0)
            c = compareNoCase(a.name, b.name);
        if (c == 0)
            return a.at < b.at;
        return ascending ? c < 0 : c > 0;
    });
    std::vector<std::unique_ptr<Row>> sorted;
    sorted.reserve(rows.size());
    for (const Keyed& k : keyed)
        sorted.push_back(std::move(rows[k.at]));
    rows = std::move(sorted);
}

JobsTableModel::SortKey JobsTableModel::sortKey(const Row& row, int column) {
    const SparkJobSummary& job = row.summary;
    switch (column) {
    case Name:
        return foldedPrefix(job.name);
    case Type:
        return foldedPrefix(jobTypeName(job.type));
    case Cluster:
        return foldedPrefix(job.cluster);
    case MaxConcurrentRuns:
        return {ordered(job.maxConcurrentRuns), 0};
    case ActiveRuns:
        return {ordered(job.activeRuns), 0};
    case RecentRuns:
        return {ordered(row.recent.empty() ? -1 : static_cast<int>(row.recent.front())), row.recent.size()};
    case Updated:
        return {ordered(job.updatedAt.time_since_epoch().count()), 0};
    default:
        return {};
    }
}

std::shared_ptr<JobsTableModel::PreparedRows> JobsTableModel::prepareRows(std::vector<SparkJobSummary> jobs,
                                                                          int column, Qt::SortOrder order) {
    Rows r;
    r.rows.reserve(jobs.size());
    for (SparkJobSummary& job : jobs) {
        auto row = std::make_unique<Row>();
        row->summary = std::move(job);
        r.rows.push_back(std::move(row));
    }
    return prepared(std::move(r), column, order);
}

std::shared_ptr<JobsTableModel::PreparedRows> JobsTableModel::prepared(Rows rows, int column,
                                                                       Qt::SortOrder order) {
    auto prepared = std::make_shared<PreparedRows>();
    prepared->column = column;
    prepared->order = order;
    Rows& r = prepared->rows;
    r = std::move(rows);
    // The order the user chose holds across reloads; sorting before the rows are shown costs no
    // layout change.
    sortRows(r.rows, column, order);
    reindexFrom(r, 0);
    r.index.clear();
    r.index.reserve(r.rows.size());
    for (const auto& row : r.rows)
        r.index.insert_or_assign(row->summary.name, row.get());
    pack(r); // now, while the names are in the cache, rather than at the first keystroke
    return prepared;
}

void JobsTableModel::setPreparedRows(std::shared_ptr<PreparedRows> prepared) {
    Rows& next = prepared->rows;
    // Recent runs survive a reload: they come from a separate query.
    bool carried = false;
    for (const auto& row : m_state.rows)
        if (!row->recent.empty())
            if (const auto same = next.index.find(row->summary.name); same != next.index.end()) {
                same->second->recent = std::move(row->recent);
                carried = true;
            }
    if (prepared->column != m_sortColumn || prepared->order != m_sortOrder ||
        (carried && m_sortColumn == RecentRuns)) {
        sortRows(next.rows, m_sortColumn, m_sortOrder);
        reindexFrom(next, 0);
        next.filterStarts.clear();
        pack(next);
    }
    beginResetModel();
    std::swap(m_state, next);
    endResetModel();
    // Freeing 100,000 rows takes the GUI thread tens of ms: a worker does it.
    QThreadPool::globalInstance()->start([old = std::move(prepared)]() mutable { old.reset(); });
}

void JobsTableModel::setJobs(std::vector<SparkJobSummary> jobs) {
    setPreparedRows(prepareRows(std::move(jobs), m_sortColumn, m_sortOrder));
}

void JobsTableModel::clear() {
    setJobs({});
}

bool JobsTableModel::before(const Row& a, const Row& b) const {
    const SparkJobSummary& x = a.summary;
    const SparkJobSummary& y = b.summary;
    int c = 0;
    switch (m_sortColumn) {
    case Name:
        c = compareNoCase(x.name, y.name);
        break;
    case Type:
        c = compareNoCase(jobTypeName(x.type), jobTypeName(y.type));
        break;
    case Cluster:
        c = compareNoCase(x.cluster, y.cluster);
        break;
    case MaxConcurrentRuns:
        c = compareValues(x.maxConcurrentRuns, y.maxConcurrentRuns);
        break;
    case ActiveRuns:
        c = compareValues(x.activeRuns, y.activeRuns);
        break;
    case RecentRuns: {
        // The newest status first, then how many runs there are.
        const int sa = a.recent.empty() ? -1 : static_cast<int>(a.recent.front());
        const int sb = b.recent.empty() ? -1 : static_cast<int>(b.recent.front());
        c = sa != sb ? compareValues(sa, sb) : compareValues(a.recent.size(), b.recent.size());
        break;
    }
    case Updated:
        c = compareValues(x.updatedAt, y.updatedAt);
        break;
    default:
        return false;
    }
    if (c == 0)
        c = compareNoCase(x.name, y.name);
    return m_sortOrder == Qt::AscendingOrder ? c < 0 : c > 0;
}

bool JobsTableModel::inOrder(int row) const {
    if (m_sortColumn < 0)
        return true;
    const auto r = static_cast<std::size_t>(row);
    return (r == 0 || !before(*m_state.rows[r], *m_state.rows[r - 1])) &&
           (r + 1 >= m_state.rows.size() || !before(*m_state.rows[r + 1], *m_state.rows[r]));
}

std::size_t JobsTableModel::sortedPosition(const Row& row) const {
    if (m_sortColumn < 0)
        return m_state.rows.size();
    return static_cast<std::size_t>(
        std::upper_bound(m_state.rows.begin(), m_state.rows.end(), row,
                         [this](const Row& a, const std::unique_ptr<Row>& b) { return before(a, *b); }) -
        m_state.rows.begin());
}

void JobsTableModel::sort(int column, Qt::SortOrder order) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    m_sortColumn = column;
    m_sortOrder = order;
    const QModelIndexList from = persistentIndexList();
    std::vector<const Row*> held;
    held.reserve(static_cast<std::size_t>(from.size()));
    for (const QModelIndex& i : from)
        held.push_back(m_state.rows[static_cast<std::size_t>(i.row())].get());
    sortRows();
    reindexFrom(0);
    QModelIndexList to;
    to.reserve(from.size());
    for (qsizetype k = 0; k < from.size(); ++k)
        to.append(index(held[static_cast<std::size_t>(k)]->at, from[k].column()));
    changePersistentIndexList(from, to);
    rowsChanged();
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void JobsTableModel::emitRowsChanged(int first, int last) {
    if (first <= last)
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void JobsTableModel::upsertJob(SparkJobSummary job) {
    std::vector<SparkJobSummary> one;
    one.push_back(std::move(job));
    upsertJobs(std::move(one));
}

void JobsTableModel::upsertJobs(std::vector<SparkJobSummary> jobs) {
    int first = std::numeric_limits<int>::max(), last = -1;
    bool outOfOrder = false;
    std::vector<SparkJobSummary> added;
    for (SparkJobSummary& job : jobs) {
        const int row = rowOf(job.name);
        if (row < 0) {
            added.push_back(std::move(job));
            continue;
        }
        // The key views the row's name: drop it before the name's storage is replaced.
        Row& target = *m_state.rows[static_cast<std::size_t>(row)];
        m_state.index.erase(target.summary.name);
        target.summary = std::move(job);
        rowsChanged();
        target.updatedText.clear();
        m_state.index.insert_or_assign(target.summary.name, &target);
        first = std::min(first, row);
        last = std::max(last, row);
        outOfOrder = outOfOrder || !inOrder(row);
    }
    emitRowsChanged(first, last);
    if (outOfOrder)
        sort(m_sortColumn, m_sortOrder);
    for (SparkJobSummary& job : added) {
        auto row = std::make_unique<Row>();
        row->summary = std::move(job);
        const auto at = sortedPosition(*row);
        beginInsertRows({}, static_cast<int>(at), static_cast<int>(at));
        m_state.index.insert_or_assign(row->summary.name, row.get());
        m_state.rows.insert(m_state.rows.begin() + static_cast<std::ptrdiff_t>(at), std::move(row));
        reindexFrom(at);
        rowsChanged();
        endInsertRows();
    }
}

void JobsTableModel::removeJob(const std::string& name) {
    const int row = rowOf(name);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_state.index.erase(std::string_view(name));
    m_state.rows.erase(m_state.rows.begin() + row);
    reindexFrom(static_cast<std::size_t>(row));
    rowsChanged();
    endRemoveRows();
}

void JobsTableModel::setRecentRuns(const std::string& jobName, std::vector<JobRunStatus> newestFirst) {
    const int row = rowOf(jobName);
    if (row < 0)
        return;
    if (newestFirst.size() > kRecentRunsKept)
        newestFirst.resize(kRecentRunsKept);
    m_state.rows[static_cast<std::size_t>(row)]->recent = std::move(newestFirst);
    const QModelIndex cell = index(row, RecentRuns);
    emit dataChanged(cell, cell);
    if (!inOrder(row))
        sort(m_sortColumn, m_sortOrder);
}

void JobsTableModel::setRecentRunsFromRuns(const std::vector<SparkJobRun>& runsNewestFirst) {
    std::unordered_map<std::string, std::vector<JobRunStatus>> byJob;
    for (const SparkJobRun& run : runsNewestFirst) {
        auto& list = byJob[run.jobName];
        if (list.size() < kRecentRunsKept)
            list.push_back(run.status);
    }
    int first = std::numeric_limits<int>::max(), last = -1;
    for (auto& [name, statuses] : byJob) {
        const int row = rowOf(name);
        if (row < 0)
            continue;
        m_state.rows[static_cast<std::size_t>(row)]->recent = std::move(statuses);
        first = std::min(first, row);
        last = std::max(last, row);
    }
    if (first <= last)
        emit dataChanged(index(first, RecentRuns), index(last, RecentRuns));
    if (m_sortColumn == RecentRuns)
        sort(m_sortColumn, m_sortOrder);
}

void JobsTableModel::packFilterFields() const {
    pack(m_state);
}

void JobsTableModel::pack(Rows& rows) {
    if (!rows.filterStarts.empty())
        return;
    std::size_t size = 0;
    for (const auto& r : rows.rows)
        size += r->summary.name.size() + r->summary.cluster.size() + jobTypeName(r->summary.type).size();
    rows.filterText.clear();
    rows.filterText.reserve(size);
    rows.filterStarts.reserve(3 * rows.rows.size() + 1);
    for (const auto& r : rows.rows)
        for (const std::string_view field :
             {std::string_view(r->summary.name), std::string_view(r->summary.cluster),
              jobTypeName(r->summary.type)}) {
            rows.filterStarts.push_back(rows.filterText.size());
            rows.filterText += field;
        }
    rows.filterStarts.push_back(rows.filterText.size());
}

JobsTableModel::FilterFields JobsTableModel::filterFields(int row) const {
    if (m_state.filterStarts.empty()) {
        const SparkJobSummary& job = m_state.rows[static_cast<std::size_t>(row)]->summary;
        return {job.name, job.cluster, jobTypeName(job.type)};
    }
    const std::size_t* at = m_state.filterStarts.data() + 3 * static_cast<std::size_t>(row);
    const std::string_view text(m_state.filterText);
    return {text.substr(at[0], at[1] - at[0]), text.substr(at[1], at[2] - at[1]),
            text.substr(at[2], at[3] - at[2])};
}

int JobsTableModel::rowOf(std::string_view name) const {
    const auto it = m_state.index.find(name);
    return it == m_state.index.end() ? -1 : it->second->at;
}

int JobsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_state.rows.size());
}

int JobsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = *m_state.rows[static_cast<std::size_t>(index.row())];
    const SparkJobSummary& job = row.summary;
    if (role == Qt::DisplayRole || role == RawDataRole) {
        switch (index.column()) {
        case Name:
            return QString::fromUtf8(job.name);
        case Type:
            return QString::fromUtf8(jobTypeName(job.type).data(),
                                     static_cast<qsizetype>(jobTypeName(job.type).size()));
        case Cluster:
            return QString::fromUtf8(job.cluster);
        case MaxConcurrentRuns:
            return job.maxConcurrentRuns;
        case ActiveRuns:
            return job.activeRuns;
        case RecentRuns: {
            if (role == Qt::DisplayRole)
                return {}; // painted as dots by StatusDotsDelegate
            QVariantList list;
            list.reserve(static_cast<qsizetype>(row.recent.size()));
            for (JobRunStatus s : row.recent)
                list.append(static_cast<int>(s));
            return list;
        }
        case Updated:
            if (role == RawDataRole)
                return utcDateTime(job.updatedAt);
            if (row.updatedText.isNull())
                row.updatedText = localTimeText(job.updatedAt);
            return row.updatedText;
        }
    } else if (role == ModelExporter::ExportRole && index.column() == Updated) {
        return utcTimestampText(job.updatedAt);
    } else if (role == ModelExporter::ExportRole && index.column() == RecentRuns) {
        QStringList words;
        for (JobRunStatus s : row.recent)
            words << statusWord(s);
        return words.join(QStringLiteral(", ")); // newest first, as the tooltip says
    } else if (role == Qt::ToolTipRole && index.column() == Updated) {
        return utcTimestampText(job.updatedAt);
    } else if (role == Qt::ToolTipRole && index.column() == RecentRuns) {
        if (row.recent.empty())
            return tr("No runs yet");
        QStringList words;
        for (JobRunStatus s : row.recent)
            words << statusWord(s);
        return tr("Newest first: %1").arg(words.join(QStringLiteral(", ")));
    } else if (role == Qt::TextAlignmentRole &&
               (index.column() == MaxConcurrentRuns || index.column() == ActiveRuns)) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant JobsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Name");
    case Type:
        return tr("Type");
    case Cluster:
        return tr("Cluster");
    case MaxConcurrentRuns:
        return tr("Max runs");
    case ActiveRuns:
        return tr("Active");
    case RecentRuns:
        return tr("Recent runs");
    case Updated:
        return tr("Updated");
    }
    return {};
}

} // namespace jobdeck
