// WCAG contrast: the reference points of the definition (black on white 21:1, a colour on itself
// 1:1, symmetry) and published values (#767676 is the lightest grey with 4.5:1 on white; #777777 is not).
#include "core/text/ColorContrast.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

class TestColorContrast final : public QObject {
    Q_OBJECT
private slots:
    void referencePoints() {
        QCOMPARE(relativeLuminance({0, 0, 0}), 0.0);
        QCOMPARE(relativeLuminance({255, 255, 255}), 1.0);
        QCOMPARE(contrastRatio({0, 0, 0}, {255, 255, 255}), 21.0);
        QCOMPARE(contrastRatio({0x12, 0x34, 0x56}, {0x12, 0x34, 0x56}), 1.0);
        QCOMPARE(contrastRatio({255, 255, 255}, {0x2e, 0x7d, 0x32}),
                 contrastRatio({0x2e, 0x7d, 0x32}, {255, 255, 255}));
    }

    void theAaThresholdForGreyOnWhite() {
        QVERIFY(contrastRatio({0x76, 0x76, 0x76}, {255, 255, 255}) >= kWcagAaNormalText);
        QVERIFY(contrastRatio({0x77, 0x77, 0x77}, {255, 255, 255}) < kWcagAaNormalText);
        // Pure red on white is 4.0:1, a known failing pair.
        QVERIFY(qAbs(contrastRatio({255, 0, 0}, {255, 255, 255}) - 3.998) < 0.01);
    }
};

JOBDECK_TEST_MAIN(TestColorContrast)
#include "tst_colorcontrast.moc"
