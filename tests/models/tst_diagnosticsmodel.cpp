#include "core/parameters/ParameterValidator.h"
#include "models/DiagnosticsModel.h"
#include "tests/runner/SuiteRegistry.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTest>

using namespace jobdeck;

namespace {

std::vector<Diagnostic> diagnosticsOf(const std::vector<std::string>& params) {
    ValidationContext c;
    c.settings.hudiConfigsEnabled = true;
    c.settings.hudiConfigAllowlist = {"hoodie.a"};
    return validateParameters(params, c);
}

} // namespace

class TstDiagnosticsModel final : public QObject {
    Q_OBJECT
private slots:
    void showsSeverityMessageAndLine();
    void updatesInPlaceWhenShapeIsKept();
    void emptyAndOutOfRange();
    void structureHoldsThroughEveryChange();
};

void TstDiagnosticsModel::showsSeverityMessageAndLine() {
    const auto diags =
        diagnosticsOf({"--hudi-conf", "hoodie.zzz=1", "--hoodie-conf", "hoodie.a=1", "app.jar"});
    QVERIFY(diags.size() >= 2);
    std::vector<int> lines;
    for (const Diagnostic& d : diags)
        lines.push_back(d.tokenIndex); // one parameter per line
    DiagnosticsModel m;
    m.setDiagnostics(diags, lines);
    QCOMPARE(m.rowCount(), int(diags.size()));
    QCOMPARE(m.columnCount(), int(DiagnosticsModel::ColumnCount));
    QCOMPARE(m.headerData(DiagnosticsModel::MessageColumn, Qt::Horizontal).toString(),
             QStringLiteral("Message"));
    for (int r = 0; r < m.rowCount(); ++r) {
        const Diagnostic& d = diags[std::size_t(r)];
        QCOMPARE(m.index(r, DiagnosticsModel::MessageColumn).data().toString(),
                 QString::fromStdString(d.message));
        QCOMPARE(m.index(r, DiagnosticsModel::SeverityColumn).data().toString(),
                 QString::fromLatin1(severityName(d.severity)));
        QCOMPARE(m.index(r, DiagnosticsModel::SeverityColumn).data(Qt::DecorationRole).value<QColor>(),
                 DiagnosticsModel::severityColor(d.severity));
        if (d.tokenIndex >= 0)
            QCOMPARE(m.index(r, DiagnosticsModel::LineColumn).data().toInt(), d.tokenIndex + 1);
        QCOMPARE(m.index(r, 0).data(DiagnosticsModel::LineRole).toInt(), d.tokenIndex);
        QCOMPARE(m.index(r, 0).data(DiagnosticsModel::CodeRole).toString(),
                 QString::fromUtf8(d.code.data(), static_cast<qsizetype>(d.code.size())));
        QCOMPARE(m.index(r, 0).data(DiagnosticsModel::FixCountRole).toInt(), int(d.fixes.size()));
        QCOMPARE(m.index(r, 0).data(DiagnosticsModel::FixTitlesRole).toStringList().size(),
                 qsizetype(d.fixes.size()));
    }
    // The refusal (not permitted) and the --hoodie-conf error are both there, with their exact messages.
    const auto hasCode = [&](const char* code) {
        for (int r = 0; r < m.rowCount(); ++r)
            if (m.index(r, 0).data(DiagnosticsModel::CodeRole).toString() == QLatin1String(code))
                return r;
        return -1;
    };
    const int hoodie = hasCode("option.hoodie-conf");
    QVERIFY(hoodie >= 0);
    QVERIFY(m.index(hoodie, 0)
                .data(DiagnosticsModel::FixTitlesRole)
                .toStringList()
                .contains(QStringLiteral("Replace --hoodie-conf by --hudi-conf")));
    QVERIFY(m.index(hoodie, DiagnosticsModel::MessageColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Fixes: ")));
    QVERIFY(m.countOf(Severity::Error) >= 1);
}

void TstDiagnosticsModel::updatesInPlaceWhenShapeIsKept() {
    DiagnosticsModel m;
    auto first = diagnosticsOf({"--hudi-conf", "hoodie.zzz=1", "app.jar"});
    m.setDiagnostics(first, {1});
    QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&m, &QAbstractItemModel::dataChanged);
    auto second = diagnosticsOf({"--hudi-conf", "hoodie.yyy=1", "app.jar"});
    QCOMPARE(second.size(), first.size());
    m.setDiagnostics(second, {1});
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    m.setDiagnostics(second, {1}); // nothing new: no signal at all
    QCOMPARE(changed.count(), 1);
    m.setDiagnostics({}, {});
    QCOMPARE(reset.count(), 1);
    QCOMPARE(m.rowCount(), 0);
}

void TstDiagnosticsModel::emptyAndOutOfRange() {
    DiagnosticsModel m;
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(m.lineOf(3), -1);
    QCOMPARE(m.data(m.index(0, 0)), QVariant());
    // Missing lines default to -1 and show a dash.
    m.setDiagnostics(diagnosticsOf({}), {});
    QVERIFY(m.rowCount() >= 1);
    QCOMPARE(m.lineOf(0), -1);
    QCOMPARE(m.index(0, DiagnosticsModel::LineColumn).data().toString(), QStringLiteral("—"));
}

// QAbstractItemModelTester checks the model's structure and signals while it goes through every kind of
// change: filled, updated in place, grown, shrunk, emptied.
void TstDiagnosticsModel::structureHoldsThroughEveryChange() {
    DiagnosticsModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setDiagnostics(diagnosticsOf({"--hudi-conf", "hoodie.zzz=1", "app.jar"}), {1});
    m.setDiagnostics(diagnosticsOf({"--hudi-conf", "hoodie.yyy=1", "app.jar"}), {1}); // in place
    const auto more =
        diagnosticsOf({"--hudi-conf", "hoodie.zzz=1", "--hoodie-conf", "hoodie.a=1", "--no-such"});
    m.setDiagnostics(more, std::vector<int>(more.size(), 2));
    m.setDiagnostics(diagnosticsOf({}), {});
    m.setDiagnostics({}, {});
    QCOMPARE(m.rowCount(), 0);
}

JOBDECK_TEST_GUILESS_MAIN(TstDiagnosticsModel)
#include "tst_diagnosticsmodel.moc"
