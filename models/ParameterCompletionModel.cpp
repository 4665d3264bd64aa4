#include "models/ParameterCompletionModel.h"

#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/parameters/SparkSubmitOptions.h"
#include "models/QtStrings.h"

#include <algorithm>

namespace jobdeck {

namespace {

QStringList toList(const std::vector<std::string>& values) {
    QStringList out;
    for (const auto& v : values)
        out << q(v);
    return out;
}

QString describe(const QString& key, const QString& defaultValue, const QString& type) {
    QString text = key;
    if (!defaultValue.isEmpty())
        text += QStringLiteral("  = %1").arg(defaultValue);
    if (!type.isEmpty())
        text += QStringLiteral("  (%1)").arg(type);
    return text;
}

} // namespace

ParameterCompletionModel::ParameterCompletionModel(QObject* parent)
    : QAbstractListModel(parent) {}

const std::vector<std::pair<QString, QString>>& ParameterCompletionModel::sparkKeys() {
    // Spark settings a Hudi job commonly needs (Hudi quick start) and the tuning guide's shuffle, locality
    // and parallelism settings (seed 003).
    static const std::vector<std::pair<QString, QString>> keys = {
        {QStringLiteral("spark.serializer"),
         QStringLiteral("Hudi requires org.apache.spark.serializer.KryoSerializer")},
        {QStringLiteral("spark.sql.extensions"),
         QStringLiteral("org.apache.spark.sql.hudi.HoodieSparkSessionExtension for Hudi SQL")},
        {QStringLiteral("spark.sql.catalog.spark_catalog"),
         QStringLiteral("org.apache.spark.sql.hudi.catalog.HoodieCatalog for Hudi tables in Spark SQL")},
        {QStringLiteral("spark.kryo.registrator"),
         QStringLiteral("org.apache.spark.HoodieSparkKryoRegistrar registers Hudi classes with Kryo")},
        {QStringLiteral("spark.sql.hive.convertMetastoreParquet"),
         QStringLiteral("false so Spark reads Hudi tables through the Hudi input format")},
        {QStringLiteral("spark.sql.shuffle.partitions"),
         QStringLiteral("Shuffle parallelism of Spark SQL (default 200)")},
        {QStringLiteral("spark.default.parallelism"),
         QStringLiteral("Default parallelism of RDD operations")},
        {QStringLiteral("spark.shuffle.readHostLocalDisk"),
         QStringLiteral("true reads shuffle data from local disks, less network transfer")},
        {QStringLiteral("spark.io.encryption.enabled"),
         QStringLiteral("false skips encrypting shuffle spills, faster shuffles")},
        {QStringLiteral("spark.shuffle.service.enabled"), QStringLiteral("true for more stable shuffles")},
        {QStringLiteral("spark.locality.wait"),
         QStringLiteral("0s on object storage: no locality to wait for")},
        {QStringLiteral("spark.locality.wait.process"), QStringLiteral("0s on object storage")},
        {QStringLiteral("spark.locality.wait.node"), QStringLiteral("0s on object storage")},
        {QStringLiteral("spark.locality.wait.rack"), QStringLiteral("0s on object storage")},
        {QStringLiteral("spark.dynamicAllocation.enabled"),
         QStringLiteral("Scale executors with the workload")},
        {QStringLiteral("spark.dynamicAllocation.maxExecutors"),
         QStringLiteral("Upper bound of dynamic allocation")},
        {QStringLiteral("spark.speculation"), QStringLiteral("Re-launch slow tasks speculatively")},
        {QStringLiteral("spark.sql.enableToString"), QStringLiteral("Tuning guide setting for large plans")},
        {QStringLiteral("spark.executor.memoryOverhead"), QStringLiteral("Off-heap memory per executor")},
        {QStringLiteral("spark.driver.memoryOverhead"), QStringLiteral("Off-heap memory of the driver")},
        {QStringLiteral("spark.sql.adaptive.enabled"), QStringLiteral("Adaptive query execution")},
    };
    return keys;
}

ParameterCompletionModel::Item ParameterCompletionModel::entryItem(const QString& key,
                                                                   const HudiConfigEntry& e) {
    Item it;
    it.completion = it.key = key;
    it.defaultValue = q(e.defaultValue);
    it.type = q(e.type);
    it.allowedValues = toList(e.allowedValues);
    it.summary = q(e.summary);
    return it;
}

std::vector<ParameterCompletionModel::Item> ParameterCompletionModel::itemsFor(Mode mode,
                                                                               const QString& key) const {
    std::vector<Item> items;
    switch (mode) {
    case Mode::None:
        break;
    case Mode::HudiKeys: {
        const auto& catalogue = HudiCatalogue::instance();
        for (const HudiConfigEntry& e : catalogue.entries()) {
            if (!e.key.starts_with("hoodie."))
                continue;
            Item it = entryItem(q(e.key), e);
            it.display = describe(it.key, it.defaultValue, it.type);
            markStatus(it);
            items.push_back(std::move(it));
            for (const std::string& old : e.deprecatedNames) {
                if (!old.starts_with("hoodie."))
                    continue;
                Item dep = entryItem(q(old), e);
                dep.deprecated = true;
                dep.replacement = q(e.key);
                dep.display = QStringLiteral("%1  (deprecated: use %2)").arg(dep.key, dep.replacement);
                markStatus(dep);
                items.push_back(std::move(dep));
            }
        }
        break;
    }
    case Mode::SparkKeys:
        for (const auto& [k, why] : sparkKeys()) {
            Item it;
            it.key = it.display = k;
            it.completion = k + QLatin1Char('=');
            it.summary = why;
            items.push_back(std::move(it));
        }
        break;
    case Mode::Options:
        for (const SparkSubmitOption& o : SparkSubmitOptions::all()) {
            if (o.policy != OptionPolicy::Allowed)
                continue;
            Item it;
            it.completion = it.key = it.display = q(o.name);
            if (o.takesValue)
                it.type = QStringLiteral("takes a value");
            if (o.takesValue)
                it.display += QStringLiteral("  <value>");
            items.push_back(std::move(it));
        }
        break;
    case Mode::EnumValues: {
        const auto& catalogue = HudiCatalogue::instance();
        const std::string k = key.toStdString();
        const HudiConfigEntry* e = catalogue.find(k);
        if (!e)
            e = catalogue.findByDeprecatedName(k);
        if (!e)
            break;
        for (const std::string& v : e->allowedValues) {
            Item it = entryItem(key, *e);
            it.completion = key + QLatin1Char('=') + q(v);
            it.display = q(v) + (v == e->defaultValue ? QStringLiteral("  (default)") : QString());
            items.push_back(std::move(it));
        }
        break;
    }
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const Item& a, const Item& b) { return a.completion < b.completion; });
    return items;
}

void ParameterCompletionModel::markStatus(Item& item) const {
    item.completion = item.key + QLatin1Char('=');
    const std::string key = item.key.toStdString();
    if (!m_settings && !HudiConfigPolicy::isReserved(key))
        return; // whether the project allows it is not known yet
    const ProjectSettings settings = m_settings.value_or(ProjectSettings{});
    const HudiConfigStatus status = HudiConfigPolicy::statusOf(key, settings);
    item.status = status;
    if (status != HudiConfigStatus::NotAllowed && status != HudiConfigStatus::Reserved)
        return;
    item.display += status == HudiConfigStatus::Reserved ? tr("  — reserved") : tr("  — not allowed");
    item.statusReason = tr("Not applied: %1.").arg(q(explainHudiConfig(key, settings).because));
}

void ParameterCompletionModel::setProjectSettings(const std::optional<ProjectSettings>& settings) {
    if (settings == m_settings)
        return;
    m_settings = settings;
    if (m_mode != Mode::HudiKeys)
        return;
    beginResetModel();
    m_items = itemsFor(m_mode, m_key);
    endResetModel();
}

void ParameterCompletionModel::setMode(Mode mode, const QString& key) {
    if (mode == m_mode && (mode != Mode::EnumValues || key == m_key))
        return;
    beginResetModel();
    m_mode = mode;
    m_key = key;
    m_items = itemsFor(mode, key);
    endResetModel();
}

int ParameterCompletionModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_items.size());
}

QVariant ParameterCompletionModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Item& it = m_items[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return it.display;
    case Qt::EditRole:
        return it.completion;
    case Qt::ToolTipRole: {
        QStringList lines;
        if (!it.statusReason.isEmpty())
            lines << it.statusReason;
        if (it.deprecated)
            lines << tr("Deprecated name of %1").arg(it.replacement);
        if (!it.summary.isEmpty())
            lines << it.summary;
        if (!it.defaultValue.isEmpty())
            lines << tr("Default: %1").arg(it.defaultValue);
        if (!it.type.isEmpty())
            lines << tr("Type: %1").arg(it.type);
        if (!it.allowedValues.isEmpty())
            lines << tr("Allowed values: %1").arg(it.allowedValues.join(QStringLiteral(", ")));
        return lines.join(QLatin1Char('\n'));
    }
    case KeyRole:
        return it.key;
    case DefaultValueRole:
        return it.defaultValue;
    case TypeRole:
        return it.type;
    case AllowedValuesRole:
        return it.allowedValues;
    case SummaryRole:
        return it.summary;
    case DeprecatedRole:
        return it.deprecated;
    case ReplacementRole:
        return it.replacement;
    case StatusRole:
        return it.status ? int(*it.status) : -1;
    }
    return {};
}

} // namespace jobdeck
