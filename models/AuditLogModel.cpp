#include "models/AuditLogModel.h"

#include "models/LocalTime.h"
#include "models/ModelExporter.h"
#include "models/QtStrings.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace jobdeck {

QString auditOutcomeText(ApiOperationStatus status) {
    QString name = QString::fromUtf8(apiOperationStatusName(status));
    return name.mid(name.lastIndexOf(QLatin1Char('_')) + 1);
}

AuditLogModel::AuditLogModel(QObject* parent)
    : QAbstractTableModel(parent) {}

int AuditLogModel::merge(std::vector<AuditEntry> entries) {
    const std::int64_t newest = m_rows.empty() ? -1 : m_rows.front().entry.seq;
    std::erase_if(entries, [newest](const AuditEntry& e) { return e.seq <= newest; });
    if (entries.empty())
        return 0;
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.seq > b.seq; });
    std::vector<Row> added;
    added.reserve(entries.size());
    for (AuditEntry& e : entries) {
        AuditStatementSummary summary = summarizeAuditStatement(e.statement);
        added.push_back({std::move(e), std::move(summary)});
    }
    const int count = static_cast<int>(added.size());
    beginInsertRows({}, 0, count - 1);
    m_rows.insert(m_rows.begin(), std::make_move_iterator(added.begin()),
                  std::make_move_iterator(added.end()));
    endInsertRows();
    return count;
}

void AuditLogModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

QStringList AuditLogModel::kinds() const {
    QStringList out;
    for (const Row& r : m_rows)
        if (!r.summary.kind.empty() && !out.contains(q(r.summary.kind)))
            out << q(r.summary.kind);
    out.sort();
    return out;
}

int AuditLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AuditLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditLogModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const AuditEntry& e = row.entry;
    if (role == SeqRole)
        return QVariant::fromValue<qint64>(e.seq);
    if (role == ModelExporter::ExportRole && index.column() == Time)
        return utcTimestampText(e.at);
    if (role == Qt::ForegroundRole && index.column() == Outcome)
        return QBrush(e.outcome == ApiOperationStatus::Success ? QColor(0x1b, 0x7f, 0x3b)
                                                               : QColor(0xb0, 0x3a, 0x2e));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Time:
        return role == Qt::ToolTipRole ? utcTimestampText(e.at) : localTimeText(e.at);
    case Key:
        return q(e.keyId);
    case Role:
        return q(e.role);
    case Kind:
        return q(row.summary.kind);
    case Target:
        return q(row.summary.target);
    case Outcome:
        return auditOutcomeText(e.outcome);
    case Statement:
        return q(e.statement);
    case Error:
        return e.errorMessage ? q(*e.errorMessage) : QString();
    }
    return {};
}

QVariant AuditLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const names[] = {QT_TR_NOOP("Time"),      QT_TR_NOOP("Key"),    QT_TR_NOOP("Role"),
                                        QT_TR_NOOP("Kind"),      QT_TR_NOOP("Target"), QT_TR_NOOP("Outcome"),
                                        QT_TR_NOOP("Statement"), QT_TR_NOOP("Error")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

AuditFilterProxy::AuditFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent) {}

void AuditFilterProxy::setFilter(AuditFilter filter) {
    m_filter = std::move(filter);
    invalidateRowsFilter();
}

bool AuditFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const auto* model = qobject_cast<const AuditLogModel*>(sourceModel());
    if (!model || sourceParent.isValid())
        return false;
    return m_filter.matches(model->entry(sourceRow), model->summary(sourceRow));
}

} // namespace jobdeck
