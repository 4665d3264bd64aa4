#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobdeck {

// The run dialog's argument overrides: one row per application argument of the Job (core
// readApplicationArguments) with its value and an editable override, plus rows the user adds for new
// arguments. A Job row is overridden while its override is not empty; an added row counts once it has
// a name or a value (a value without a name is sent so the refusal says what is wrong). Positional
// arguments are shown but cannot be overridden (RUN JOB names arguments by option name).
class ArgumentOverridesModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, JobValue, Override, ColumnCount };
    // The underlying value: QString for Name and Override, and for JobValue a QString or a null
    // QVariant (a flag without a value, or an added argument).
    static constexpr int RawDataRole = Qt::UserRole;
    // bool: the row is a Job argument (false: added by the user).
    static constexpr int FromJobRole = Qt::UserRole + 1;

    explicit ArgumentOverridesModel(QObject* parent = nullptr);

    // The Job's application arguments (what follows the application path); clears every override.
    void setJobArguments(const std::vector<std::string>& arguments);
    // Appends an added argument and returns its row.
    int addArgument(const QString& name = {}, const QString& value = {});
    // Sets the override of the Job's argument `name`, or adds it when the Job has no such argument.
    void setOverride(const QString& name, const QString& value);
    // Clears a Job row's override or removes an added row; false for a row that has nothing to clear.
    bool removeOverride(int row);

    // In row order: the Job's overridden arguments, then the added ones.
    std::vector<std::pair<std::string, std::string>> overrides() const;
    bool isFromJob(int row) const { return m_rows[static_cast<std::size_t>(row)].fromJob; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void overridesChanged();

private:
    struct Row {
        QString name; // empty for a positional argument of the Job
        std::optional<QString> jobValue;
        QString override;
        bool fromJob = false;
    };
    bool counts(const Row& row) const;
    static QString shownOverride(const Row& row);

    std::vector<Row> m_rows;
};

} // namespace jobdeck
