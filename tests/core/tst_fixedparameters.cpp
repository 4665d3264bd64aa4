// FixedParameters: a fix's corrected list, kept as the shared original plus splices.
#include "core/parameters/Diagnostic.h"
#include "core/parameters/FixedParameters.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

#include <memory>
#include <string>
#include <vector>

namespace jobdeck {

using Params = std::vector<std::string>;
using Splice = FixedParameters::Splice;

class TestFixedParameters final : public QObject {
    Q_OBJECT

    static std::shared_ptr<FixedParameters::Base> base(const Params& params, std::vector<Splice> splices) {
        auto b = std::make_shared<FixedParameters::Base>(params);
        b->splices = std::move(splices);
        return b;
    }

private slots:
    void baseKeepsEveryToken() {
        const Params params{"--conf", "", "spark.a=1", "s3://b/app.jar", std::string("nul\0inside", 10)};
        const FixedParameters::Base b(params);
        QCOMPARE(b.size(), params.size());
        for (std::size_t i = 0; i < params.size(); ++i)
            QCOMPARE(b.at(i), params[i]);
        QCOMPARE(FixedParameters::Base(Params{}).size(), std::size_t(0));
    }

    void wholeListReadsBackUnchanged() {
        const Params params{"--class", "X", "app.jar"};
        const FixedParameters fixed(params);
        QCOMPARE(fixed.list(), params);
        const Params converted = fixed;
        QCOMPARE(converted, params);
        QVERIFY(FixedParameters().list().empty());
    }

    void splicesReplaceInsertAndRemove() {
        const Params params{"--hudi-conf", "hoodie.a=1",  "--conf",    "spark.b=2",
                            "app.jar",     "--hudi-conf", "hoodie.c=3"};
        const auto b = base(params, {
                                        {1, 2, {"hoodie.a=2"}},                // replace one token
                                        {2, 4, {}},                            // remove a pair
                                        {4, 4, {"--hudi-conf", "hoodie.c=3"}}, // insert before the path
                                        {5, 7, {}},                            // and remove it after the path
                                    });
        QCOMPARE(FixedParameters(b, 0, 1).list(), (Params{"--hudi-conf", "hoodie.a=2", "--conf", "spark.b=2",
                                                          "app.jar", "--hudi-conf", "hoodie.c=3"}));
        QCOMPARE(FixedParameters(b, 1, 1).list(),
                 (Params{"--hudi-conf", "hoodie.a=1", "app.jar", "--hudi-conf", "hoodie.c=3"}));
        QCOMPARE(FixedParameters(b, 2, 2).list(), (Params{"--hudi-conf", "hoodie.a=1", "--conf", "spark.b=2",
                                                          "--hudi-conf", "hoodie.c=3", "app.jar"}));
        QCOMPARE(FixedParameters(b, 0, 4).list(),
                 (Params{"--hudi-conf", "hoodie.a=2", "--hudi-conf", "hoodie.c=3", "app.jar"}));
    }

    void positionsPastTheEndAreClamped() {
        const auto b = base({"a", "b"}, {{1, 9, {"c"}}, {7, 7, {"d"}}});
        QCOMPARE(FixedParameters(b, 0, 1).list(), (Params{"a", "c"}));
        QCOMPARE(FixedParameters(b, 1, 1).list(), (Params{"a", "b", "d"}));
    }

    void equalityComparesTheCorrectedLists() {
        const auto b = base({"a", "b"}, {{0, 1, {}}, {0, 1, {}}, {1, 2, {}}});
        QVERIFY(FixedParameters(b, 0, 1) == FixedParameters(b, 0, 1)); // same splices, without building
        QVERIFY(FixedParameters(b, 0, 1) == FixedParameters(b, 1, 1)); // other splices, same list
        QVERIFY(FixedParameters(b, 0, 1) == FixedParameters(Params{"b"}));
        QVERIFY(!(FixedParameters(b, 0, 1) == FixedParameters(b, 2, 1)));
        QVERIFY((Fix{"t", Params{"x"}, {}} == Fix{"t", Params{"x"}, {}}));
        QVERIFY(!(Fix{"t", Params{"x"}, {}} == Fix{"u", Params{"x"}, {}}));
    }

    // A fix stays valid after the list it was made from is gone.
    void outlivesTheOriginalList() {
        FixedParameters fixed;
        {
            Params params{"--master", "yarn", "app.jar"};
            fixed = FixedParameters(base(params, {{0, 2, {}}}), 0, 1);
        }
        QCOMPARE(fixed.list(), Params{"app.jar"});
    }
};

} // namespace jobdeck

JOBDECK_TEST_GUILESS_MAIN(jobdeck::TestFixedParameters)
#include "tst_fixedparameters.moc"
