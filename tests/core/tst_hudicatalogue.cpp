#include "core/hudi/HudiCatalogue.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <chrono>
#include <thread>

using namespace jobdeck;

namespace {

const HudiCatalogue& catalogue() {
    return HudiCatalogue::instance();
}

QStringList toQt(const std::vector<std::string>& values) {
    QStringList out;
    for (const auto& v : values)
        out << QString::fromStdString(v);
    return out;
}

HudiConfigEntry entryOfType(const std::string& type, std::vector<std::string> allowed = {}) {
    HudiConfigEntry e;
    e.key = "hoodie.test." + type;
    e.type = type;
    e.allowedValues = std::move(allowed);
    return e;
}

} // namespace

class TestHudiCatalogue : public QObject {
    Q_OBJECT

private slots:
    void parsesTheWholeCompiledInCatalogue() {
        QVERIFY(catalogue().entries().size() > 850);
        QVERIFY(catalogue().flinkOptions().size() > 150);
        for (const auto& e : catalogue().entries()) {
            QVERIFY2(!e.key.empty() && !e.type.empty(), e.key.c_str());
            QCOMPARE(catalogue().find(e.key), &e);
        }
    }

    // Every Hudi config and Flink option the product documentation names (tests/data/seeds/seed-keys.tsv,
    // copied from seeds 000-004) is known to the catalogue as what the seed says it is.
    void seedKeysAreKnown() {
        QFile file(QStringLiteral(JOBDECK_SOURCE_DIR "/tests/data/seeds/seed-keys.tsv"));
        QVERIFY2(file.open(QIODevice::ReadOnly | QIODevice::Text), qPrintable(file.fileName()));
        int checked = 0;
        while (!file.atEnd()) {
            const QString line = QString::fromUtf8(file.readLine()).trimmed();
            if (line.isEmpty() || line.startsWith('#'))
                continue;
            const QStringList fields = line.split('\t');
            QVERIFY2(fields.size() == 3, qPrintable(line));
            const std::string key = fields[1].toStdString();
            const QString expected = fields[2];
            const auto names = catalogue().lookup(key);
            const QByteArray what = line.toUtf8();
            if (expected == QLatin1String("hudi")) {
                QVERIFY2(names.entry, what.constData());
            } else if (expected == QLatin1String("deprecated")) {
                QVERIFY2(names.deprecatedOf, what.constData());
            } else if (expected == QLatin1String("flink")) {
                QVERIFY2(names.flinkOption, what.constData());
            } else if (expected == QLatin1String("reserved")) {
                QVERIFY2(HudiConfigPolicy::isReserved(key.back() == '.' ? key + "x" : key), what.constData());
            } else if (expected == QLatin1String("unknown")) {
                QVERIFY2(!names.entry && !names.deprecatedOf && !names.flinkOption, what.constData());
            } else {
                QFAIL(what.constData());
            }
            ++checked;
        }
        QVERIFY(checked > 40);
    }

    void findsCurrentNames() {
        const HudiConfigEntry* e = catalogue().find("hoodie.datasource.hive_sync.mode");
        QVERIFY(e);
        QCOMPARE(e->type, std::string("enum"));
        QCOMPARE(toQt(e->allowedValues), (QStringList{"hms", "jdbc", "hiveql"}));
        const HudiConfigEntry* jdbc = catalogue().find("hoodie.datasource.hive_sync.jdbcurl");
        QVERIFY(jdbc);
        QCOMPARE(jdbc->defaultValue, std::string("jdbc:hive2://localhost:10000"));
        QVERIFY(!catalogue().find("hoodie.datasource.hive_sync.jdbcurll"));
        QVERIFY(!catalogue().find(""));
        // Hudi keys are case-sensitive.
        QVERIFY(catalogue().find("hoodie.datasource.meta.sync.glue.catalogId"));
        QVERIFY(!catalogue().find("hoodie.datasource.meta.sync.glue.catalogid"));
    }

    void findsByDeprecatedName() {
        const HudiConfigEntry* e = catalogue().findByDeprecatedName("hoodie.cleaner.policy");
        QVERIFY(e);
        QCOMPARE(e->key, std::string("hoodie.clean.policy"));
        QVERIFY(!catalogue().find("hoodie.cleaner.policy"));
        // An entry with two older names answers to both.
        QCOMPARE(catalogue().findByDeprecatedName("hoodie.datasource.write.base.file.format")->key,
                 std::string("hoodie.table.base.file.format"));
        QCOMPARE(catalogue().findByDeprecatedName("hoodie.table.ro.file.format")->key,
                 std::string("hoodie.table.base.file.format"));
        QVERIFY(!catalogue().findByDeprecatedName("hoodie.clean.policy"));
        QVERIFY(!catalogue().findByDeprecatedName("nothing"));
    }

    void findsFlinkOptionsAndTheirHudiKeys() {
        const FlinkOption* streaming = catalogue().findFlinkOption("read.streaming.enabled");
        QVERIFY(streaming);
        QCOMPARE(streaming->type, std::string("boolean"));
        QVERIFY(streaming->hudiKey.empty());

        const FlinkOption* policy = catalogue().findFlinkOption("clean.policy");
        QVERIFY(policy);
        QCOMPARE(policy->hudiKey, std::string("hoodie.clean.policy"));

        // write.precombine.field is an older Flink name of ordering.fields.
        const FlinkOption* precombine = catalogue().findFlinkOption("write.precombine.field");
        QVERIFY(precombine);
        QCOMPARE(precombine->key, std::string("ordering.fields"));
        QCOMPARE(precombine->hudiKey, std::string("hoodie.datasource.write.precombine.field"));
        QVERIFY(std::find(precombine->deprecatedNames.begin(), precombine->deprecatedNames.end(),
                          "write.precombine.field") != precombine->deprecatedNames.end());
        // Unmapped in the data, but the Hudi config of the same name exists.
        QCOMPARE(catalogue().findFlinkOption("hive_sync.mode")->hudiKey,
                 std::string("hoodie.datasource.hive_sync.mode"));
        QCOMPARE(catalogue().findFlinkOption("write.operation")->hudiKey,
                 std::string("hoodie.datasource.write.operation"));
        QCOMPARE(catalogue().findFlinkOption("hive_sync.enable")->hudiKey,
                 std::string("hoodie.datasource.hive_sync.enable"));
        for (const auto& o : catalogue().flinkOptions())
            QVERIFY2(o.hudiKey.empty() || o.hudiKey.starts_with("hoodie."), o.key.c_str());
        QVERIFY(!catalogue().findFlinkOption("hoodie.clean.policy.nope"));
    }

    void suggestsTypos_data() {
        QTest::addColumn<QString>("typo");
        QTest::addColumn<QString>("expected");
        QTest::newRow("extra letter") << "hoodie.datasource.hive_sync.jdbcurll"
                                      << "hoodie.datasource.hive_sync.jdbcurl";
        QTest::newRow("case") << "hoodie.datasource.meta.sync.glue.catalogid"
                              << "hoodie.datasource.meta.sync.glue.catalogId";
        QTest::newRow("missing letter") << "hoodie.upsert.shuffle.paralelism"
                                        << "hoodie.upsert.shuffle.parallelism";
        QTest::newRow("transposition") << "hoodie.clean.ploicy"
                                       << "hoodie.clean.policy";
        QTest::newRow("near a deprecated name suggests the current one") << "hoodie.cleaner.commits.retaind"
                                                                         << "hoodie.clean.commits.retained";
        QTest::newRow("lost segment") << "hoodie.hive_sync.metastore.uris"
                                      << "hoodie.datasource.hive_sync.metastore.uris";
    }
    void suggestsTypos() {
        QFETCH(QString, typo);
        QFETCH(QString, expected);
        const auto suggestions = catalogue().suggest(typo.toStdString());
        QVERIFY2(!suggestions.empty(), qPrintable(typo));
        QCOMPARE(QString::fromStdString(suggestions.front()), expected);
        QVERIFY(suggestions.size() <= 3);
    }

    void suggestsNothingFarFromEveryKey_data() {
        QTest::addColumn<QString>("key");
        QTest::newRow("unrelated") << "hoodie.completely.unrelated.setting";
        QTest::newRow("spark key") << "spark.executor.memory";
        QTest::newRow("empty") << "";
        QTest::newRow("short") << "hoodie.x";
        QTest::newRow("huge") << QString(5000, 'a');
    }
    void suggestsNothingFarFromEveryKey() {
        QFETCH(QString, key);
        QVERIFY(catalogue().suggest(key.toStdString()).empty());
    }

    void suggestRespectsMax() {
        QVERIFY(catalogue().suggest("hoodie.clean.policy", 0).empty());
        const auto one = catalogue().suggest("hoodie.index.typ", 1);
        QCOMPARE(one.size(), std::size_t(1));
        QCOMPARE(one.front(), std::string("hoodie.index.type"));
        // A known key is its own closest key.
        QCOMPARE(catalogue().suggest("hoodie.clean.policy").front(), std::string("hoodie.clean.policy"));
    }

    void suggestEnds() {
        // A hang guard for 1,000 lookups; how fast suggest() is, is bench_hudicatalogue's figure.
        const auto start = std::chrono::steady_clock::now();
        std::size_t found = 0;
        for (int i = 0; i < 1000; ++i)
            found += catalogue().suggest("hoodie.upsert.shuffle.paralelism" + std::to_string(i % 10)).size();
        const auto elapsed = std::chrono::steady_clock::now() - start;
        QVERIFY(found > 0);
        QVERIFY2(elapsed < std::chrono::seconds(20), "suggest() does not end");
    }

    void suggestIsSafeFromManyThreads() {
        std::vector<std::thread> threads;
        std::atomic<int> wrong{0};
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&wrong] {
                for (int i = 0; i < 200; ++i) {
                    const auto s = HudiCatalogue::instance().suggest("hoodie.clean.ploicy");
                    if (s.empty() || s.front() != "hoodie.clean.policy")
                        ++wrong;
                }
            });
        for (auto& t : threads)
            t.join();
        QCOMPARE(wrong.load(), 0);
    }

    void checksBooleans() {
        const auto e = entryOfType("boolean");
        QVERIFY(!catalogue().checkValue(e, "true"));
        QVERIFY(!catalogue().checkValue(e, "FALSE"));
        QVERIFY(!catalogue().checkValue(e, "True"));
        const auto message = catalogue().checkValue(e, "yes");
        QVERIFY(message);
        QVERIFY(message->find("expects true or false, got 'yes'") != std::string::npos);
        QVERIFY(catalogue().checkValue(e, "1"));
        QVERIFY(catalogue().checkValue(e, ""));
    }

    void checksNumbers() {
        const auto i = entryOfType("int");
        QVERIFY(!catalogue().checkValue(i, "200"));
        QVERIFY(!catalogue().checkValue(i, "-1"));
        QVERIFY(!catalogue().checkValue(i, "2147483647"));
        QVERIFY(catalogue().checkValue(i, "2147483648"));
        QVERIFY(catalogue().checkValue(i, "1.5"));
        QVERIFY(catalogue().checkValue(i, "ten"));
        QVERIFY(catalogue().checkValue(i, "-"));
        QVERIFY(catalogue().checkValue(i, "1_000"));
        QVERIFY(catalogue().checkValue(i, "10k")->find("expects a whole number (int") != std::string::npos);

        const auto l = entryOfType("long");
        QVERIFY(!catalogue().checkValue(l, "2147483648"));
        QVERIFY(!catalogue().checkValue(l, "9223372036854775807"));
        QVERIFY(catalogue().checkValue(l, "9223372036854775808"));
        QVERIFY(!catalogue().checkValue(l, "-9223372036854775808"));
        QVERIFY(catalogue().checkValue(l, "1GB"));

        const auto d = entryOfType("double");
        for (const char* ok : {"0.2", "2", "-1.5", "1e3", "2.5E-2", ".5", "5.", "1.0d", "NaN", "-Infinity"})
            QVERIFY2(!catalogue().checkValue(d, ok), ok);
        for (const char* bad : {"", ".", "1e", "1,5", "half", "e5", "0.2.1"})
            QVERIFY2(catalogue().checkValue(d, bad), bad);
    }

    void checksDurationsAndClasses() {
        const auto d = entryOfType("duration");
        for (const char* ok : {"10s", "500ms", "2min", "PT1H", "60"})
            QVERIFY2(!catalogue().checkValue(d, ok), ok);
        for (const char* bad : {"soon", "10 parsecs", "s10"})
            QVERIFY2(catalogue().checkValue(d, bad), bad);

        const auto c = entryOfType("class");
        QVERIFY(!catalogue().checkValue(c, "org.apache.hudi.hive.MultiPartKeysValueExtractor"));
        QVERIFY(!catalogue().checkValue(c, "com.acme.Outer$Inner"));
        QVERIFY(catalogue().checkValue(c, "org.apache..Foo"));
        QVERIFY(catalogue().checkValue(c, "org.apache.hudi.hive.MultiPartKeysValueExtractor,"));
        QVERIFY(catalogue().checkValue(c, "1org.Foo"));

        // Free-form types take anything.
        QVERIFY(!catalogue().checkValue(entryOfType("string"), "any thing"));
        QVERIFY(!catalogue().checkValue(entryOfType("list"), "a,b"));
        QVERIFY(!catalogue().checkValue(entryOfType("path"), "s3://bucket/x"));
    }

    void checksEnumsWithHudisCaseRules() {
        // Upper-case valid values: Hudi upper-cases the value first.
        const HudiConfigEntry* tableType = catalogue().find("hoodie.datasource.write.table.type");
        QVERIFY(tableType);
        QVERIFY(!catalogue().checkValue(*tableType, "MERGE_ON_READ"));
        QVERIFY(!catalogue().checkValue(*tableType, "merge_on_read"));
        const auto bad = catalogue().checkValue(*tableType, "MOR");
        QVERIFY(bad);
        QCOMPARE(*bad, std::string("'hoodie.datasource.write.table.type' expects one of COPY_ON_WRITE, "
                                   "MERGE_ON_READ, got 'MOR'."));

        // Lower-case valid values are parsed case-insensitively too.
        const HudiConfigEntry* mode = catalogue().find("hoodie.datasource.hive_sync.mode");
        QVERIFY(!catalogue().checkValue(*mode, "jdbc"));
        QVERIFY(!catalogue().checkValue(*mode, "HMS"));
        QVERIFY(catalogue().checkValue(*mode, "thrift"));

        // Mixed-case values go to Enum.valueOf and must match exactly.
        const HudiConfigEntry* route =
            catalogue().find("hoodie.write.commit.callback.pulsar.producer.route-mode");
        QVERIFY(route);
        QVERIFY(!catalogue().checkValue(*route, "RoundRobinPartition"));
        const auto wrongCase = catalogue().checkValue(*route, "roundrobinpartition");
        QVERIFY(wrongCase);
        QVERIFY(wrongCase->find("Write it exactly as 'RoundRobinPartition'.") != std::string::npos);

        // Numbers with a fixed set of values are checked as numbers and against the set.
        const HudiConfigEntry* layout = catalogue().find("hoodie.timeline.layout.version");
        QVERIFY(layout);
        QVERIFY(!catalogue().checkValue(*layout, "2"));
        QVERIFY(catalogue().checkValue(*layout, "3"));
        QVERIFY(catalogue().checkValue(*layout, "two")->find("whole number") != std::string::npos);
    }

    void parsesMalformedTextWithoutCrashing() {
        const HudiCatalogue broken("key\tdefault\n"
                                   "hoodie.a\t1\tint\t\tg\t\t\tsummary\r\n"
                                   "too\tfew\tfields\n"
                                   "\t\t\t\t\t\t\t\n"
                                   "hoodie.a\t2\tint\t\tg\t\t\tduplicate ignored\n",
                                   "");
        QCOMPARE(broken.entries().size(), std::size_t(1));
        QCOMPARE(broken.find("hoodie.a")->summary, std::string("summary"));
        QCOMPARE(broken.find("hoodie.a")->defaultValue, std::string("1"));
        QVERIFY(broken.flinkOptions().empty());
        QCOMPARE(broken.suggest("hoodie.b").front(), std::string("hoodie.a"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestHudiCatalogue)
#include "tst_hudicatalogue.moc"
