#pragma once

#include <QAbstractTableModel>

#include <optional>
#include <string>
#include <vector>

namespace jobdeck {

// The project's --hudi-conf allow-list as the project view edits it: the stored entries, the ones the admin
// added or removed since (not sent yet), and the service's refusal of an entry, shown on that entry. Entries
// are checked with core's HudiConfigPolicy::checkAllowlistEntry before they are accepted; an entry that
// grants less than it seems to (core's allowlistEntryNote: a key Hudi does not read, an old name, ...) has a
// note.
class AllowlistModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Entry, Kind, Note, Change, Problem, ColumnCount };
    enum class ChangeKind { Stored, Added, Removed };
    static constexpr int ChangeRole = Qt::UserRole; // int(ChangeKind), on every column

    explicit AllowlistModel(QObject* parent = nullptr);

    // The settings as read from the service: every pending change and problem is dropped.
    void setStored(const std::vector<std::string>& entries);
    // core's reason when `entry` cannot be added (reserved, malformed, already listed); nullopt when added.
    std::optional<QString> addEntry(const QString& entry);
    // A stored entry is marked removed (undone by adding it again); an added one is dropped.
    void removeEntry(int row);
    void setProblem(const std::string& entry, const QString& problem);
    // core's note on a listed entry (allowlistEntryNote); empty when there is none.
    QString noteOf(const std::string& entry) const;
    // The entry the note offers in its place (AllowlistEntryNote::replacement); nullopt when none.
    std::optional<std::string> replacementOf(const std::string& entry) const;
    // Replaces an entry added since the last save by its replacementOf; core's reason when the replacement
    // cannot be added (or there is none), nullopt when done.
    std::optional<QString> replaceAddedEntry(const std::string& entry);

    // The list as it will be after Save (stored minus removed, plus added).
    std::vector<std::string> edited() const;
    bool hasChanges() const;
    int rowOf(const std::string& entry) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        std::string entry;
        ChangeKind change = ChangeKind::Stored;
        QString problem;
        QString note;
        std::optional<std::string> replacement;
    };
    static Row rowFor(const std::string& entry, ChangeKind change);
    std::vector<Row> m_rows;
};

} // namespace jobdeck
