#include "models/JobConfigsModel.h"

#include <QBrush>
#include <QColor>

namespace jobdeck {

namespace {

bool startsWith(const std::string& s, std::string_view prefix) {
    return s.rfind(prefix, 0) == 0;
}

} // namespace

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

QString JobConfigsModel::explain(const std::string& key, HudiConfigStatus status) {
    switch (status) {
    case HudiConfigStatus::Applied:
        return tr("applied");
    case HudiConfigStatus::NotAllowed:
        return tr("not on the project's allow-list (or --hudi-conf is not enabled for the project); "
                  "ask support to allow it");
    case HudiConfigStatus::OverriddenByPlatform:
        return tr("overridden by the platform");
    case HudiConfigStatus::Reserved:
        // The reserved families of the contract, each with the reason the documentation gives.
        if (startsWith(key, "hoodie.metrics."))
            return tr("reserved: the platform collects metrics with it");
        if (key == "hoodie.write.config.freeze")
            return tr("reserved: it controls which configurations the platform protects");
        return tr("reserved: the platform manages concurrency control");
    }
    return {};
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
            row.explanation = explain(key, it->second);
        } else {
            row.statusText = tr("Unknown");
            row.explanation = tr("the service reported no status for this key");
        }
        m_rows.push_back(std::move(row));
    }
    const QString path = QString::fromStdString(job.applicationPath);
    for (const std::string& pair : job.misplacedHudiConfigs) {
        const auto eq = pair.find('=');
        Row row{RowKind::Misplaced,
                QString::fromStdString(pair.substr(0, eq)),
                eq == std::string::npos ? QString() : QString::fromStdString(pair.substr(eq + 1)),
                -1,
                tr("Not applied"),
                tr("passed to your application, not applied: it comes after the application path %1. "
                   "Move \"--hudi-conf %2\" before the path to make it a job configuration.")
                    .arg(path, QString::fromStdString(pair))};
        m_rows.push_back(std::move(row));
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
        return QBrush(applied ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xb0, 0x3a, 0x2e));
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
