// The Jobs list's filter predicate (core/policy/JobFilter): plain C++, tested without any Qt model.
#include "core/policy/JobFilter.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using jobdeck::JobFilter;

class TestJobFilter final : public QObject {
    Q_OBJECT
private slots:
    void emptyMatchesEverything() {
        for (const char* text : {"", "   ", "cluster:", "type: name:"}) {
            const JobFilter f = JobFilter::parse(text);
            QVERIFY2(f.isEmpty(), text);
            QVERIFY(f.matches("anything", "c", "JAR"));
        }
    }

    void bareTokenMatchesNameCaseInsensitively() {
        const JobFilter f = JobFilter::parse("Count");
        QVERIFY(f.matches("count_transactions", "demo", "JAR"));
        QVERIFY(f.matches("DAILY_COUNT", "demo", "JAR"));
        QVERIFY(!f.matches("ingest_orders", "count_cluster", "JAR")); // bare terms are about the name
    }

    void fieldTerms() {
        const JobFilter f = JobFilter::parse("cluster:demo type:python count");
        QCOMPARE(f.terms().size(), std::size_t(3));
        QCOMPARE(f.terms()[0].field, JobFilter::Field::Cluster);
        QCOMPARE(f.terms()[1].field, JobFilter::Field::Type);
        QCOMPARE(f.terms()[2].field, JobFilter::Field::Name);
        QVERIFY(f.matches("count_py", "demo_cluster", "PYTHON"));
        QVERIFY(!f.matches("count_py", "demo_cluster", "JAR"));
        QVERIFY(!f.matches("count_py", "prod", "PYTHON"));
        QVERIFY(!f.matches("report", "demo_cluster", "PYTHON"));
    }

    void keysAreCaseInsensitiveAndExplicitName() {
        const JobFilter f = JobFilter::parse("CLUSTER:Demo Name:orders");
        QVERIFY(f.matches("ingest_orders", "DEMO", "JAR"));
        QVERIFY(!f.matches("ingest", "DEMO", "JAR"));
    }

    void negation() {
        const JobFilter f = JobFilter::parse("-type:jar -tmp");
        QVERIFY(f.matches("daily_report", "demo", "PYTHON"));
        QVERIFY(!f.matches("daily_report", "demo", "JAR"));
        QVERIFY(!f.matches("tmp_report", "demo", "PYTHON"));
        // A lone '-' is a name term, not a negation of nothing.
        const JobFilter dash = JobFilter::parse("-");
        QVERIFY(dash.matches("a-b", "c", "JAR"));
        QVERIFY(!dash.matches("ab", "c", "JAR"));
    }

    void quotedValuesKeepSpaces() {
        const JobFilter f = JobFilter::parse("name:\"my job\" cluster:\"a b\"");
        QCOMPARE(f.terms().size(), std::size_t(2));
        QCOMPARE(f.terms()[0].needle, std::string("my job"));
        QVERIFY(!f.matches("the my job one", "ab c", "JAR"));
        QVERIFY(f.matches("the my job one", "a b c", "JAR"));
    }

    void unknownPrefixIsPartOfTheName() {
        const JobFilter f = JobFilter::parse("foo:bar");
        QCOMPARE(f.terms().front().field, JobFilter::Field::Name);
        QVERIFY(f.matches("x.foo:bar.y", "c", "JAR"));
        QVERIFY(!f.matches("foobar", "c", "JAR"));
    }

    // The substring search itself (containsIgnoringAsciiCase) is tested in tests/core/tst_asciitext.
};

JOBDECK_TEST_GUILESS_MAIN(TestJobFilter)
#include "tst_jobfilter.moc"
