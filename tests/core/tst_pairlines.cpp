// A cluster's WITH defaults as the console edits them (core/policy/ClusterRules: splitPairLine,
// readPairLines, pairLinesText): one reading of a "key=value" line for the dialog's statement and for the
// hiding of its secret values.
#include "core/parameters/ParameterLineAnalysis.h"
#include "core/policy/ClusterRules.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

using Pairs = std::vector<std::pair<std::string, std::string>>;

class TestPairLines final : public QObject {
    Q_OBJECT
private slots:
    void aLineSplitsAtItsFirstEqualsTrimmed() {
        const auto pair = splitPairLine(" spark.extra.opts = -Da=b\t\r");
        QVERIFY(pair);
        QCOMPARE(std::string(pair->key), std::string("spark.extra.opts"));
        QCOMPARE(std::string(pair->value), std::string("-Da=b"));
        const auto empty = splitPairLine("spark.x=");
        QVERIFY(empty);
        QCOMPARE(std::string(empty->value), std::string());
        QVERIFY(!splitPairLine("spark.x"));
        QVERIFY(!splitPairLine("=value"));
        QVERIFY(!splitPairLine("  =value"));
    }

    void blankLinesAreSkippedAndEveryPairKept() {
        const PairLines read = readPairLines("\nspark.a=1\r\n  \nhoodie.b = x=y\n");
        QVERIFY(!read.problem);
        QCOMPARE(read.pairs, (Pairs{{"spark.a", "1"}, {"hoodie.b", "x=y"}}));
        QVERIFY(readPairLines("").pairs.empty());
        QVERIFY(!readPairLines(" \n\t").problem);
    }

    void theFirstLineThatIsNotAPairIsNamed() {
        const PairLines read = readPairLines("spark.a=1\n\n  spark.b  \nspark.c\n");
        QCOMPARE(read.problem.value_or(""),
                 std::string("Line 3 of the defaults is not <key>=<value>: spark.b"));
        QVERIFY(read.pairs.empty());
        QCOMPARE(readPairLines("=1").problem.value_or(""),
                 std::string("Line 1 of the defaults is not <key>=<value>: =1"));
    }

    void theTextOfPairsReadsBackIntoThem() {
        const Pairs pairs{{"spark.a", "1"}, {"spark.b", "u=v"}, {"hoodie.c", ""}};
        QCOMPARE(pairLinesText(pairs), std::string("spark.a=1\nspark.b=u=v\nhoodie.c="));
        QCOMPARE(readPairLines(pairLinesText(pairs)).pairs, pairs);
        QCOMPARE(pairLinesText({}), std::string());
    }

    // The hiding finds the value where the statement's reading does: after the first '=', trimmed.
    void secretsAreFoundWhereTheLineIsRead() {
        const std::string line = "  spark.db.password =  a=b  ";
        const auto pair = splitPairLine(line);
        QVERIFY(pair);
        const auto at = int(pair->value.data() - line.data());
        QCOMPARE(secretValuesOfPairLine(line), (std::vector<LineRange>{{at, int(pair->value.size())}}));
        QCOMPARE(secretValuesOfPairLine("spark.db.password"), std::vector<LineRange>{});
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestPairLines)
#include "tst_pairlines.moc"
