#include "models/AllowlistModel.h"

#include "core/hudi/HudiConfigPolicy.h"
#include "core/policy/ProjectSettingsChange.h"
#include "models/ThemeColors.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace jobdeck {

AllowlistModel::AllowlistModel(QObject* parent)
    : QAbstractTableModel(parent) {}

AllowlistModel::Row AllowlistModel::rowFor(const std::string& entry, ChangeKind change) {
    auto note = allowlistEntryNote(entry);
    if (!note)
        return {entry, change, {}, {}, std::nullopt};
    return {entry, change, {}, QString::fromStdString(note->text), std::move(note->replacement)};
}

QString AllowlistModel::noteOf(const std::string& entry) const {
    const int row = rowOf(entry);
    return row < 0 ? QString() : m_rows[static_cast<std::size_t>(row)].note;
}

std::optional<std::string> AllowlistModel::replacementOf(const std::string& entry) const {
    const int row = rowOf(entry);
    return row < 0 ? std::nullopt : m_rows[static_cast<std::size_t>(row)].replacement;
}

void AllowlistModel::setStored(const std::vector<std::string>& entries) {
    beginResetModel();
    m_rows.clear();
    for (const std::string& entry : entries)
        m_rows.push_back(rowFor(entry, ChangeKind::Stored));
    endResetModel();
}

std::optional<QString> AllowlistModel::addEntry(const QString& text) {
    const std::string entry = text.trimmed().toStdString();
    if (auto problem = HudiConfigPolicy::checkAllowlistEntry(entry))
        return QString::fromStdString(*problem);
    const int row = rowOf(entry);
    if (row >= 0) {
        Row& existing = m_rows[static_cast<std::size_t>(row)];
        if (existing.change != ChangeKind::Removed)
            return tr("'%1' is already on the allow-list.").arg(QString::fromStdString(entry));
        existing.change = ChangeKind::Stored; // adding back what was removed undoes the removal
        existing.problem.clear();
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return std::nullopt;
    }
    const int at = static_cast<int>(m_rows.size());
    beginInsertRows({}, at, at);
    m_rows.push_back(rowFor(entry, ChangeKind::Added));
    endInsertRows();
    return std::nullopt;
}

std::optional<QString> AllowlistModel::replaceAddedEntry(const std::string& entry) {
    const int row = rowOf(entry);
    if (row < 0 || m_rows[static_cast<std::size_t>(row)].change != ChangeKind::Added)
        return tr("'%1' is not an entry added since the last save.").arg(QString::fromStdString(entry));
    const auto replacement = m_rows[static_cast<std::size_t>(row)].replacement;
    if (!replacement)
        return tr("Nothing is offered in place of '%1'.").arg(QString::fromStdString(entry));
    if (auto problem = addEntry(QString::fromStdString(*replacement)))
        return problem;
    removeEntry(rowOf(entry));
    return std::nullopt;
}

void AllowlistModel::removeEntry(int row) {
    if (row < 0 || row >= rowCount())
        return;
    Row& r = m_rows[static_cast<std::size_t>(row)];
    if (r.change == ChangeKind::Added) {
        beginRemoveRows({}, row, row);
        m_rows.erase(m_rows.begin() + row);
        endRemoveRows();
        return;
    }
    r.change = ChangeKind::Removed;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void AllowlistModel::setProblem(const std::string& entry, const QString& problem) {
    const int row = rowOf(entry);
    if (row < 0)
        return;
    m_rows[static_cast<std::size_t>(row)].problem = problem;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

std::vector<std::string> AllowlistModel::edited() const {
    std::vector<std::string> out;
    for (const Row& r : m_rows)
        if (r.change != ChangeKind::Removed)
            out.push_back(r.entry);
    std::sort(out.begin(), out.end()); // as the service keeps it
    return out;
}

bool AllowlistModel::hasChanges() const {
    return std::any_of(m_rows.begin(), m_rows.end(),
                       [](const Row& r) { return r.change != ChangeKind::Stored; });
}

int AllowlistModel::rowOf(const std::string& entry) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].entry == entry)
            return static_cast<int>(i);
    return -1;
}

int AllowlistModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AllowlistModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AllowlistModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == ChangeRole)
        return static_cast<int>(row.change);
    if (role == Qt::ForegroundRole) {
        if (index.column() == Problem)
            return QBrush(QColor(0xc6, 0x28, 0x28));
        if (index.column() == Note)
            return ThemeColors::color(ThemeColor::SeverityWarning);
        if (row.change == ChangeKind::Removed)
            return QBrush(QColor(0x80, 0x80, 0x80));
    }
    // An entry with a note is marked where the eye starts, the note in its tooltip (the Note column may be
    // scrolled out of a narrow dock). A colour, not an icon, as in DiagnosticsModel.
    if (index.column() == Entry && !row.note.isEmpty()) {
        if (role == Qt::DecorationRole)
            return ThemeColors::color(ThemeColor::SeverityWarning);
        if (role == Qt::ToolTipRole)
            return QString::fromStdString(row.entry) + QStringLiteral("\n") + row.note;
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Entry:
        return QString::fromStdString(row.entry);
    case Kind:
        return row.entry.ends_with('.') ? tr("family: every key under it") : tr("exact key");
    case Note:
        return row.note;
    case Change:
        return row.change == ChangeKind::Added     ? tr("to add")
               : row.change == ChangeKind::Removed ? tr("to remove")
                                                   : QString();
    case Problem:
        return row.problem;
    }
    return {};
}

QVariant AllowlistModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Entry:
        return tr("Entry");
    case Kind:
        return tr("Covers");
    case Note:
        return tr("Note");
    case Change:
        return tr("On Save");
    case Problem:
        return tr("Refused");
    }
    return {};
}

} // namespace jobdeck
