#include "models/ArgumentOverridesModel.h"

#include "core/parameters/ArgumentOverrides.h"
#include "core/parameters/SecretMasking.h"

#include <QFont>

namespace jobdeck {

ArgumentOverridesModel::ArgumentOverridesModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void ArgumentOverridesModel::setJobArguments(const std::vector<std::string>& arguments) {
    beginResetModel();
    m_rows.clear();
    for (const ApplicationArgument& argument : readApplicationArguments(arguments)) {
        Row row;
        row.name = QString::fromStdString(argument.name);
        if (argument.value)
            row.jobValue = QString::fromStdString(*argument.value);
        row.fromJob = true;
        m_rows.push_back(std::move(row));
    }
    endResetModel();
    emit overridesChanged();
}

int ArgumentOverridesModel::addArgument(const QString& name, const QString& value) {
    const int row = static_cast<int>(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.push_back(Row{name, std::nullopt, value, false});
    endInsertRows();
    emit overridesChanged();
    return row;
}

void ArgumentOverridesModel::setOverride(const QString& name, const QString& value) {
    for (int row = 0; row < static_cast<int>(m_rows.size()); ++row) {
        if (m_rows[static_cast<std::size_t>(row)].fromJob &&
            m_rows[static_cast<std::size_t>(row)].name == name) {
            setData(index(row, Override), value);
            return;
        }
    }
    addArgument(name, value);
}

bool ArgumentOverridesModel::removeOverride(int row) {
    if (row < 0 || row >= static_cast<int>(m_rows.size()))
        return false;
    Row& r = m_rows[static_cast<std::size_t>(row)];
    if (r.fromJob) {
        if (r.override.isEmpty())
            return false;
        r.override.clear();
        emit dataChanged(index(row, Override), index(row, Override));
    } else {
        beginRemoveRows({}, row, row);
        m_rows.erase(m_rows.begin() + row);
        endRemoveRows();
    }
    emit overridesChanged();
    return true;
}

bool ArgumentOverridesModel::counts(const Row& row) const {
    return row.fromJob ? !row.name.isEmpty() && !row.override.isEmpty()
                       : !row.name.isEmpty() || !row.override.isEmpty();
}

std::vector<std::pair<std::string, std::string>> ArgumentOverridesModel::overrides() const {
    std::vector<std::pair<std::string, std::string>> result;
    for (bool fromJob : {true, false}) {
        for (const Row& row : m_rows)
            if (row.fromJob == fromJob && counts(row))
                result.emplace_back(row.name.toStdString(), row.override.toStdString());
    }
    return result;
}

int ArgumentOverridesModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ArgumentOverridesModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

// An override's value as DESCRIBE JOB_RUN will show it: a secret as ****, the effective arguments below
// the table too; editing it shows what was typed (EditRole).
QString ArgumentOverridesModel::shownOverride(const Row& row) {
    if (row.override.isEmpty())
        return row.override;
    return QString::fromStdString(maskedPairValue(row.name.toStdString(), row.override.toStdString()));
}

QVariant ArgumentOverridesModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == FromJobRole)
        return row.fromJob;
    if (role == RawDataRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Name:
            return row.name;
        case JobValue:
            return row.jobValue ? QVariant(*row.jobValue) : QVariant();
        case Override:
            return row.override;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name:
            return row.fromJob && row.name.isEmpty() ? tr("(positional)") : row.name;
        case JobValue:
            if (!row.fromJob)
                return tr("(new argument)");
            return row.jobValue ? *row.jobValue : tr("(no value)");
        case Override:
            return shownOverride(row);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        if (row.fromJob && row.name.isEmpty())
            return tr("A positional argument cannot be overridden: overrides name an option, like --date.");
        if (index.column() == Override)
            return row.fromJob ? tr("Leave empty to inherit the Job's value.")
                               : tr("Appended to the run's arguments as <name> <value>.");
    }
    if (role == Qt::FontRole && index.column() == Override && counts(row)) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

bool ArgumentOverridesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        !(flags(index) & Qt::ItemIsEditable))
        return false;
    Row& row = m_rows[static_cast<std::size_t>(index.row())];
    QString& field = index.column() == Name ? row.name : row.override;
    const QString text = value.toString();
    if (field == text)
        return true;
    field = text;
    emit dataChanged(index.siblingAtColumn(0), index.siblingAtColumn(ColumnCount - 1));
    emit overridesChanged();
    return true;
}

Qt::ItemFlags ArgumentOverridesModel::flags(const QModelIndex& index) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return Qt::NoItemFlags;
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    const bool editable = row.fromJob ? index.column() == Override && !row.name.isEmpty()
                                      : index.column() == Name || index.column() == Override;
    return editable ? f | Qt::ItemIsEditable : f;
}

QVariant ArgumentOverridesModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Argument");
    case JobValue:
        return tr("Job's value");
    case Override:
        return tr("Override for this run");
    }
    return {};
}

} // namespace jobdeck
