// Replays the saved libFuzzer corpora (tests/fuzz-corpus/<target>/) through the fuzz targets' checks,
// so every input the fuzzers once found interesting stays covered by the ordinary test run.
#include "fuzz/FuzzEntries.h"
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/FuzzCorpusReplay.h"

#include <QTest>

#include <string>

namespace jobdeck {

class TestFuzzCorpus final : public QObject {
    Q_OBJECT

private slots:
    void statementParserCorpus() {
        replayFuzzCorpus(QStringLiteral("fuzz_statementparser"), fuzz::checkStatementParser);
    }
    void parameterPipelineCorpus() {
        replayFuzzCorpus(QStringLiteral("fuzz_parameterclassifier"), fuzz::checkParameterPipeline);
    }

    // Known-good inputs pass, and the splitter cuts at both '\n' and NUL.
    void knownGoodInputsPass() {
        QVERIFY(fuzz::checkStatementParser("SHOW JOBS").empty());
        QCOMPARE(fuzz::splitParameters(std::string_view("a\0b\nc", 5)),
                 (std::vector<std::string>{"a", "b", "c"}));
        QVERIFY(fuzz::checkParameterPipeline("--class\nx\napp.jar").empty());
    }
};

} // namespace jobdeck

JOBDECK_TEST_GUILESS_MAIN(jobdeck::TestFuzzCorpus)
#include "tst_fuzzcorpus.moc"
