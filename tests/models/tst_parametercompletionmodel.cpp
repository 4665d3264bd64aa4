#include "core/hudi/HudiCatalogue.h"
#include "models/ParameterCompletionModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace jobdeck;
using Mode = ParameterCompletionModel::Mode;

namespace {

int rowOf(const ParameterCompletionModel& m, const QString& completion) {
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r).data(Qt::EditRole).toString() == completion)
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

QTEST_GUILESS_MAIN(TstParameterCompletionModel)
#include "tst_parametercompletionmodel.moc"
