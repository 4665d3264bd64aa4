#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterTextForms.h"
#include "core/parameters/SparkSubmitOptions.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

using Params = std::vector<std::string>;

const QString kGoldenDir = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/data/classifier");

// Golden lines are tab-separated, so the few characters that would break a line are escaped.
std::string escaped(const std::string& s) {
    std::string out;
    for (const char c : s) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string range(const char* name, TokenRange r) {
    return std::string("\t") + name + "[" + std::to_string(r.first) + "," + std::to_string(r.second) + ")";
}

std::string setting(const char* what, const ConfigSetting& s) {
    return std::string(what) + "\t" + std::to_string(s.tokenIndex) + "\t" + escaped(s.key) + "\t" +
           escaped(s.value) + "\n";
}

std::string render(const Params& params, const ClassifiedParameters& c) {
    std::string out;
    for (const ClassifiedToken& t : c.tokens) {
        out += tokenClassName(t.cls);
        out += "\t" + escaped(params.at(static_cast<std::size_t>(t.index)));
        if (t.optionIndex >= 0)
            out += "\toption=" + std::to_string(t.optionIndex);
        if (t.nameRange.first >= 0)
            out += range("name", t.nameRange);
        if (t.keyRange.first >= 0)
            out += range("key", t.keyRange);
        if (t.equalsPos >= 0)
            out += "\teq=" + std::to_string(t.equalsPos);
        if (t.valueRange.first >= 0)
            out += range("value", t.valueRange);
        out += "\n";
    }
    out += "applicationPath\t" + std::to_string(c.applicationPath) + "\n";
    for (const auto& a : c.applicationArguments)
        out += "argument\t" + escaped(a) + "\n";
    for (const auto& s : c.sparkConfigs)
        out += setting("sparkConfig", s);
    for (const auto& s : c.hudiConfigs)
        out += setting("hudiConfig", s);
    for (const auto& s : c.misplacedHudiConfigs)
        out += setting("misplacedHudiConfig", s);
    return out;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestParameterClassifier : public QObject {
    Q_OBJECT

private slots:
    void golden_data() {
        QTest::addColumn<QString>("base");
        const QStringList cases =
            QDir(kGoldenDir).entryList({QStringLiteral("*.params")}, QDir::Files, QDir::Name);
        QVERIFY2(cases.size() >= 15, "the golden cases are missing");
        for (const QString& c : cases) {
            const QString base = c.chopped(int(qstrlen(".params")));
            QTest::newRow(base.toUtf8().constData()) << base;
        }
    }

    // tests/data/classifier/<case>.params holds one parameter per line (the per-line text form);
    // <case>.expected the classification. JOBDECK_UPDATE_GOLDEN=1 rewrites the expected files.
    void golden() {
        QFETCH(QString, base);
        const QByteArray text = readAll(kGoldenDir + "/" + base + ".params");
        const TextParameters parsed = parseParameterText(text.toStdString(), ParameterTextForm::PerLine);
        QVERIFY2(parsed.ok(), parsed.error.value_or("").c_str());
        const std::string actual = render(parsed.parameters, classifyParameters(parsed.parameters));
        const QString expectedPath = kGoldenDir + "/" + base + ".expected";
        if (qEnvironmentVariable("JOBDECK_UPDATE_GOLDEN") == QLatin1String("1")) {
            QFile f(expectedPath);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray::fromStdString(actual));
        }
        QVERIFY2(QFile::exists(expectedPath),
                 "no .expected file: run with JOBDECK_UPDATE_GOLDEN=1 and review it");
        QCOMPARE(QString::fromStdString(actual), QString::fromUtf8(readAll(expectedPath)));
    }

    void pathIsFirstNonOptionNonValue() {
        const Params p{"--class", "Foo", "--verbose", "--jars", "a.jar,b.jar", "app.jar", "--class", "Bar"};
        const auto c = classifyParameters(p);
        QCOMPARE(c.applicationPath, 5);
        QCOMPARE(c.applicationArguments, (Params{"--class", "Bar"}));
        QCOMPARE(c.tokens.size(), p.size());
        QCOMPARE(c.tokens[1].cls, TokenClass::OptionValue);
        QCOMPARE(c.tokens[2].cls, TokenClass::Option);
        QCOMPARE(c.tokens[6].cls, TokenClass::ApplicationArgument);
    }

    void hoodieKeysInConfAreNotSparkConfigs() {
        const auto c =
            classifyParameters({"--conf", "hoodie.a=1", "--conf", "spark.b=2", "-c", "other=3", "x.jar"});
        QCOMPARE(c.sparkConfigs, (std::vector<ConfigSetting>{{"spark.b", "2", 3}}));
        QVERIFY(c.hudiConfigs.empty());
        QCOMPARE(c.tokens[1].cls, TokenClass::ConfPair);
        QCOMPARE(c.tokens[5].cls, TokenClass::ConfPair);
    }

    void pairSplitsAtFirstEquals() {
        const auto c = classifyParameters({"--hudi-conf", "hoodie.x1=y1,hoodie.x2=y2", "app.jar"});
        QCOMPARE(c.hudiConfigs, (std::vector<ConfigSetting>{{"hoodie.x1", "y1,hoodie.x2=y2", 1}}));
        QCOMPARE(c.tokens[1].keyRange, TokenRange(0, 9));
        QCOMPARE(c.tokens[1].equalsPos, 9);
        QCOMPARE(c.tokens[1].valueRange, TokenRange(10, 25));
    }

    void misplacedPairsAreArguments() {
        const auto c = classifyParameters({"app.jar", "--hudi-conf", "hoodie.c=d", "arg1"});
        QCOMPARE(c.applicationPath, 0);
        QVERIFY(c.hudiConfigs.empty());
        QCOMPARE(c.misplacedHudiConfigs, (std::vector<ConfigSetting>{{"hoodie.c", "d", 2}}));
        QCOMPARE(c.applicationArguments, (Params{"--hudi-conf", "hoodie.c=d", "arg1"}));
        QCOMPARE(c.tokens[1].cls, TokenClass::MisplacedHudiConfFlag);
        QCOMPARE(c.tokens[2].cls, TokenClass::MisplacedHudiConfPair);
        QCOMPARE(c.tokens[2].optionIndex, 1);
    }

    void optionTable() {
        // Every option spark-submit's parser takes a value for, and its switches.
        for (const char* name : {"--class",
                                 "--name",
                                 "--jars",
                                 "--packages",
                                 "--exclude-packages",
                                 "--repositories",
                                 "--py-files",
                                 "--files",
                                 "--archives",
                                 "--driver-memory",
                                 "--driver-java-options",
                                 "--driver-library-path",
                                 "--driver-class-path",
                                 "--executor-memory",
                                 "--executor-cores",
                                 "--total-executor-cores",
                                 "--num-executors",
                                 "--driver-cores",
                                 "--conf",
                                 "-c",
                                 "--properties-file",
                                 "--queue",
                                 "--principal",
                                 "--keytab",
                                 "--proxy-user",
                                 "--master",
                                 "--deploy-mode",
                                 "--kill",
                                 "--status",
                                 "--remote",
                                 "--hudi-conf"}) {
            const SparkSubmitOption* o = SparkSubmitOptions::find(name);
            QVERIFY2(o && o->takesValue, name);
        }
        for (const char* name :
             {"--verbose", "-v", "--supervise", "--help", "-h", "--version", "--usage-error"}) {
            const SparkSubmitOption* o = SparkSubmitOptions::find(name);
            QVERIFY2(o && !o->takesValue, name);
        }
        QCOMPARE(SparkSubmitOptions::find("--master")->policy, OptionPolicy::PlatformOwned);
        QCOMPARE(SparkSubmitOptions::find("--deploy-mode")->policy, OptionPolicy::PlatformOwned);
        QCOMPARE(SparkSubmitOptions::find("--version")->policy, OptionPolicy::NotForJobs);
        QVERIFY(!SparkSubmitOptions::find("--hoodie-conf"));
        QVERIFY(!SparkSubmitOptions::splitInline("--class=").value);     // spark's regex needs a value
        QVERIFY(!SparkSubmitOptions::splitInline("-c=spark.a=b").value); // and two dashes
        QCOMPARE(*SparkSubmitOptions::splitInline("--conf=spark.a=b").value, std::string_view("spark.a=b"));
        QCOMPARE(SparkSubmitOptions::suggest("--executor-memroy").at(0), std::string("--executor-memory"));
        QVERIFY(SparkSubmitOptions::suggest("--zzzzzzzzzzzz").empty());
    }

    void largeListIsLinear() {
        Params p;
        for (int i = 0; i < 50000; ++i) {
            p.push_back("--conf");
            p.push_back("spark.k" + std::to_string(i) + "=v");
        }
        p.push_back("app.jar");
        QElapsedTimer timer;
        timer.start();
        const auto c = classifyParameters(p);
        QCOMPARE(c.sparkConfigs.size(), std::size_t(50000));
        QCOMPARE(c.applicationPath, 100000);
        // A hang guard only: how fast classification is, is bench_coreops' figure.
        QVERIFY2(timer.elapsed() < 20000, "classification does not end");
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestParameterClassifier)
#include "tst_parameterclassifier.moc"
