// JsonTreeModel (tree of a DESCRIBE answer), JsonTokenizer (what the highlighter colours) and
// JobConfigsModel (the job's configuration in plain words).
#include "core/hudi/HudiConfigExplanation.h"
#include "models/JobConfigsModel.h"
#include "models/JsonTokenizer.h"
#include "models/JsonTreeModel.h"
#include "tests/runner/SuiteRegistry.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace jobdeck;
using nlohmann::json;
using Kind = JsonTokenizer::Kind;

namespace {

json describeAnswer() {
    json job{{"name", "count_transactions"},
             {"maxConcurrentRuns", 2},
             {"activeRuns", 0},
             {"hudiConfigs", {{"hoodie.a", "1"}, {"hoodie.b", "2"}}},
             {"parameters", {"--class", "A", "s3://b/app.jar"}},
             {"applicationPath", "s3://b/app.jar"},
             {"flag", true},
             {"nothing", nullptr}};
    return json{{"describeJobApiResponse", {{"sparkJob", job}}}};
}

QList<Kind> kinds(const std::vector<JsonTokenizer::Token>& tokens) {
    QList<Kind> out;
    for (const auto& t : tokens)
        out << t.kind;
    return out;
}

} // namespace

class TestJsonModels final : public QObject {
    Q_OBJECT
private slots:
    void treeStructure() {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson(describeAnswer());
        QCOMPARE(model.rowCount(), 1);
        const QModelIndex job = model.indexForPath({"describeJobApiResponse", "sparkJob"});
        QVERIFY(job.isValid());
        QCOMPARE(model.rowCount(job), 8);
        QCOMPARE(model.index(job.row(), JsonTreeModel::Type, job.parent()).data().toString(),
                 QStringLiteral("object"));
        const QModelIndex hudi = model.indexForPath({"describeJobApiResponse", "sparkJob", "hudiConfigs"});
        QCOMPARE(model.index(hudi.row(), JsonTreeModel::Value, hudi.parent()).data().toString(),
                 QStringLiteral("{2}"));
        const QModelIndex b = model.indexForPath(
            {"describeJobApiResponse", "sparkJob", "hudiConfigs", "hoodie.b"}, JsonTreeModel::Value);
        QCOMPARE(b.data().toString(), QStringLiteral("2"));
        const QModelIndex second =
            model.indexForPath({"describeJobApiResponse", "sparkJob", "parameters", "1"});
        QCOMPARE(second.data().toString(), QStringLiteral("[1]"));
        QCOMPARE(model.index(second.row(), JsonTreeModel::Value, second.parent()).data().toString(),
                 QStringLiteral("A"));
        QCOMPARE(model.parent(second),
                 model.indexForPath({"describeJobApiResponse", "sparkJob", "parameters"}));
        QCOMPARE(model.indexForPath({"describeJobApiResponse", "sparkJob", "flag"}, JsonTreeModel::Value)
                     .data()
                     .toString(),
                 QStringLiteral("true"));
        QCOMPARE(model.indexForPath({"describeJobApiResponse", "sparkJob", "nothing"}, JsonTreeModel::Type)
                     .data()
                     .toString(),
                 QStringLiteral("null"));
        QCOMPARE(hudi.data(JsonTreeModel::RawDataRole).toString(),
                 QStringLiteral("{\"hoodie.a\":\"1\",\"hoodie.b\":\"2\"}"));
        QVERIFY(!model.indexForPath({"nope"}).isValid());
    }

    void treeReplaceAndScalars() {
        JsonTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJson(describeAnswer());
        model.setJson(json::array({1, "x", json::object()}));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(2, JsonTreeModel::Value).data().toString(), QStringLiteral("{0}"));
        model.setJson(json(42));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, JsonTreeModel::Value).data().toString(), QStringLiteral("42"));
        model.setJson(json());
        QCOMPARE(model.rowCount(), 0);
    }

    void tokenizerKinds() {
        const QString line =
            QStringLiteral("  \"key\": \"value\", \"n\": -12.5e3, \"t\": true, \"z\": null, [false]}");
        const auto tokens = JsonTokenizer::tokenize(line);
        QCOMPARE(kinds(tokens),
                 (QList<Kind>{Kind::Key,         Kind::Punctuation, Kind::String,      Kind::Punctuation,
                              Kind::Key,         Kind::Punctuation, Kind::Number,      Kind::Punctuation,
                              Kind::Key,         Kind::Punctuation, Kind::Literal,     Kind::Punctuation,
                              Kind::Key,         Kind::Punctuation, Kind::Literal,     Kind::Punctuation,
                              Kind::Punctuation, Kind::Literal,     Kind::Punctuation, Kind::Punctuation}));
        QCOMPARE(line.mid(tokens[0].start, tokens[0].length), QStringLiteral("\"key\""));
        QCOMPARE(line.mid(tokens[2].start, tokens[2].length), QStringLiteral("\"value\""));
        QCOMPARE(line.mid(tokens[6].start, tokens[6].length), QStringLiteral("-12.5e3"));
        QCOMPARE(line.mid(tokens[10].start, tokens[10].length), QStringLiteral("true"));
    }

    void tokenizerEscapesAndBadInput() {
        const QString escaped = QStringLiteral("\"a \\\"quoted\\\" : text\" : \"x\"");
        const auto t = JsonTokenizer::tokenize(escaped);
        QCOMPARE(kinds(t), (QList<Kind>{Kind::Key, Kind::Punctuation, Kind::String}));
        QCOMPARE(t[0].length, escaped.indexOf(QStringLiteral(" : \"x\"")));
        // Unterminated string runs to the end; unknown characters are single Error tokens.
        const auto bad = JsonTokenizer::tokenize(QStringLiteral("@ \"open"));
        QCOMPARE(kinds(bad), (QList<Kind>{Kind::Error, Kind::String}));
        QCOMPARE(bad[1].length, 5);
        const auto trailing = JsonTokenizer::tokenize(QStringLiteral("\"a\\"));
        QCOMPARE(trailing.size(), std::size_t(1));
        QCOMPARE(trailing[0].length, 3);
        QVERIFY(JsonTokenizer::tokenize(QStringLiteral("   ")).empty());
    }

    void configsModelExplainsEveryKey() {
        SparkJob job;
        job.name = "count_transactions";
        job.applicationPath = "s3://b/app.jar";
        job.hudiConfigs = {{"hoodie.datasource.meta.sync.glue.catalogId", "123"},
                           {"hoodie.write.lock.provider", "x"},
                           {"hoodie.metrics.on", "true"},
                           {"hoodie.datasource.write.operation", "upsert"},
                           {"hoodie.x", "y"}};
        job.hudiConfigsStatus = {{"hoodie.datasource.meta.sync.glue.catalogId", HudiConfigStatus::Applied},
                                 {"hoodie.write.lock.provider", HudiConfigStatus::Reserved},
                                 {"hoodie.metrics.on", HudiConfigStatus::Reserved},
                                 {"hoodie.datasource.write.operation", HudiConfigStatus::NotAllowed},
                                 {"hoodie.x", HudiConfigStatus::OverriddenByPlatform}};
        // The service gives a reason for some keys; the others fall back to what their status means.
        job.hudiConfigsStatusReasons = {{"hoodie.write.lock.provider", "reserved, as the service says"}};
        job.sparkConfigs = {{"spark.executor.memory", "2g"}};
        job.misplacedHudiConfigs = {"hoodie.datasource.write.operation=insert"};
        JobConfigsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJob(job);
        QCOMPARE(model.rowCount(), 7);
        QHash<QString, QString> explanation;
        for (int r = 0; r < model.rowCount(); ++r)
            if (model.index(r, JobConfigsModel::Source).data(JobConfigsModel::RawDataRole).toInt() ==
                int(JobConfigsModel::RowKind::Hudi))
                explanation[model.index(r, JobConfigsModel::Key).data().toString()] =
                    model.index(r, JobConfigsModel::Explanation).data().toString();
        QCOMPARE(explanation["hoodie.datasource.meta.sync.glue.catalogId"],
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::Applied)));
        QCOMPARE(explanation["hoodie.datasource.write.operation"],
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::NotAllowed)));
        QCOMPARE(explanation["hoodie.write.lock.provider"], QStringLiteral("reserved, as the service says"));
        QCOMPARE(explanation["hoodie.metrics.on"],
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::Reserved)));
        QCOMPARE(explanation["hoodie.x"],
                 QString::fromUtf8(hudiConfigStatusMeaning(HudiConfigStatus::OverriddenByPlatform)));

        int misplacedRow = -1, sparkRow = -1;
        for (int r = 0; r < model.rowCount(); ++r) {
            const int kind =
                model.index(r, JobConfigsModel::Source).data(JobConfigsModel::RawDataRole).toInt();
            if (kind == int(JobConfigsModel::RowKind::Misplaced))
                misplacedRow = r;
            if (kind == int(JobConfigsModel::RowKind::Spark))
                sparkRow = r;
        }
        QVERIFY(misplacedRow >= 0 && sparkRow >= 0);
        QCOMPARE(model.index(misplacedRow, JobConfigsModel::Key).data().toString(),
                 QStringLiteral("hoodie.datasource.write.operation"));
        QCOMPARE(model.index(misplacedRow, JobConfigsModel::Value).data().toString(),
                 QStringLiteral("insert"));
        const QString fix = model.index(misplacedRow, JobConfigsModel::Explanation).data().toString();
        QCOMPARE(fix,
                 QString::fromStdString(misplacedHudiConfigMessage("hoodie.datasource.write.operation")));
        QCOMPARE(model.index(sparkRow, JobConfigsModel::Key).data().toString(),
                 QStringLiteral("spark.executor.memory"));
        QCOMPARE(model.index(0, JobConfigsModel::Status).data(JobConfigsModel::RawDataRole).toInt() >= 0,
                 true);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestJsonModels)
#include "tst_jsonmodels.moc"
