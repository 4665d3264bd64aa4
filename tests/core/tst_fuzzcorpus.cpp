// Replays the saved libFuzzer corpora (tests/fuzz-corpus/<target>/) through the fuzz targets' checks,
// so every input the fuzzers once found interesting stays covered by the ordinary test run.
#include "fuzz/FuzzEntries.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <functional>
#include <string>

namespace jobdeck {

class TestFuzzCorpus final : public QObject {
    Q_OBJECT

    static void replay(const QString& target, const std::function<std::string(std::string_view)>& check) {
        const QDir dir(QStringLiteral(JOBDECK_SOURCE_DIR "/tests/fuzz-corpus/") + target);
        const QStringList files = dir.entryList(QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(QStringLiteral("no corpus files in ") + dir.path()));
        for (const QString& name : files) {
            QFile file(dir.filePath(name));
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
            const QByteArray data = file.readAll();
            const std::string failure = check(std::string_view(data.constData(), std::size_t(data.size())));
            QVERIFY2(failure.empty(),
                     qPrintable(name + QStringLiteral(": ") + QString::fromStdString(failure)));
        }
    }

private slots:
    void statementParserCorpus() {
        replay(QStringLiteral("fuzz_statementparser"), fuzz::checkStatementParser);
    }
    void parameterPipelineCorpus() {
        replay(QStringLiteral("fuzz_parameterclassifier"), fuzz::checkParameterPipeline);
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

QTEST_GUILESS_MAIN(jobdeck::TestFuzzCorpus)
#include "tst_fuzzcorpus.moc"
