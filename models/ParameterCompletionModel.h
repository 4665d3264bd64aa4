#pragma once

#include <QAbstractListModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace jobdeck {

struct HudiConfigEntry;

// What the parameter editor can offer at the cursor. EditRole is the text that replaces the current line
// (the completer matches on it), DisplayRole is what the popup shows (key with default and type), ToolTipRole
// the summary and allowed values.
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
    };

    explicit ParameterCompletionModel(QObject* parent = nullptr);

    // `key` is used by EnumValues only. Setting the same mode again is cheap.
    void setMode(Mode mode, const QString& key = {});
    Mode mode() const { return m_mode; }

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
    };
    static Item entryItem(const QString& key, const HudiConfigEntry& entry);
    std::vector<Item> itemsFor(Mode mode, const QString& key) const;

    Mode m_mode = Mode::None;
    QString m_key;
    std::vector<Item> m_items;
};

} // namespace jobdeck
