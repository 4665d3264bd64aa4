#pragma once

#include "core/hudi/HudiConfigStatus.h"
#include "core/policy/ProjectSettings.h"

#include <QAbstractListModel>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace jobdeck {

struct HudiConfigEntry;

// What the parameter editor can offer at the cursor. EditRole is the text that replaces the current line
// (the completer matches on it; a key is followed by its '=', so the value is typed next), DisplayRole is
// what the popup shows (key with default and type, and for a hoodie.* key the allow-list refuses "not
// allowed" or "reserved"), ToolTipRole the summary, allowed values and why a key would not be applied.
class ParameterCompletionModel final : public QAbstractListModel {
    Q_OBJECT
public:
    enum class Mode {
        None,
        HudiKeys,   // the line after --hudi-conf: hoodie.* keys of the catalogue
        SparkKeys,  // the line after --conf: spark.* keys that matter for Hudi jobs
        Options,    // a line starting with '-': spark-submit options a Job may carry, and --hudi-conf
        EnumValues, // after "key=" of a catalogue key with allowed values: "key=<value>"
    };
    enum Role {
        KeyRole = Qt::UserRole + 1, // QString: the key or option alone
        DefaultValueRole,           // QString
        TypeRole,                   // QString
        AllowedValuesRole,          // QStringList
        SummaryRole,                // QString
        DeprecatedRole,             // bool: an older name of a current key
        ReplacementRole,            // QString: the current name of a deprecated key
        StatusRole, // int: the HudiConfigStatus a hoodie.* key would get in the project, -1 when not known
    };

    explicit ParameterCompletionModel(QObject* parent = nullptr);

    // `key` is used by EnumValues only. Setting the same mode again is cheap.
    void setMode(Mode mode, const QString& key = {});
    Mode mode() const { return m_mode; }
    // The project's settings (nullopt while not known): hoodie.* keys are marked with the status the
    // project would give them. Reserved keys are marked in any case.
    void setProjectSettings(const std::optional<ProjectSettings>& settings);

    // The spark.* keys offered after --conf, with why they matter.
    static const std::vector<std::pair<QString, QString>>& sparkKeys();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    struct Item final {
        QString completion;
        QString key;
        QString display;
        QString defaultValue;
        QString type;
        QStringList allowedValues;
        QString summary;
        bool deprecated = false;
        QString replacement;
        std::optional<HudiConfigStatus> status;
        QString statusReason;
    };
    void markStatus(Item& item) const;
    static Item entryItem(const QString& key, const HudiConfigEntry& entry);
    std::vector<Item> itemsFor(Mode mode, const QString& key) const;

    Mode m_mode = Mode::None;
    QString m_key;
    std::vector<Item> m_items;
    std::optional<ProjectSettings> m_settings;
};

} // namespace jobdeck
