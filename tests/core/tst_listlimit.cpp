// A list statement's LIMIT (listLimitProblem): from 1 up, and at most a ceiling where the list has one.
#include "core/statements/ListLimit.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

class TestListLimit final : public QObject {
    Q_OBJECT
private slots:
    void anyLimitFromOneUpWithoutACeiling() {
        QVERIFY(!listLimitProblem(std::nullopt));
        QVERIFY(!listLimitProblem(1));
        QVERIFY(!listLimitProblem(std::int64_t(1) << 40));
        QCOMPARE(listLimitProblem(0).value_or(""), std::string("LIMIT must be at least 1"));
        QCOMPARE(listLimitProblem(-5).value_or(""), std::string("LIMIT must be at least 1"));
    }

    void withACeilingTheRangeAndTheValueAreNamed() {
        QVERIFY(!listLimitProblem(std::nullopt, kAuditLogLimitCeiling));
        QVERIFY(!listLimitProblem(1, kAuditLogLimitCeiling));
        QVERIFY(!listLimitProblem(kAuditLogLimitCeiling, kAuditLogLimitCeiling));
        QVERIFY(!listLimitProblem(kAuditLogLimitDefault, kAuditLogLimitCeiling));
        QCOMPARE(listLimitProblem(0, kAuditLogLimitCeiling).value_or(""),
                 std::string("LIMIT must be between 1 and 1000, got 0"));
        QCOMPARE(listLimitProblem(1001, kAuditLogLimitCeiling).value_or(""),
                 std::string("LIMIT must be between 1 and 1000, got 1001"));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestListLimit)
#include "tst_listlimit.moc"
