// The DESCRIBE viewer: tree and raw JSON of an answer, the built-in highlighter's formats, search
// with next/previous, copy, and the job's configuration explained (statuses, misplaced pairs).
#include "models/JobConfigsModel.h"
#include "models/JsonTreeModel.h"
#include "tests/runner/SuiteRegistry.h"
#include "widgets/DescribeViewer.h"
#include "widgets/HudiConfigsExplainer.h"
#include "widgets/JsonHighlighter.h"
#include "widgets/JsonSearchBar.h"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFloat16>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QTreeView>

using namespace jobdeck;
using nlohmann::json;

namespace {

json jobAnswer() {
    json job{
        {"jobId", "job-1"},
        {"name", "ingest_orders"},
        {"type", "JAR"},
        {"cluster", "demo_cluster"},
        {"parameters",
         {"--class", "A", "--hudi-conf", "hoodie.datasource.meta.sync.glue.catalogId=1", "--hudi-conf",
          "hoodie.write.lock.provider=x", "s3://b/app.jar", "--hudi-conf",
          "hoodie.datasource.write.operation=upsert"}},
        {"applicationPath", "s3://b/app.jar"},
        {"arguments", {"--hudi-conf", "hoodie.datasource.write.operation=upsert"}},
        {"sparkConfigs", {{"spark.executor.memory", "2g"}}},
        {"hudiConfigs",
         {{"hoodie.datasource.meta.sync.glue.catalogId", "1"}, {"hoodie.write.lock.provider", "x"}}},
        {"hudiConfigsStatus",
         {{"hoodie.datasource.meta.sync.glue.catalogId", "APPLIED"},
          {"hoodie.write.lock.provider", "RESERVED"}}},
        {"hudiConfigsStatusReasons",
         {{"hoodie.datasource.meta.sync.glue.catalogId",
           "Applied: allowed by the project's allow-list entry 'hoodie.datasource.meta.sync.' (a family)."},
          {"hoodie.write.lock.provider",
           "Not applied: 'hoodie.write.lock.provider' is in the reserved family 'hoodie.write.lock.*': the "
           "platform manages concurrency control."}}},
        {"misplacedHudiConfigs", {"hoodie.datasource.write.operation=upsert"}},
        {"maxConcurrentRuns", 1},
        {"activeRuns", 0},
        {"createdAt", "2026-11-30T05:01:46.123Z"},
        {"updatedAt", "2026-11-30T05:01:46.123Z"}};
    return json{{"describeJobApiResponse", {{"sparkJob", job}}}};
}

// The format applied at `position` of the block that holds it.
QTextCharFormat formatAt(QTextDocument* doc, int position) {
    const QTextBlock block = doc->findBlock(position);
    const int offset = position - block.position();
    for (const auto& range : block.layout()->formats())
        if (offset >= range.start && offset < range.start + range.length)
            return range.format;
    return {};
}

void saveScreenshot(QWidget* w, const QString& name) {
    const QString dir = QStringLiteral(JOBDECK_TEST_ARTIFACTS_DIR);
    QVERIFY(QDir().mkpath(dir));
    QVERIFY(w->grab().save(QDir(dir).filePath(name)));
}

} // namespace

class TestDescribeViewer final : public QObject {
    Q_OBJECT
private slots:
    void highlighterFormatsEachTokenKind() {
        QTextDocument doc;
        JsonHighlighter highlighter(&doc);
        const QString text = QStringLiteral("{\n  \"key\": \"value\",\n  \"n\": 42,\n  \"ok\": true\n}");
        doc.setPlainText(text);
        highlighter.rehighlight();
        using K = JsonTokenizer::Kind;
        const auto expect = [&](const QString& needle, K kind) {
            const int at = static_cast<int>(text.indexOf(needle));
            QVERIFY(at >= 0);
            const QTextCharFormat f = formatAt(&doc, at);
            QCOMPARE(f.foreground().color(), JsonHighlighter::formatFor(kind).foreground().color());
            QCOMPARE(f.fontWeight(), JsonHighlighter::formatFor(kind).fontWeight());
        };
        expect(QStringLiteral("\"key\""), K::Key);
        expect(QStringLiteral("\"value\""), K::String);
        expect(QStringLiteral("42"), K::Number);
        expect(QStringLiteral("true"), K::Literal);
        expect(QStringLiteral("{"), K::Punctuation);
        expect(QStringLiteral(","), K::Punctuation);
        // The kinds are told apart.
        QVERIFY(JsonHighlighter::formatFor(K::Key).foreground() !=
                JsonHighlighter::formatFor(K::String).foreground());
        QVERIFY(JsonHighlighter::formatFor(K::Number).foreground() !=
                JsonHighlighter::formatFor(K::Literal).foreground());
        QCOMPARE(JsonHighlighter::formatFor(K::Key).fontWeight(), int(QFont::Bold));
    }

    void jobAnswerShowsTreeRawAndExplanation() {
        DescribeViewer viewer;
        viewer.resize(900, 600);
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("ingest_orders"), jobAnswer());
        QCOMPARE(viewer.title(), QStringLiteral("DESCRIBE JOB ingest_orders"));
#ifndef JOBDECK_HAVE_KSYNTAXHIGHLIGHTING
        QVERIFY(viewer.usesBuiltInHighlighter());
#endif
        QVERIFY(viewer.treeModel()
                    ->indexForPath({"describeJobApiResponse", "sparkJob", "hudiConfigsStatus"})
                    .isValid());
        QCOMPARE(json::parse(viewer.rawText().toStdString()), jobAnswer());
        QCOMPARE(viewer.tabs()->currentIndex(), 0); // a job opens on its configuration
        QVERIFY(viewer.tabs()->isTabVisible(0));

        HudiConfigsExplainer* explainer = viewer.explainer();
        QCOMPARE(explainer->summaryText(),
                 QStringLiteral("1 of 2 --hudi-conf configuration(s) are applied to runs. "
                                "1 Spark configuration(s) are passed to spark-submit."));
        QVERIFY(explainer->misplacedText().startsWith("Passed to your application, not applied"));
        QVERIFY(
            explainer->misplacedText().contains("--hudi-conf hoodie.datasource.write.operation comes after "
                                                "the application path"));
        QVERIFY(explainer->misplacedText().contains("Move it before the path"));
        const JobConfigsModel* configs = explainer->model();
        QStringList explanations;
        for (int r = 0; r < configs->rowCount(); ++r)
            explanations << configs->index(r, JobConfigsModel::Explanation).data().toString();
        // The service's reasons, word for word.
        QVERIFY(explanations.contains(
            "Applied: allowed by the project's allow-list entry 'hoodie.datasource.meta.sync.' (a family)."));
        QVERIFY(explanations.contains("Not applied: 'hoodie.write.lock.provider' is in the reserved family "
                                      "'hoodie.write.lock.*': the platform manages concurrency control."));
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        saveScreenshot(&viewer, QStringLiteral("describe-job-configuration.png"));
        viewer.tabs()->setCurrentIndex(1);
        saveScreenshot(&viewer, QStringLiteral("describe-job-tree.png"));
    }

    // In a pane narrower than the table (docks open beside it at 1280x800), the row selected for its
    // reason is scrolled to from its first column: "Set with" stays in view, not scrolled past to show
    // the key.
    void aNarrowPaneKeepsTheFirstColumnInView() {
        DescribeViewer viewer;
        viewer.resize(330, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("ingest_orders"), jobAnswer());
        auto* table = viewer.explainer()->findChild<QTableView*>(QStringLiteral("configsTable"));
        QVERIFY(table);
        QVERIFY(table->currentIndex().isValid());
        QVERIFY2(table->horizontalHeader()->length() > table->viewport()->width(),
                 "the table fits: nothing shown");
        QCOMPARE(table->columnViewportPosition(JobConfigsModel::Source), 0);
        QVERIFY(table->viewport()->rect().contains(table->visualRect(table->currentIndex())));
    }

    void otherSubjectsHaveNoConfigurationTab() {
        DescribeViewer viewer;
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("ingest_orders"), jobAnswer());
        const json project{
            {"describeProjectApiResponse",
             {{"project", {{"projectUid", "p-1"}, {"settings", {{"hudiConfigs", "ENABLED"}}}}}}}};
        viewer.showResponse(DescribeViewer::Subject::Project, {}, project);
        QCOMPARE(viewer.title(), QStringLiteral("DESCRIBE PROJECT"));
        QVERIFY(!viewer.tabs()->isTabVisible(0));
        QVERIFY(viewer.tabs()->currentIndex() != 0);
        QVERIFY(viewer.treeModel()
                    ->indexForPath({"describeProjectApiResponse", "project", "projectUid"})
                    .isValid());
    }

    void unreadableJobIsSaidSo() {
        DescribeViewer viewer;
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("x"),
                            json{{"describeJobApiResponse", {{"sparkJob", {{"name", 3}}}}}});
        QVERIFY2(viewer.title().contains("could not be read"), qPrintable(viewer.title()));
        QVERIFY(!viewer.tabs()->isTabVisible(0));
        QVERIFY(viewer.rawText().contains("\"name\": 3"));
    }

    void searchNextPreviousAndCopy() {
        DescribeViewer viewer;
        viewer.resize(800, 500);
        viewer.show();
        QVERIFY(QTest::qWaitForWindowExposed(&viewer));
        viewer.showResponse(DescribeViewer::Subject::Job, QStringLiteral("ingest_orders"), jobAnswer());
        QTest::keyClick(&viewer, Qt::Key_F, Qt::ControlModifier);
        JsonSearchBar* bar = viewer.findChild<JsonSearchBar*>(QStringLiteral("jsonSearchBar"));
        QVERIFY(bar);
        QVERIFY(bar->isVisible());
        QCOMPARE(viewer.tabs()->currentIndex(), 2);
        const QString text = viewer.rawText();
        const QString needle = QStringLiteral("hoodie.datasource.write.operation");
        const int total = static_cast<int>(text.count(needle));
        QCOMPARE(total, 3); // in parameters, arguments and misplacedHudiConfigs
        bar->setText(needle);
        QCOMPARE(bar->statusText(), QStringLiteral("1 of 3"));
        const int first = viewer.rawEditor()->textCursor().selectionStart();
        QCOMPARE(first, static_cast<int>(text.indexOf(needle)));
        QVERIFY(bar->findNext());
        QCOMPARE(bar->statusText(), QStringLiteral("2 of 3"));
        QVERIFY(bar->findNext());
        QVERIFY(bar->findNext()); // wraps to the first
        QCOMPARE(bar->statusText(), QStringLiteral("1 of 3"));
        QVERIFY(bar->findPrevious()); // wraps to the last
        QCOMPARE(bar->statusText(), QStringLiteral("3 of 3"));
        QCOMPARE(viewer.rawEditor()->textCursor().selectedText(), needle);
        bar->setText(QStringLiteral("no such text"));
        QCOMPARE(bar->statusText(), QStringLiteral("No matches"));
        saveScreenshot(&viewer, QStringLiteral("describe-job-json.png"));

        viewer.copyRaw();
        QCOMPARE(QApplication::clipboard()->text(), text);
    }
};

JOBDECK_TEST_MAIN(TestDescribeViewer)
#include "tst_describeviewer.moc"
