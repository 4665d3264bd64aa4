#include "core/hudi/HudiCatalogue.h"
#include "models/ParameterCompletionModel.h"
#include "tests/runner/SuiteRegistry.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;
using Mode = ParameterCompletionModel::Mode;

namespace {

int rowOf(const ParameterCompletionModel& m, const QString& completion) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (const QString edit = m.index(r).data(Qt::EditRole).toString();
            edit == completion || edit == completion + QLatin1Char('=')) // a key completes with its '='
            return r;
    return -1;
}

} // namespace

class TstParameterCompletionModel final : public QObject {
    Q_OBJECT
private slots:
    void hudiKeysShowDefaultTypeAndValues();
    void deprecatedNamesAreMarked();
    void enumValuesComplete();
    void sparkKeysAndOptions();
    void noneIsEmpty();
    void keysCompleteWithEqualsAndAreMarked();
    void structureHoldsThroughEveryMode();
};

void TstParameterCompletionModel::hudiKeysShowDefaultTypeAndValues() {
    ParameterCompletionModel m;
    m.setMode(Mode::HudiKeys);
    QVERIFY(m.rowCount() > 100);
    const int r = rowOf(m, QStringLiteral("hoodie.datasource.write.operation"));
    QVERIFY(r >= 0);
    const QModelIndex i = m.index(r);
    const HudiConfigEntry* e = HudiCatalogue::instance().find("hoodie.datasource.write.operation");
    QVERIFY(e);
    QCOMPARE(i.data(ParameterCompletionModel::DefaultValueRole).toString(),
             QString::fromStdString(e->defaultValue));
    QCOMPARE(i.data(ParameterCompletionModel::TypeRole).toString(), QString::fromStdString(e->type));
    QVERIFY(i.data(ParameterCompletionModel::AllowedValuesRole)
                .toStringList()
                .contains(QStringLiteral("bulk_insert")));
    const QString display = i.data(Qt::DisplayRole).toString();
    QVERIFY2(display.contains(QStringLiteral("upsert")) && display.contains(QString::fromStdString(e->type)),
             qPrintable(display));
    const QString tip = i.data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QString::fromStdString(e->summary)));
    QVERIFY(tip.contains(QStringLiteral("Allowed values: ")));
    QCOMPARE(i.data(ParameterCompletionModel::DeprecatedRole).toBool(), false);
    // Only hoodie.* keys, sorted so the completer can use a sorted model.
    for (int row = 0; row < m.rowCount(); ++row) {
        QVERIFY(m.index(row).data(Qt::EditRole).toString().startsWith(QStringLiteral("hoodie.")));
        if (row > 0)
            QVERIFY(m.index(row - 1).data(Qt::EditRole).toString() <=
                    m.index(row).data(Qt::EditRole).toString());
    }
}

void TstParameterCompletionModel::deprecatedNamesAreMarked() {
    ParameterCompletionModel m;
    m.setMode(Mode::HudiKeys);
    const int r = rowOf(m, QStringLiteral("hoodie.cleaner.commits.retained"));
    QVERIFY(r >= 0);
    const QModelIndex i = m.index(r);
    QCOMPARE(i.data(ParameterCompletionModel::DeprecatedRole).toBool(), true);
    QCOMPARE(i.data(ParameterCompletionModel::ReplacementRole).toString(),
             QStringLiteral("hoodie.clean.commits.retained"));
    QVERIFY(i.data(Qt::DisplayRole)
                .toString()
                .contains(QStringLiteral("deprecated: use hoodie.clean.commits.retained")));
    QVERIFY(i.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Deprecated name of")));
}

void TstParameterCompletionModel::enumValuesComplete() {
    ParameterCompletionModel m;
    m.setMode(Mode::EnumValues, QStringLiteral("hoodie.datasource.write.operation"));
    const HudiConfigEntry* e = HudiCatalogue::instance().find("hoodie.datasource.write.operation");
    QCOMPARE(m.rowCount(), int(e->allowedValues.size()));
    const int r = rowOf(m, QStringLiteral("hoodie.datasource.write.operation=upsert"));
    QVERIFY(r >= 0);
    QVERIFY(m.index(r).data(Qt::DisplayRole).toString().contains(QStringLiteral("(default)")));
    QVERIFY(rowOf(m, QStringLiteral("hoodie.datasource.write.operation=insert_overwrite")) >= 0);
    m.setMode(Mode::EnumValues, QStringLiteral("hoodie.no.such.key"));
    QCOMPARE(m.rowCount(), 0);
    m.setMode(Mode::EnumValues, QStringLiteral("hoodie.archive.async")); // boolean, no enumerated values
    QCOMPARE(m.rowCount(), int(HudiCatalogue::instance().find("hoodie.archive.async")->allowedValues.size()));
}

void TstParameterCompletionModel::sparkKeysAndOptions() {
    ParameterCompletionModel m;
    m.setMode(Mode::SparkKeys);
    for (const char* k : {"spark.serializer", "spark.sql.extensions", "spark.sql.catalog.spark_catalog",
                          "spark.kryo.registrator", "spark.shuffle.readHostLocalDisk", "spark.locality.wait",
                          "spark.sql.shuffle.partitions"})
        QVERIFY2(rowOf(m, QString::fromLatin1(k)) >= 0, k);
    QVERIFY(
        !m.index(rowOf(m, QStringLiteral("spark.serializer"))).data(Qt::ToolTipRole).toString().isEmpty());
    m.setMode(Mode::Options);
    QVERIFY(rowOf(m, QStringLiteral("--class")) >= 0);
    QVERIFY(rowOf(m, QStringLiteral("--hudi-conf")) >= 0);
    QVERIFY(rowOf(m, QStringLiteral("--conf")) >= 0);
    QCOMPARE(rowOf(m, QStringLiteral("--master")), -1); // the platform's
    QCOMPARE(rowOf(m, QStringLiteral("--deploy-mode")), -1);
    QVERIFY(m.index(rowOf(m, QStringLiteral("--class")))
                .data(Qt::DisplayRole)
                .toString()
                .contains(QStringLiteral("<value>")));
}

void TstParameterCompletionModel::noneIsEmpty() {
    ParameterCompletionModel m;
    m.setMode(Mode::Options);
    m.setMode(Mode::None);
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.data(m.index(0), Qt::DisplayRole), QVariant());
}

// QAbstractItemModelTester checks the model's structure and signals through every mode change.
void TstParameterCompletionModel::structureHoldsThroughEveryMode() {
    ParameterCompletionModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setMode(Mode::HudiKeys);
    m.setMode(Mode::EnumValues, QStringLiteral("hoodie.datasource.write.operation"));
    m.setMode(Mode::EnumValues, QStringLiteral("hoodie.no.such.key"));
    m.setMode(Mode::SparkKeys);
    m.setMode(Mode::Options);
    m.setMode(Mode::Options);
    m.setMode(Mode::None);
    QCOMPARE(m.rowCount(), 0);
}

JOBDECK_TEST_GUILESS_MAIN(TstParameterCompletionModel)
// A key completes with its '=' (the value comes next); with the project's settings, keys the allow-list
// refuses and reserved keys say so, and a settings change resets the model.
void TstParameterCompletionModel::keysCompleteWithEqualsAndAreMarked() {
    ParameterCompletionModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setMode(Mode::HudiKeys);
    const int op = rowOf(m, QStringLiteral("hoodie.datasource.write.operation"));
    QVERIFY(op >= 0);
    QCOMPARE(m.index(op).data(Qt::EditRole).toString(), QStringLiteral("hoodie.datasource.write.operation="));
    QCOMPARE(m.index(op).data(ParameterCompletionModel::StatusRole).toInt(), -1); // not known yet
    const int reserved = rowOf(m, QStringLiteral("hoodie.write.lock.provider"));
    QVERIFY(reserved >= 0);
    QCOMPARE(m.index(reserved).data(ParameterCompletionModel::StatusRole).toInt(),
             int(HudiConfigStatus::Reserved));
    QVERIFY(m.index(reserved).data(Qt::DisplayRole).toString().endsWith(QStringLiteral("— reserved")));

    ProjectSettings settings;
    settings.hudiConfigsEnabled = true;
    settings.hudiConfigAllowlist = {"hoodie.datasource.meta.sync."};
    QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
    m.setProjectSettings(settings);
    QCOMPARE(reset.count(), 1);
    const QModelIndex refused = m.index(rowOf(m, QStringLiteral("hoodie.datasource.write.operation")));
    QCOMPARE(refused.data(ParameterCompletionModel::StatusRole).toInt(), int(HudiConfigStatus::NotAllowed));
    QVERIFY(refused.data(Qt::DisplayRole).toString().endsWith(QStringLiteral("— not allowed")));
    QVERIFY2(refused.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Not applied: ")),
             qPrintable(refused.data(Qt::ToolTipRole).toString()));
    const QModelIndex allowed = m.index(rowOf(m, QStringLiteral("hoodie.datasource.meta.sync.enable")));
    QVERIFY(allowed.isValid());
    QCOMPARE(allowed.data(ParameterCompletionModel::StatusRole).toInt(), int(HudiConfigStatus::Applied));
    QVERIFY(!allowed.data(Qt::DisplayRole).toString().contains(QStringLiteral("not allowed")));
    m.setMode(Mode::SparkKeys);
    QCOMPARE(m.index(rowOf(m, QStringLiteral("spark.serializer"))).data(Qt::EditRole).toString(),
             QStringLiteral("spark.serializer="));
}

#include "tst_parametercompletionmodel.moc"
