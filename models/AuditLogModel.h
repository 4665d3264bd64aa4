#pragma once

#include "core/policy/AuditFilter.h"
#include "core/wire/AuditEntry.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <vector>

namespace jobdeck {

// SHOW AUDIT_LOG's entries, newest first: time, who (key and role), statement kind, target, outcome, and
// the statement as the service recorded it (secrets already masked by the service). Later answers are
// merged by seq, so a refresh adds only the new entries at the top.
class AuditLogModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Key, Role, Kind, Target, Outcome, Statement, Error, ColumnCount };
    static constexpr int SeqRole = Qt::UserRole; // qint64, on every column

    explicit AuditLogModel(QObject* parent = nullptr);

    // Adds the entries it does not have yet (by seq); returns how many were new.
    int merge(std::vector<AuditEntry> entries);
    void clear();

    const AuditEntry& entry(int row) const { return m_rows[static_cast<std::size_t>(row)].entry; }
    const AuditStatementSummary& summary(int row) const {
        return m_rows[static_cast<std::size_t>(row)].summary;
    }
    QStringList kinds() const; // every kind present, sorted

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        AuditEntry entry;
        AuditStatementSummary summary;
    };
    std::vector<Row> m_rows; // newest (highest seq) first
};

// The audit view's filter: core's AuditFilter over AuditLogModel rows.
class AuditFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit AuditFilterProxy(QObject* parent = nullptr);
    void setFilter(AuditFilter filter);
    const AuditFilter& filter() const { return m_filter; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    AuditFilter m_filter;
};

// A short name for an outcome: "SUCCESS", "FAILED", "INVALID", "PENDING".
QString auditOutcomeText(ApiOperationStatus status);

} // namespace jobdeck
