#include "core/parameters/ParameterClassifier.h"
#include "core/parameters/ParameterValidator.h"
#include "core/parameters/SubmitResources.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace jobdeck;

namespace {

using Params = std::vector<std::string>;
using Mode = ValidationContext::Mode;

const std::string kDisabled =
    "--hudi-conf is not enabled for this organization. Remove the --hudi-conf parameters, "
    "or contact Onehouse support to enable Hudi config overrides on Spark jobs.";

ValidationContext context(bool enabled, Params allowlist = {}, Mode mode = Mode::Create,
                          Params previous = {}) {
    ValidationContext c;
    c.settings.hudiConfigsEnabled = enabled;
    c.settings.hudiConfigAllowlist = std::move(allowlist);
    c.mode = mode;
    c.previousParameters = std::move(previous);
    c.withAdvice = false;
    return c;
}

std::vector<const Diagnostic*> withCode(const std::vector<Diagnostic>& diags, const std::string& code) {
    std::vector<const Diagnostic*> out;
    for (const auto& d : diags)
        if (d.code == code)
            out.push_back(&d);
    return out;
}

const Diagnostic* one(const std::vector<Diagnostic>& diags, const std::string& code) {
    const auto found = withCode(diags, code);
    return found.size() == 1 ? found.front() : nullptr;
}

int errorCount(const std::vector<Diagnostic>& diags) {
    return int(
        std::count_if(diags.begin(), diags.end(), [](auto& d) { return d.severity == Severity::Error; }));
}

QString dump(const std::vector<Diagnostic>& diags) {
    QString s;
    for (const auto& d : diags)
        s += QStringLiteral("[%1 %2 @%3] %4\n")
                 .arg(severityName(d.severity),
                      QString::fromUtf8(d.code.data(), static_cast<qsizetype>(d.code.size())))
                 .arg(d.tokenIndex)
                 .arg(QString::fromStdString(d.message));
    return s;
}

std::string refusal(const Params& p, const ValidationContext& c) {
    return refusalMessage(validateParameters(p, c)).value_or("<accepted>");
}

const Params kSeedConsole{"--class",
                          "com.example.MySparkApp",
                          "--hudi-conf",
                          "hoodie.datasource.meta.sync.glue.catalogId=123456789012",
                          "--hudi-conf",
                          "hoodie.datasource.hive_sync.database=analytics",
                          "s3://onehouse-customer-bucket-12345/jobs/my-spark-app.jar"};

} // namespace

class TestParameterValidator : public QObject {
    Q_OBJECT

private slots:
    void seedExampleIsAccepted() {
        const auto c =
            context(true, {"hoodie.datasource.meta.sync.", "hoodie.datasource.hive_sync.database"});
        const auto diags = validateParameters(kSeedConsole, c);
        QVERIFY2(errorCount(diags) == 0, qPrintable(dump(diags)));
        QVERIFY(!refusalMessage(diags));
        QVERIFY(!firstError(diags));
    }

    void featureOff() {
        const auto diags = validateParameters(kSeedConsole, context(false));
        QCOMPARE(*refusalMessage(diags), kDisabled);
        const Diagnostic* all = one(diags, "hudi-conf.disabled");
        QVERIFY(all);
        QCOMPARE(all->tokenIndex, -1);
        QCOMPARE(all->fixes.size(), std::size_t(1));
        QCOMPARE(all->fixes[0].parameters.list(),
                 (Params{"--class", "com.example.MySparkApp", kSeedConsole.back()}));
        const auto perPair = withCode(diags, "hudi-conf.disabled.pair");
        QCOMPARE(perPair.size(), std::size_t(2));
        QCOMPARE(perPair[0]->tokenIndex, 3);
        QCOMPARE(perPair[0]->message, kDisabled);
        QCOMPARE(perPair[1]->fixes.at(0).parameters.list(),
                 (Params{"--class", "com.example.MySparkApp", "--hudi-conf", kSeedConsole[3],
                         kSeedConsole.back()}));
        // Without --hudi-conf the feature does not matter.
        QCOMPARE(refusal({"--class", "A", "app.jar"}, context(false)), std::string("<accepted>"));
    }

    void notPermittedListsSortedKeysOnce() {
        const Params p{"--hudi-conf", "hoodie.zeta.a=1", "--hudi-conf",     "hoodie.alpha.b=2", "--hudi-conf",
                       "hoodie.ok=3", "--hudi-conf",     "hoodie.zeta.a=4", "app.jar"};
        const auto diags = validateParameters(p, context(true, {"hoodie.ok"}));
        QCOMPARE(*refusalMessage(diags),
                 std::string("--hudi-conf keys are not permitted for this organization: hoodie.alpha.b, "
                             "hoodie.zeta.a. Remove them, or contact Onehouse support to allow them."));
        const auto perKey = withCode(diags, "hudi-conf.not-permitted.key");
        QCOMPARE(perKey.size(), std::size_t(3));
        QCOMPARE(perKey[0]->tokenIndex, 1);
        QCOMPARE(perKey[0]->message,
                 std::string(
                     "--hudi-conf keys are not permitted for this organization: hoodie.zeta.a. Remove them, "
                     "or contact Onehouse support to allow them."));
        QCOMPARE(one(diags, "hudi-conf.not-permitted")->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf", "hoodie.ok=3", "app.jar"}));
    }

    void familyAndExactEntries() {
        const auto c = context(true, {"hoodie.datasource.meta.sync.", "hoodie.datasource.write.operation"});
        QCOMPARE(refusal({"--hudi-conf", "hoodie.datasource.meta.sync.glue.catalogId=1", "a.jar"}, c),
                 std::string("<accepted>"));
        QCOMPARE(refusal({"--hudi-conf", "hoodie.datasource.write.operation=upsert", "a.jar"}, c),
                 std::string("<accepted>"));
        // An exact entry covers only that key, a family only what is under it.
        QVERIFY(refusal({"--hudi-conf", "hoodie.datasource.write.operation.x=1", "a.jar"}, c) !=
                "<accepted>");
        QVERIFY(refusal({"--hudi-conf", "hoodie.datasource.meta.syncX=1", "a.jar"}, c) != "<accepted>");
    }

    void reservedKeysRefusedOnCreate_data() {
        QTest::addColumn<QString>("key");
        for (const char* k : {"hoodie.write.concurrency.mode", "hoodie.write.lock.provider",
                              "hoodie.cleaner.policy.failed.writes", "hoodie.clean.failed.writes.policy",
                              "hoodie.metrics.on", "hoodie.write.config.freeze"})
            QTest::newRow(k) << k;
    }

    void reservedKeysRefusedOnCreate() {
        QFETCH(QString, key);
        const std::string k = key.toStdString();
        // Even the widest allow-list never covers them.
        const auto diags =
            validateParameters({"--hudi-conf", k + "=x", "app.jar"}, context(true, {"hoodie."}));
        QCOMPARE(*refusalMessage(diags), "--hudi-conf keys are not permitted for this organization: " + k +
                                             ". Remove them, or contact Onehouse support to allow them.");
        QVERIFY(one(diags, "hudi-conf.reserved"));
    }

    void notAHudiKey() {
        const auto diags =
            validateParameters({"--hudi-conf", "spark.executor.cores=2", "app.jar"}, context(true));
        QCOMPARE(
            *refusalMessage(diags),
            std::string("--hudi-conf only accepts hoodie.* keys, got 'spark.executor.cores'. Use --conf for "
                        "Spark configs."));
        QCOMPARE(one(diags, "hudi-conf.not-hudi-key")->fixes.at(0).parameters.list(),
                 (Params{"--conf", "spark.executor.cores=2", "app.jar"}));
        QCOMPARE(
            refusal({"--hudi-conf", "=v", "app.jar"}, context(true)),
            std::string("--hudi-conf only accepts hoodie.* keys, got ''. Use --conf for Spark configs."));
    }

    void flagLast() {
        QCOMPARE(refusal({"--class", "A", "--hudi-conf"}, context(true)),
                 std::string("--hudi-conf must be followed by hudi config <key>=<value>"));
        // After the path it is an application argument.
        QCOMPARE(refusal({"app.jar", "--hudi-conf"}, context(true)), std::string("<accepted>"));
    }

    void noEquals() {
        QCOMPARE(refusal({"--hudi-conf", "hoodie.a", "app.jar"}, context(true, {"hoodie."})),
                 std::string("Hudi config must be of format <key>=<value>"));
        QCOMPARE(refusal({"--hudi-conf=hoodie.a", "app.jar"}, context(true, {"hoodie."})),
                 std::string("Hudi config must be of format <key>=<value>"));
        // spark-submit reads "--hudi-conf=" (nothing after '=') as an unknown option.
        QCOMPARE(refusal({"--hudi-conf=", "app.jar"}, context(true, {"hoodie."})),
                 std::string("Unrecognized option '--hudi-conf=' before the application path."));
    }

    void emptyValue() {
        const auto diags =
            validateParameters({"--hudi-conf", "hoodie.a=", "app.jar"}, context(true, {"hoodie."}));
        QCOMPARE(
            *refusalMessage(diags),
            std::string("--hudi-conf value for 'hoodie.a' is empty. Remove the config to fall back to the "
                        "platform default."));
        QCOMPARE(one(diags, "hudi-conf.empty-value")->fixes.at(0).parameters.list(), Params{"app.jar"});
    }

    void whitespace_data() {
        QTest::addColumn<QString>("pair");
        QTest::addColumn<QString>("fixed");
        QTest::newRow("leading key") << " hoodie.a=b"
                                     << "hoodie.a=b";
        QTest::newRow("trailing key") << "hoodie.a =b"
                                      << "hoodie.a=b";
        QTest::newRow("leading value") << "hoodie.a= b"
                                       << "hoodie.a=b";
        QTest::newRow("trailing value") << "hoodie.a=b\t"
                                        << "hoodie.a=b";
        QTest::newRow("line break") << "hoodie.a=b\nc"
                                    << "";
        QTest::newRow("carriage return") << "hoodie.a=b\r"
                                         << "hoodie.a=b";
        QTest::newRow("blank value") << "hoodie.a= "
                                     << "hoodie.a=";
    }

    void whitespace() {
        QFETCH(QString, pair);
        QFETCH(QString, fixed);
        const auto diags =
            validateParameters({"--hudi-conf", pair.toStdString(), "app.jar"}, context(true, {"hoodie."}));
        QCOMPARE(*refusalMessage(diags),
                 std::string(
                     "--hudi-conf entry for 'hoodie.a' contains a line break or leading/trailing whitespace, "
                     "which would not survive the run's properties file intact."));
        const Diagnostic* d = one(diags, "hudi-conf.whitespace");
        QVERIFY(d);
        QCOMPARE(d->tokenIndex, 1);
        if (fixed.isEmpty()) {
            QVERIFY(d->fixes.empty()); // a line break inside the value: only the user knows what was meant
        } else {
            QCOMPARE(d->fixes.at(0).parameters.list(),
                     (Params{"--hudi-conf", fixed.toStdString(), "app.jar"}));
        }
    }

    void alterKeepsExistingPairsWhenFeatureTurnedOff() {
        const Params stored{"--hudi-conf", "hoodie.a=1", "app.jar"};
        const auto alter = context(false, {}, Mode::Alter, stored);
        const auto diags =
            validateParameters({"--class", "B", "--hudi-conf", "hoodie.a=1", "app.jar"}, alter);
        QVERIFY2(errorCount(diags) == 0, qPrintable(dump(diags)));
        const Diagnostic* kept = one(diags, "hudi-conf.kept-not-applied");
        QVERIFY(kept);
        QCOMPARE(kept->severity, Severity::Warning);
        QCOMPARE(kept->tokenIndex, 3);
        // A changed value is a new pair, checked like CREATE.
        QCOMPARE(refusal({"--hudi-conf", "hoodie.a=2", "app.jar"}, alter), kDisabled);
        // A new key next to a kept one: only the new one is refused; the fix keeps the old pair.
        const auto mixed =
            validateParameters({"--hudi-conf", "hoodie.a=1", "--hudi-conf", "hoodie.b=1", "app.jar"}, alter);
        QCOMPARE(*refusalMessage(mixed), kDisabled);
        QCOMPARE(withCode(mixed, "hudi-conf.disabled.pair").size(), std::size_t(1));
        QCOMPARE(one(mixed, "hudi-conf.disabled")->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf", "hoodie.a=1", "app.jar"}));
        // The same list on CREATE is refused.
        QCOMPARE(refusal({"--hudi-conf", "hoodie.a=1", "app.jar"}, context(false)), kDisabled);
    }

    void alterKeepsExistingPairsWhenAllowlistNarrowed() {
        const Params stored{"--hudi-conf", "hoodie.a.x=1", "--hudi-conf", "hoodie.b=2", "app.jar"};
        const auto alter = context(true, {"hoodie.b"}, Mode::Alter, stored);
        QCOMPARE(refusal(stored, alter), std::string("<accepted>"));
        QCOMPARE(refusal({"--hudi-conf", "hoodie.a.y=1", "app.jar"}, alter),
                 std::string(
                     "--hudi-conf keys are not permitted for this organization: hoodie.a.y. Remove them, or "
                     "contact Onehouse support to allow them."));
        // Stored pairs after the path were never configurations: they do not make a new pair acceptable.
        const auto misplacedStored = context(true, {}, Mode::Alter, {"app.jar", "--hudi-conf", "hoodie.c=1"});
        QVERIFY(refusal({"--hudi-conf", "hoodie.c=1", "app.jar"}, misplacedStored) != "<accepted>");
        QCOMPARE(refusal(stored, context(true, {"hoodie.b"})),
                 std::string(
                     "--hudi-conf keys are not permitted for this organization: hoodie.a.x. Remove them, or "
                     "contact Onehouse support to allow them."));
    }

    void misplacedPairWarnsWithMoveFix() {
        const Params p{"--class",     "Foo",        "--hudi-conf", "hoodie.a=b", "s3://bucket/app.jar",
                       "--hudi-conf", "hoodie.c=d", "arg1"};
        const auto diags = validateParameters(p, context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        const Diagnostic* d = one(diags, "hudi-conf.after-path");
        QVERIFY(d);
        QCOMPARE(d->severity, Severity::Warning);
        QCOMPARE(d->tokenIndex, 6);
        QCOMPARE(d->fixes.at(0).parameters.list(),
                 (Params{"--class", "Foo", "--hudi-conf", "hoodie.a=b", "--hudi-conf", "hoodie.c=d",
                         "s3://bucket/app.jar", "arg1"}));
        const auto inlined =
            validateParameters({"app.jar", "--hudi-conf=hoodie.c=d"}, context(true, {"hoodie."}));
        QCOMPARE(one(inlined, "hudi-conf.after-path")->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf=hoodie.c=d", "app.jar"}));
    }

    // ingest_orders: the moved key is outside the allow-list. The move would trade a warning for an
    // error, so the fix that works (remove the pair) comes first and the move says what it leads to:
    // the contract's refusal and the one explanation's remedy (the ALTER PROJECT an admin would run).
    void misplacedPairMoveKnowsItWouldBeRefused() {
        const Params p{"--class", "Foo", "app.jar", "--date", "d", "--hudi-conf", "hoodie.x.y=1"};
        const auto diags = validateParameters(p, context(true, {"hoodie.a."}));
        QCOMPARE(errorCount(diags), 0);
        const Diagnostic* d = one(diags, "hudi-conf.after-path");
        QVERIFY(d);
        QCOMPARE(int(d->fixes.size()), 2);
        QCOMPARE(d->fixes[0].title, std::string("Remove --hudi-conf hoodie.x.y"));
        QCOMPARE(d->fixes[0].parameters.list(), (Params{"--class", "Foo", "app.jar", "--date", "d"}));
        QCOMPARE(d->fixes[0].leadsTo, std::string());
        QCOMPARE(errorCount(validateParameters(d->fixes[0].parameters.list(), context(true, {"hoodie.a."}))),
                 0);
        const Fix& move = d->fixes[1];
        QCOMPARE(move.title,
                 std::string("Move --hudi-conf hoodie.x.y before the application path (refused there)"));
        const auto after = validateParameters(move.parameters.list(), context(true, {"hoodie.a."}));
        QVERIFY(errorCount(after) > 0);
        const std::string refused = refusalMessage(after).value_or("");
        QVERIFY2(move.leadsTo.starts_with(refused + "\n"), move.leadsTo.c_str());
        QVERIFY2(move.leadsTo.find("ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.x.y')") !=
                     std::string::npos,
                 move.leadsTo.c_str());

        // Allowed there: the move alone, leading to nothing refused.
        const auto allowed = validateParameters(p, context(true, {"hoodie."}));
        const Diagnostic* fine = one(allowed, "hudi-conf.after-path");
        QVERIFY(fine);
        QCOMPARE(int(fine->fixes.size()), 1);
        QCOMPARE(fine->fixes[0].leadsTo, std::string());
        // The feature off: the refusal is the feature's.
        const auto off = validateParameters(p, context(false));
        QVERIFY(one(off, "hudi-conf.after-path")->fixes[1].leadsTo.starts_with(kDisabled + "\n"));
    }

    // A typo can make an option or a configuration the application path: warnings, never errors.
    void pathShapes_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("type"); // -1: unknown
        QTest::addColumn<QStringList>("codes");
        const int jar = int(JobType::Jar), python = int(JobType::Python);
        QTest::newRow("x--class") << "x--class" << jar << QStringList{"path.option-glued", "path.extension"};
        QTest::newRow("glued --hudi-conf")
            << "a.jar--hudi-conf=hoodie.a=1" << -1 << QStringList{"path.option-glued"};
        QTest::newRow("bare hoodie pair")
            << "hoodie.a.b=1" << python << QStringList{"path.looks-like-config", "path.extension"};
        QTest::newRow("jar for python") << "s3://b/app.jar" << python << QStringList{"path.extension"};
        QTest::newRow("py for python") << "s3://b/my--app.py" << python << QStringList{};
        // spark-submit runs only a path ending in ".py" (that case) as Python: .zip and .egg go in
        // --py-files.
        QTest::newRow("egg") << "dist/app.egg" << python << QStringList{"path.extension"};
        QTest::newRow("zip") << "app.zip" << python << QStringList{"path.extension"};
        QTest::newRow("PY") << "APP.PY" << python << QStringList{"path.extension"};
        QTest::newRow("jar") << "s3://b/k=v/app.jar" << jar << QStringList{};
        QTest::newRow("JAR") << "APP.JAR" << jar << QStringList{};
        QTest::newRow("unknown type") << "app" << -1 << QStringList{};
    }

    void pathShapes() {
        QFETCH(QString, path);
        QFETCH(int, type);
        QFETCH(QStringList, codes);
        ValidationContext c = context(true, {"hoodie."});
        if (type >= 0)
            c.jobType = JobType(type);
        const auto diags = validateParameters({path.toStdString(), "--x", "1"}, c);
        QStringList found;
        for (const Diagnostic& d : diags) {
            found << QString::fromLatin1(d.code.data(), qsizetype(d.code.size()));
            QVERIFY2(d.severity == Severity::Warning, qPrintable(dump(diags)));
            QCOMPARE(d.tokenIndex, 0);
        }
        QCOMPARE(found, codes);
    }

    void hoodieKeyInConf() {
        const auto diags =
            validateParameters({"--conf", "hoodie.a=1", "-c", "hoodie.b=2", "--conf=hoodie.c=3", "app.jar"},
                               context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "conf.hoodie-key");
        QCOMPARE(found.size(), std::size_t(3));
        QCOMPARE(found[0]->severity, Severity::Warning);
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf", "hoodie.a=1", "-c", "hoodie.b=2", "--conf=hoodie.c=3", "app.jar"}));
        QCOMPARE(
            found[1]->fixes.at(0).parameters.list(),
            (Params{"--conf", "hoodie.a=1", "--hudi-conf", "hoodie.b=2", "--conf=hoodie.c=3", "app.jar"}));
        QCOMPARE(found[2]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "hoodie.a=1", "-c", "hoodie.b=2", "--hudi-conf=hoodie.c=3", "app.jar"}));
    }

    // A misspelt hoodie key in --conf is first offered moved under the key it may have meant, in both
    // forms; the plain move stays the last fix. A known key gets the plain move only.
    void misspeltHoodieKeyInConfIsMovedAsMeant() {
        const auto diags = validateParameters({"--conf", "hoodie.datasource.write.recordkey.feild=id",
                                               "--conf=hoodie.datasource.write.precombine.feild=ts", "--conf",
                                               "hoodie.datasource.write.table.name=t", "app.jar"},
                                              context(true, {"hoodie."}));
        const auto found = withCode(diags, "conf.hoodie-key");
        QCOMPARE(found.size(), std::size_t(3));
        const Fix& first = found[0]->fixes.at(0);
        QCOMPARE(first.title, std::string("Move to --hudi-conf as hoodie.datasource.write.recordkey.field"));
        QCOMPARE(first.parameters.list(),
                 (Params{"--hudi-conf", "hoodie.datasource.write.recordkey.field=id",
                         "--conf=hoodie.datasource.write.precombine.feild=ts", "--conf",
                         "hoodie.datasource.write.table.name=t", "app.jar"}));
        QCOMPARE(found[0]->fixes.back().title,
                 std::string("Move hoodie.datasource.write.recordkey.feild to --hudi-conf"));
        QCOMPARE(found[1]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "hoodie.datasource.write.recordkey.feild=id",
                         "--hudi-conf=hoodie.datasource.write.precombine.field=ts", "--conf",
                         "hoodie.datasource.write.table.name=t", "app.jar"}));
        QCOMPARE(found[2]->fixes.size(), std::size_t(1));
        QCOMPARE(found[2]->fixes.at(0).title,
                 std::string("Move hoodie.datasource.write.table.name to --hudi-conf"));
        QVERIFY(found[2]->fixes.at(0).leadsTo.empty());

        // Where the allow-list would refuse the moved pair, each move says so and what it leads to.
        const auto refused =
            validateParameters({"--conf", "hoodie.datasource.write.recordkey.feild=id", "app.jar"},
                               context(true, {"hoodie.cleaner."}));
        const Diagnostic* d = one(refused, "conf.hoodie-key");
        QVERIFY(d);
        QCOMPARE(d->fixes.size(), std::size_t(2));
        for (const Fix& fix : d->fixes) {
            QVERIFY2(fix.title.ends_with(" (refused there)"), fix.title.c_str());
            QVERIFY2(fix.leadsTo.starts_with("--hudi-conf keys are not permitted"), fix.leadsTo.c_str());
        }
    }

    // A --hudi-conf pair after the application path whose key Hudi does not have: moved before the path
    // under the names the catalogue suggests first (one fix ends the finding and the typo the move would
    // show next), then as written; a move the allow-list would refuse comes after the fixes that work.
    void misspeltMisplacedHudiConfIsMovedAsMeant() {
        const auto diags =
            validateParameters({"app.jar", "--hudi-conf", "hoodie.datasource.write.recordkey.feild=id",
                                "--hudi-conf=hoodie.datasource.write.precombine.feild=ts", "--hudi-conf",
                                "hoodie.datasource.write.table.name=t"},
                               context(true, {"hoodie."}));
        const auto found = withCode(diags, "hudi-conf.after-path");
        QCOMPARE(found.size(), std::size_t(3));
        const Fix& first = found[0]->fixes.at(0);
        QCOMPARE(first.title, std::string("Move before the application path as "
                                          "hoodie.datasource.write.recordkey.field"));
        QCOMPARE(first.parameters.list(),
                 (Params{"--hudi-conf", "hoodie.datasource.write.recordkey.field=id", "app.jar",
                         "--hudi-conf=hoodie.datasource.write.precombine.feild=ts", "--hudi-conf",
                         "hoodie.datasource.write.table.name=t"}));
        QCOMPARE(found[0]->fixes.back().title,
                 std::string(
                     "Move --hudi-conf hoodie.datasource.write.recordkey.feild before the application path"));
        QCOMPARE(found[1]->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf=hoodie.datasource.write.precombine.field=ts", "app.jar", "--hudi-conf",
                         "hoodie.datasource.write.recordkey.feild=id", "--hudi-conf",
                         "hoodie.datasource.write.table.name=t"}));
        QCOMPARE(found[2]->fixes.size(), std::size_t(1)); // a key Hudi has: moved as written

        // Refused under the allow-list: removing works, so it comes before the moves, which say so.
        const auto refused =
            validateParameters({"app.jar", "--hudi-conf", "hoodie.datasource.write.recordkey.feild=id"},
                               context(true, {"hoodie.cleaner."}));
        const Diagnostic* d = one(refused, "hudi-conf.after-path");
        QVERIFY(d);
        QVERIFY(d->fixes.size() >= 3);
        QVERIFY2(d->fixes.at(0).title.starts_with("Remove "), d->fixes.at(0).title.c_str());
        for (std::size_t i = 1; i < d->fixes.size(); ++i) {
            QVERIFY2(d->fixes[i].title.ends_with(" (refused there)"), d->fixes[i].title.c_str());
            QVERIFY2(d->fixes[i].leadsTo.starts_with("--hudi-conf keys are not permitted"),
                     d->fixes[i].leadsTo.c_str());
        }
    }

    void severalPairsInOneFlag() {
        const auto diags =
            validateParameters({"--hudi-conf", "hoodie.x1=y1,hoodie.x2=y2,hoodie.x3=a,b", "app.jar"},
                               context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        const Diagnostic* d = one(diags, "hudi-conf.multiple-pairs");
        QVERIFY(d);
        QCOMPARE(d->severity, Severity::Warning);
        QCOMPARE(d->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf", "hoodie.x1=y1", "--hudi-conf", "hoodie.x2=y2", "--hudi-conf",
                         "hoodie.x3=a,b", "app.jar"}));
        // A comma alone, or ",hoodie.x" without '=', is just a value.
        QVERIFY(!one(validateParameters({"--hudi-conf", "hoodie.a=x,y,hoodie.b", "app.jar"},
                                        context(true, {"hoodie."})),
                     "hudi-conf.multiple-pairs"));
    }

    void hoodieConfOption() {
        const auto diags =
            validateParameters({"--hoodie-conf", "hoodie.a=b", "app.jar"}, context(true, {"hoodie."}));
        const Diagnostic* d = firstError(diags);
        QVERIFY(d);
        QCOMPARE(d->code, std::string_view("option.hoodie-conf"));
        QVERIFY(d->message.find("--hudi-conf") != std::string::npos);
        QCOMPARE(d->fixes.at(0).parameters.list(), (Params{"--hudi-conf", "hoodie.a=b", "app.jar"}));
        // After the path it is the Hudi Streamer's own flag.
        QCOMPARE(refusal({"app.jar", "--hoodie-conf", "hoodie.a=b"}, context(false)),
                 std::string("<accepted>"));
    }

    void platformAndNonJobOptions() {
        const auto diags = validateParameters(
            {"--master", "yarn", "--deploy-mode=cluster", "--version", "app.jar"}, context(true));
        QCOMPARE(withCode(diags, "option.platform-owned").size(), std::size_t(2));
        QCOMPARE(firstError(diags)->tokenIndex, 0);
        QCOMPARE(firstError(diags)->fixes.at(0).parameters.list(),
                 (Params{"--deploy-mode=cluster", "--version", "app.jar"}));
        QVERIFY(one(diags, "option.not-for-jobs"));
    }

    void unknownOptionAndMissingValue() {
        const auto diags = validateParameters({"--executor-memroy", "4g", "app.jar"}, context(true));
        const Diagnostic* d = one(diags, "option.unknown");
        QVERIFY(d);
        QCOMPARE(d->message,
                 std::string("Unrecognized option '--executor-memroy' before the application path."));
        QCOMPARE(d->fixes.at(0).parameters.list(), (Params{"--executor-memory", "4g", "app.jar"}));
        QCOMPARE(refusal({"app.jar"}, context(true)), std::string("<accepted>"));
        QCOMPARE(refusal({"--class"}, context(true)), std::string("Missing argument for option '--class'."));
        QCOMPARE(refusal({"--conf", "novalue", "a.jar"}, context(true)),
                 std::string("Spark config without '=': novalue"));
    }

    // "--class org.Main" typed on one line is one parameter spark-submit does not know: the fix splits it
    // into its shell words; text whose first word is no option keeps the plain message.
    void optionAndValueInOneParameter() {
        const auto diags = validateParameters({"--class org.Main", "app.jar"}, context(true));
        const Diagnostic* d = one(diags, "option.unknown");
        QVERIFY2(d, qPrintable(dump(diags)));
        QCOMPARE(d->message,
                 std::string("Unrecognized option '--class org.Main' before the application path: "
                             "an option and its value are parameters of their own."));
        QCOMPARE(int(d->fixes.size()), 1);
        QCOMPARE(d->fixes[0].title, std::string("Split into 2 parameters"));
        QCOMPARE(d->fixes[0].parameters.list(), (Params{"--class", "org.Main", "app.jar"}));
        QCOMPARE(errorCount(validateParameters(d->fixes[0].parameters.list(), context(true))), 0);

        const Params line{"--conf 'spark.driver.extraJavaOptions=-Da=1 -Db=2'\t-c spark.x=1", "app.jar"};
        const auto lineDiags = validateParameters(line, context(true));
        const Diagnostic* quoted = one(lineDiags, "option.unknown");
        QVERIFY(quoted);
        QCOMPARE(
            quoted->fixes.at(0).parameters.list(),
            (Params{"--conf", "spark.driver.extraJavaOptions=-Da=1 -Db=2", "-c", "spark.x=1", "app.jar"}));

        const auto hudiDiags =
            validateParameters({"--hudi-conf hoodie.table.name=t", "app.jar"}, context(true));
        const Diagnostic* hudi = one(hudiDiags, "option.unknown");
        QVERIFY(hudi);
        QCOMPARE(hudi->fixes.at(0).parameters.list(),
                 (Params{"--hudi-conf", "hoodie.table.name=t", "app.jar"}));

        // Misspelt, the option is corrected as the parameter is split.
        const auto typoDiags = validateParameters({"--clas org.Main", "app.jar"}, context(true));
        const Diagnostic* typo = one(typoDiags, "option.unknown");
        QVERIFY(typo);
        QCOMPARE(typo->message,
                 std::string("Unrecognized option '--clas org.Main' before the application path."));
        QCOMPARE(typo->fixes.at(0).title, std::string("Did you mean --class? (split into 2 parameters)"));
        QCOMPARE(typo->fixes.at(0).parameters.list(), (Params{"--class", "org.Main", "app.jar"}));

        // Not an option and its value: an unknown option, or a line the shell cannot read, is refused as
        // it is and not split; a known option alone is no finding.
        for (const std::string& plain : {"--no-such value", "--class 'unclosed"}) {
            const auto found = validateParameters({plain, "x", "app.jar"}, context(true));
            const Diagnostic* other = one(found, "option.unknown");
            QVERIFY2(other, qPrintable(dump(found)));
            QCOMPARE(other->message, "Unrecognized option '" + plain + "' before the application path.");
            for (const Fix& fix : other->fixes)
                QVERIFY2(!fix.title.starts_with("Split"), fix.title.c_str());
        }
        QVERIFY(withCode(validateParameters({"--class", "x", "app.jar"}, context(true)), "option.unknown")
                    .empty());
    }

    // After the path, "--date 2024-01-01" on one line is one argument: a warning whose fix splits it;
    // a negative number, a plain argument with blanks, an inline value with a blank, a list of options
    // and an argument of one word are left alone.
    void argumentOptionAndValueInOne() {
        const Params params{"app.jar", "--date 2024-01-01", "-5 days",     "some words",
                            "--flag",  "--date=x y",        "--java-opts", "-Xmx4g -Xms1g"};
        const auto diags = validateParameters(params, context(true));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "argument.option-and-value");
        QCOMPARE(int(found.size()), 1);
        QCOMPARE(found[0]->tokenIndex, 1);
        QCOMPARE(found[0]->severity, Severity::Warning);
        QCOMPARE(found[0]->message, std::string("The application argument '--date 2024-01-01' reaches the "
                                                "application as one argument, blanks included: an option and "
                                                "its value are arguments of their own."));
        QCOMPARE(found[0]->fixes.at(0).title, std::string("Split into 2 arguments"));
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"app.jar", "--date", "2024-01-01", "-5 days", "some words", "--flag", "--date=x y",
                         "--java-opts", "-Xmx4g -Xms1g"}));
        QCOMPARE(refusal(params, context(true)), std::string("<accepted>"));
    }

    // spark-submit keeps the blanks of a --conf pair: "spark.executor.memory = 4g" sets another key.
    // A warning whose fix removes them; the other checks read the key without them.
    void confPairWithBlanks() {
        const auto diags = validateParameters(
            {"--conf", "spark.executor.memory = 4g", "--conf", " hoodie.x=1", "--conf=spark.a=v ", "app.jar"},
            context(true));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "conf.whitespace");
        QCOMPARE(int(found.size()), 3);
        QCOMPARE(found[0]->message,
                 std::string("--conf entry for 'spark.executor.memory' has blanks in its key, "
                             "which spark-submit keeps: it sets 'spark.executor.memory ', a "
                             "key Spark does not read. Remove them."));
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "spark.executor.memory=4g", "--conf", " hoodie.x=1", "--conf=spark.a=v ",
                         "app.jar"}));
        const Diagnostic* hoodie = one(diags, "conf.hoodie-key"); // " hoodie.x" read as hoodie.x
        QVERIFY(hoodie);
        // Moved as written: the blanks are conf.whitespace's to remove.
        QCOMPARE(hoodie->fixes.back().parameters.list(),
                 (Params{"--conf", "spark.executor.memory = 4g", "--hudi-conf", " hoodie.x=1",
                         "--conf=spark.a=v ", "app.jar"}));
        QVERIFY(withCode(diags, "conf.not-spark-key").empty());
        QCOMPARE(found[2]->message,
                 std::string("--conf entry for 'spark.a' has blanks at the ends of its value, "
                             "which spark-submit keeps. Remove them."));
        QCOMPARE(found[2]->fixes.at(0).parameters.list().at(4), std::string("--conf=spark.a=v"));
        QVERIFY(
            withCode(validateParameters({"--conf", "spark.a=1", "app.jar"}, context(true)), "conf.whitespace")
                .empty());
    }

    // "--class=org.Main --verbose", or "org.Main --verbose" after --class: the value holds an option
    // spark-submit never reads as one. A warning whose fix splits it; JVM options in a value are not
    // spark-submit options and are left alone.
    void optionValueHoldingAnOption() {
        const Params params{"--class=org.Main --verbose",
                            "--name",
                            "nightly --queue q",
                            "--driver-java-options",
                            "-Da=1 -Db=2",
                            "--name=a b",
                            "app.jar"};
        const auto diags = validateParameters(params, context(true));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "option.value-holds-option");
        QCOMPARE(int(found.size()), 2);
        QCOMPARE(found[0]->tokenIndex, 0);
        QCOMPARE(found[0]->message, std::string("The value of --class holds the option --verbose, which is "
                                                "then read as part of the value: an option and its value are "
                                                "parameters of their own."));
        QCOMPARE(found[0]->fixes.at(0).parameters.list().at(0), std::string("--class=org.Main"));
        QCOMPARE(found[0]->fixes.at(0).parameters.list().at(1), std::string("--verbose"));
        QCOMPARE(found[1]->tokenIndex, 2);
        QVERIFY(found[1]->message.starts_with("The value of --name holds the option --queue,"));
        QCOMPARE(found[1]->fixes.at(0).parameters.list(),
                 (Params{"--class=org.Main --verbose", "--name", "nightly", "--queue", "q",
                         "--driver-java-options", "-Da=1 -Db=2", "--name=a b", "app.jar"}));
    }

    // The same habit in a pair: "spark.a=1 --conf spark.b=2" after --conf sets spark.a to "1 --conf
    // spark.b=2", and a Hudi config's value takes the next --hudi-conf the same way. JVM options in a
    // value are not options of spark-submit and are left alone.
    void pairValueHoldingAnOption() {
        const Params params{"--conf",
                            "spark.a=1 --conf spark.b=2",
                            "--conf=spark.c=1 --verbose",
                            "--conf",
                            "spark.driver.extraJavaOptions=-Da=1 -verbose:gc",
                            "--hudi-conf",
                            "hoodie.table.name=t --hudi-conf hoodie.datasource.write.operation=upsert",
                            "app.jar"};
        const auto diags = validateParameters(params, context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "option.value-holds-option");
        QCOMPARE(int(found.size()), 3);
        QCOMPARE(found[0]->tokenIndex, 1);
        QVERIFY(found[0]->message.starts_with("The value of --conf holds the option --conf,"));
        QCOMPARE(
            found[0]->fixes.at(0).parameters.list(),
            (Params{"--conf", "spark.a=1", "--conf", "spark.b=2", "--conf=spark.c=1 --verbose", "--conf",
                    "spark.driver.extraJavaOptions=-Da=1 -verbose:gc", "--hudi-conf",
                    "hoodie.table.name=t --hudi-conf hoodie.datasource.write.operation=upsert", "app.jar"}));
        QCOMPARE(found[1]->tokenIndex, 2);
        QCOMPARE(found[1]->fixes.at(0).parameters.list().at(2), std::string("--conf=spark.c=1"));
        QCOMPARE(found[1]->fixes.at(0).parameters.list().at(3), std::string("--verbose"));
        QCOMPARE(found[2]->tokenIndex, 6);
        QVERIFY(found[2]->message.starts_with("The value of --hudi-conf holds the option --hudi-conf,"));
        const ClassifiedParameters split = classifyParameters(found[2]->fixes.at(0).parameters.list());
        QCOMPARE(int(split.hudiConfigs.size()), 2);
    }

    // spark-submit's own check of its resource settings (Spark 3's SparkSubmitArguments): a size is digits
    // and an optional unit, a count a whole number, either above 0; the option wins over its --conf key.
    void resourceValuesSparkSubmitRefuses() {
        const SubmitResource& memory = *SubmitResources::ofOption("--executor-memory");
        const SubmitResource& cores = *SubmitResources::ofOption("--executor-cores");
        for (const char* accepted : {"4g", "4G", "512m", "4gb", " 4g ", "1024", "1p"})
            QVERIFY2(SubmitResources::accepts(memory, accepted), accepted);
        for (const char* refused : {"4 g", "1.5g", "0", "0g", "-1g", "4x", "", "g", "4gib"})
            QVERIFY2(!SubmitResources::accepts(memory, refused), refused);
        for (const char* accepted : {"4", "+4", "04"})
            QVERIFY2(SubmitResources::accepts(cores, accepted), accepted);
        for (const char* refused : {" 4", "4 ", "0", "-2", "four", "2.5", "99999999999"})
            QVERIFY2(!SubmitResources::accepts(cores, refused), refused);
        QCOMPARE(SubmitResources::corrected(memory, "4 G"), std::optional<std::string>("4g"));
        QCOMPARE(SubmitResources::corrected(memory, "1.5g"), std::optional<std::string>("1536m"));
        QCOMPARE(SubmitResources::corrected(memory, "0.5 GB"), std::optional<std::string>("512m"));
        QCOMPARE(SubmitResources::corrected(memory, "1.3g"), std::optional<std::string>());
        QCOMPARE(SubmitResources::corrected(cores, " 4"), std::optional<std::string>("4"));
        QCOMPARE(SubmitResources::corrected(cores, "four"), std::optional<std::string>());

        const Params params{"--executor-memory",
                            "4 g",
                            "--driver-memory=1.5g",
                            "--conf",
                            "spark.executor.cores=x",
                            "--conf",
                            "spark.driver.cores=0",
                            "--driver-cores",
                            "2",
                            "--conf",
                            "spark.executor.instances=0",
                            "--conf",
                            "spark.dynamicAllocation.enabled=TRUE",
                            "app.jar",
                            "--executor-memory",
                            "much"};
        const auto diags = validateParameters(params, context(true));
        QCOMPARE(errorCount(diags), 0);
        const auto found = withCode(diags, "resource.invalid");
        QCOMPARE(int(found.size()), 3); // not --driver-cores' conf, the executors, or the argument
        QCOMPARE(found[0]->tokenIndex, 1);
        QCOMPARE(
            found[0]->message,
            std::string("spark-submit refuses --executor-memory '4 g': Executor memory must be a positive "
                        "number, a whole number of bytes with an optional unit such as 512m or 4g. Every "
                        "run would stop before the application starts."));
        QCOMPARE(found[0]->fixes.at(0).title, std::string("Use 4g"));
        QCOMPARE(found[0]->fixes.at(0).parameters.list().at(1), std::string("4g"));
        QCOMPARE(found[1]->tokenIndex, 2);
        QCOMPARE(found[1]->fixes.at(0).parameters.list().at(2), std::string("--driver-memory=1536m"));
        QCOMPARE(found[2]->tokenIndex, 4);
        QVERIFY(
            found[2]->message.starts_with("spark-submit refuses spark.executor.cores 'x': Executor cores"));
        QVERIFY(found[2]->fixes.empty());
    }

    // spark-submit keeps an option's last value: "--jars a.jar --jars b.jar" ships b.jar only. The earlier
    // one is warned about and its fix removes it with its value; --conf pairs and switches are not options
    // of this kind, and after the path the same words are the application's.
    void repeatedOptionKeepsItsLastValue() {
        const Params params{"--jars", "a.jar",     "--conf",    "spark.a=1", "--verbose", "--jars=b.jar",
                            "--conf", "spark.b=2", "--verbose", "app.jar",   "--jars",    "c.jar"};
        const auto diags = validateParameters(params, context(true));
        const auto found = withCode(diags, "option.duplicate");
        QCOMPARE(int(found.size()), 1);
        QCOMPARE(found[0]->tokenIndex, 0);
        QCOMPARE(
            found[0]->message,
            std::string("--jars is given more than once; spark-submit uses only the last one, 'b.jar'."));
        QCOMPARE(found[0]->fixes.at(0).title, std::string("Remove this earlier --jars"));
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "spark.a=1", "--verbose", "--jars=b.jar", "--conf", "spark.b=2",
                         "--verbose", "app.jar", "--jars", "c.jar"}));
        const auto inlineDiags =
            validateParameters({"--class=org.A", "--class", "org.B", "app.jar"}, context(true));
        const auto inlineFirst = withCode(inlineDiags, "option.duplicate");
        QCOMPARE(int(inlineFirst.size()), 1);
        QCOMPARE(inlineFirst[0]->fixes.at(0).parameters.list(), (Params{"--class", "org.B", "app.jar"}));
    }

    // A resource's --conf key given with its option too: spark-submit sets the key from the option.
    void resourceConfOverriddenByItsOption() {
        const Params params{"--conf",
                            "spark.executor.memory=8g",
                            "--conf=spark.driver.cores=2",
                            "--executor-memory",
                            "4g",
                            "--driver-cores=1",
                            "app.jar"};
        const auto diags = validateParameters(params, context(true));
        const auto found = withCode(diags, "conf.overridden-by-option");
        QCOMPARE(int(found.size()), 2);
        QCOMPARE(found[0]->tokenIndex, 1);
        QCOMPARE(found[0]->message,
                 std::string("'spark.executor.memory' is not used: --executor-memory sets it, to '4g'."));
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"--conf=spark.driver.cores=2", "--executor-memory", "4g", "--driver-cores=1",
                         "app.jar"}));
        QCOMPARE(found[1]->tokenIndex, 2);
        QCOMPARE(found[1]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "spark.executor.memory=8g", "--executor-memory", "4g", "--driver-cores=1",
                         "app.jar"}));
        QVERIFY(withCode(validateParameters({"--conf", "spark.executor.memory=8g", "app.jar"}, context(true)),
                         "conf.overridden-by-option")
                    .empty());
    }

    // spark-submit refuses --py-files (or spark.submit.pyFiles) unless the application's path ends in
    // .py: each one is warned about, and its fix removes it (with its value, or its --conf).
    void pythonFilesNeedAPythonApplication() {
        const Params params{"--py-files", "deps.zip", "--conf", "spark.submit.pyFiles=lib.zip", "app.jar"};
        const auto diags = validateParameters(params, context(true));
        const auto found = withCode(diags, "py-files.not-python-application");
        QCOMPARE(int(found.size()), 2);
        QCOMPARE(found[0]->tokenIndex, 0);
        QCOMPARE(found[0]->severity, Severity::Warning);
        QCOMPARE(found[0]->message,
                 std::string(
                     "spark-submit refuses --py-files for an application that is not a Python script: "
                     "'app.jar' does not end in .py. Every run would stop before the application starts."));
        QCOMPARE(found[0]->fixes.at(0).title, std::string("Remove --py-files"));
        QCOMPARE(found[0]->fixes.at(0).parameters.list(),
                 (Params{"--conf", "spark.submit.pyFiles=lib.zip", "app.jar"}));
        QCOMPARE(found[1]->tokenIndex, 3);
        QCOMPARE(found[1]->fixes.at(0).title, std::string("Remove this spark.submit.pyFiles"));
        QCOMPARE(found[1]->fixes.at(0).parameters.list(), (Params{"--py-files", "deps.zip", "app.jar"}));
        for (const Params& fine : {Params{"--py-files", "deps.zip", "app.py"},
                                   Params{"--conf", "spark.submit.pyFiles=lib.zip", " s3://b/app.py "},
                                   Params{"--conf", "spark.submit.pyFilesX=lib.zip", "app.jar"},
                                   Params{"app.jar", "--py-files", "x.zip"}})
            QVERIFY(
                withCode(validateParameters(fine, context(true)), "py-files.not-python-application").empty());
    }

    void pathAndEmptyList() {
        QCOMPARE(refusal({}, context(true)),
                 std::string("PARAMETERS must not be empty: give at least the path of the "
                             "application's JAR or Python file."));
        QCOMPARE(refusal({"--class", "Foo"}, context(true)),
                 std::string(
                     "PARAMETERS have no application path: add the path of the application's JAR or Python "
                     "file after the job configuration."));
        QCOMPARE(firstError(validateParameters({"--name", "x", ""}, context(true)))->code,
                 std::string_view("path.empty"));
    }

    void refusalOrderIsDeterministic() {
        const Params p{"--hudi-conf", "hoodie.z=1", "--hudi-conf", "hoodie.a=", "--hudi-conf",
                       "spark.x=1",   "--master",   "local",       "--class"};
        auto diags = validateParameters(p, context(true));
        QCOMPARE(firstError(diags)->code, std::string_view("option.platform-owned"));
        QCOMPARE(diags.front().code, firstError(diags)->code); // the list is sorted in refusal order
        const std::string expected = *refusalMessage(diags);
        std::mt19937 rng(7);
        for (int i = 0; i < 5; ++i) {
            std::shuffle(diags.begin(), diags.end(), rng);
            QCOMPARE(*refusalMessage(diags), expected);
        }
        // Without option errors the per-pair form error comes first, in parameter order.
        QCOMPARE(refusal({"--hudi-conf", "hoodie.z=1", "--hudi-conf", "spark.x=1", "--hudi-conf",
                          "hoodie.a=", "a.jar"},
                         context(true)),
                 std::string(
                     "--hudi-conf only accepts hoodie.* keys, got 'spark.x'. Use --conf for Spark configs."));
        // Feature off wins over the form of the pairs.
        QCOMPARE(refusal({"--hudi-conf", "spark.x=1", "a.jar"}, context(false)), kDisabled);
    }

    void duplicates() {
        const auto diags = validateParameters({"--hudi-conf", "hoodie.a=1", "--conf", "spark.x=1",
                                               "--hudi-conf", "hoodie.a=2", "--conf", "spark.x=2", "app.jar"},
                                              context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        QCOMPARE(
            one(diags, "hudi-conf.duplicate-key")->fixes.at(0).parameters.list(),
            (Params{"--conf", "spark.x=1", "--hudi-conf", "hoodie.a=2", "--conf", "spark.x=2", "app.jar"}));
        QCOMPARE(one(diags, "conf.duplicate-key")->tokenIndex, 3);
    }

    void platformManagedKeys() {
        const auto diags = validateParameters(
            {"--hudi-conf", "hoodie.metadata.enable=false", "--conf", "spark.master=yarn", "app.jar"},
            context(true, {"hoodie."}));
        QCOMPARE(errorCount(diags), 0);
        QCOMPARE(one(diags, "hudi-conf.overridden-by-platform")->severity, Severity::Info);
        QCOMPARE(one(diags, "conf.platform-managed")->severity, Severity::Warning);
    }

    void adviceIsAppendedAndNeverRefuses() {
        auto c = context(true, {"hoodie."});
        c.withAdvice = true;
        const auto diags = validateParameters(
            {"--hudi-conf", "hoodie.datasource.hive_sync.databse=analytics", "app.jar"}, c);
        QCOMPARE(errorCount(diags), 0);
        const bool advised =
            std::any_of(diags.begin(), diags.end(), [](auto& d) { return d.code.starts_with("catalogue."); });
        QVERIFY2(advised, qPrintable(dump(diags)));
    }

    void fixBudgetBoundsWork() {
        Params p{"app.jar"};
        for (int i = 0; i < 2000; ++i) {
            p.push_back("--hudi-conf");
            p.push_back("hoodie.k" + std::to_string(i) + "=v");
        }
        auto c = context(true, {"hoodie."});
        c.fixBudget = 10 * p.size();
        const auto diags = validateParameters(p, c);
        QCOMPARE(withCode(diags, "hudi-conf.after-path").size(), std::size_t(2000));
        std::size_t fixes = 0;
        for (const auto& d : diags)
            fixes += d.fixes.size();
        QCOMPARE(fixes, std::size_t(10));

        // The quick-fix menu of one parameter gets every fix of that parameter, and none elsewhere.
        c.fixesForToken = 3002;
        const auto menu = validateParameters(p, c);
        for (const auto& d : menu) {
            if (d.tokenIndex == 3002)
                QCOMPARE(d.fixes.at(0).parameters.list().front(), std::string("--hudi-conf"));
            else
                QVERIFY(d.fixes.empty());
        }
    }

    void fiveThousandParameters() {
        Params p;
        for (int i = 0; i < 1200; ++i) {
            p.push_back("--conf");
            p.push_back("spark.k" + std::to_string(i) + "=" + std::to_string(i));
            p.push_back("--hudi-conf");
            p.push_back("hoodie.datasource.k" + std::to_string(i) + "=v");
        }
        p.push_back("--class");
        p.push_back("com.x.App");
        p.push_back("app.jar");
        while (p.size() < 5000)
            p.push_back("--arg" + std::to_string(p.size()));
        auto c = context(true, {"hoodie.datasource."});
        c.withAdvice = false;
        // Speed is bench_coreops' business; here, a long list is read right.
        const auto diags = validateParameters(p, c);
        QCOMPARE(errorCount(diags), 0);
    }

    // The editor hands over the classification it coloured with; the answer must be the one a fresh
    // validation gives, for any list.
    void reusedClassificationGivesTheSameAnswer() {
        const Params vocabulary{"--class",
                                "com.x.App",
                                "--conf",
                                "spark.executor.memory=4g",
                                "--hudi-conf",
                                "hoodie.table.name=t",
                                "hoodie.datasource.write.operation=upsert",
                                "hoodie.metadata.enable=true",
                                "--conf",
                                "hoodie.x=1",
                                "--hoodie-conf",
                                "app.jar",
                                "s3://b/app.py",
                                "--name",
                                "n",
                                "--master",
                                "-c",
                                "k=v",
                                "=",
                                "",
                                "--date",
                                "2024-08-19",
                                "hoodie.a=1,hoodie.b=2",
                                "--verbose"};
        std::mt19937 random(20261130);
        for (int round = 0; round < 400; ++round) {
            Params p;
            const auto length = random() % 24;
            for (unsigned i = 0; i < length; ++i)
                p.push_back(vocabulary[random() % vocabulary.size()]);
            for (const auto& c : {context(true, {"hoodie.datasource."}), context(false)}) {
                const ClassifiedParameters classified = classifyParameters(p);
                QVERIFY(validateParameters(p, classified, c) == validateParameters(p, c));
            }
        }
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestParameterValidator)
#include "tst_parametervalidator.moc"
