#include "models/JobConfigsModel.h"

#include "core/hudi/HudiConfigExplanation.h"
#include "models/ThemeColors.h"

#include <QBrush>
#include <QColor>

namespace jobdeck {

JobConfigsModel::JobConfigsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

QString JobConfigsModel::statusText(HudiConfigStatus status) {
    switch (status) {
    case HudiConfigStatus::Applied:
        return tr("Applied");
    case HudiConfigStatus::NotAllowed:
        return tr("Not applied");
    case HudiConfigStatus::Reserved:
        return tr("Reserved");
    case HudiConfigStatus::OverriddenByPlatform:
        return tr("Overridden");
    }
    return {};
}

QString JobConfigsModel::explain(const SparkJob& job, const std::string& key, HudiConfigStatus status) {
    // The service's reason names the entry, family or value and the ALTER PROJECT that would apply it; a
    // service without hudiConfigsStatusReasons leaves the status's general meaning.
    const auto reason = job.hudiConfigsStatusReasons.find(key);
    if (reason != job.hudiConfigsStatusReasons.end())
        return QString::fromStdString(reason->second);
    return QString::fromUtf8(hudiConfigStatusMeaning(status));
}

void JobConfigsModel::clear() {
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void JobConfigsModel::setJob(const SparkJob& job) {
    beginResetModel();
    m_rows.clear();
    for (const auto& [key, value] : job.hudiConfigs) {
        Row row{RowKind::Hudi, QString::fromStdString(key), QString::fromStdString(value), -1, {}, {}};
        const auto it = job.hudiConfigsStatus.find(key);
        if (it != job.hudiConfigsStatus.end()) {
            row.status = static_cast<int>(it->second);
            row.statusText = statusText(it->second);
            row.explanation = explain(job, key, it->second);
        } else {
            row.statusText = tr("Unknown");
            row.explanation = tr("the service reported no status for this key");
        }
        m_rows.push_back(std::move(row));
    }
    for (const std::string& pair : job.misplacedHudiConfigs) {
        const auto eq = pair.find('=');
        const std::string key = pair.substr(0, eq);
        m_rows.push_back(
            Row{RowKind::Misplaced, QString::fromStdString(key),
                eq == std::string::npos ? QString() : QString::fromStdString(pair.substr(eq + 1)), -1,
                tr("Not applied"), QString::fromStdString(misplacedHudiConfigMessage(key))});
    }
    for (const auto& [key, value] : job.sparkConfigs)
        m_rows.push_back(Row{RowKind::Spark, QString::fromStdString(key), QString::fromStdString(value), -1,
                             tr("Passed to Spark"), tr("passed to spark-submit as --conf")});
    endResetModel();
}

int JobConfigsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int JobConfigsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobConfigsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    if (role == RawDataRole) {
        if (index.column() == Source)
            return static_cast<int>(row.kind);
        if (index.column() == Status)
            return row.status;
    }
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole || role == RawDataRole) {
        switch (index.column()) {
        case Source:
            return row.kind == RowKind::Hudi    ? tr("--hudi-conf")
                   : row.kind == RowKind::Spark ? tr("--conf")
                                                : tr("--hudi-conf after the path");
        case Key:
            return row.key;
        case Value:
            return row.value;
        case Status:
            return row.statusText;
        case Explanation:
            return row.explanation;
        }
    }
    if (role == Qt::ForegroundRole && index.column() == Status) {
        const bool applied =
            row.status == static_cast<int>(HudiConfigStatus::Applied) || row.kind == RowKind::Spark;
        return QBrush(ThemeColors::color(applied ? ThemeColor::AppliedText : ThemeColor::ErrorText));
    }
    return {};
}

QVariant JobConfigsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Source:
        return tr("Set with");
    case Key:
        return tr("Key");
    case Value:
        return tr("Value");
    case Status:
        return tr("Status");
    case Explanation:
        return tr("What it means");
    }
    return {};
}

} // namespace jobdeck
