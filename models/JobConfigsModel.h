#pragma once

#include "core/wire/SparkJob.h"

#include <QAbstractTableModel>

#include <vector>

namespace jobdeck {

// What a Job's configuration does, in plain words, for "I set it and nothing changed": each
// --hudi-conf key with its status and why; the Spark configurations; and the --hudi-conf pairs found
// after the application path, which the application receives and the platform does not apply.
class JobConfigsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Source, Key, Value, Status, Explanation, ColumnCount };
    enum class RowKind { Hudi, Spark, Misplaced };
    // Source column: RowKind as int; Status column: HudiConfigStatus as int (-1 when not a Hudi row,
    // or the service gave no status).
    static constexpr int RawDataRole = Qt::UserRole;

    explicit JobConfigsModel(QObject* parent = nullptr);

    void setJob(const SparkJob& job);
    void clear();

    // Why `key` of `job` has `status` and what would make it apply: the service's hudiConfigsStatusReasons.
    static QString explain(const SparkJob& job, const std::string& key, HudiConfigStatus status);
    static QString statusText(HudiConfigStatus status);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        RowKind kind;
        QString key;
        QString value;
        int status = -1;
        QString statusText;
        QString explanation;
    };
    std::vector<Row> m_rows;
};

} // namespace jobdeck
