// effectOnJobs and alterProjectStatements: what a change of the project's settings does to the jobs it has,
// and the statements that make it, one allow-list entry per statement.
#include "core/hudi/HudiConfigPolicy.h"
#include "core/policy/ConcurrentRuns.h"
#include "core/policy/ProjectSettingsChange.h"
#include "core/statements/StatementParser.h"
#include "core/statements/StatementPrinter.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

SparkJob job(std::string name, std::map<std::string, std::string> hudi, int maxRuns = 1) {
    SparkJob j;
    j.name = std::move(name);
    j.hudiConfigs = std::move(hudi);
    j.maxConcurrentRuns = maxRuns;
    return j;
}

ProjectSettings settings(bool hudi, std::vector<std::string> allowlist, bool concurrent = false,
                         int limit = 1) {
    ProjectSettings s;
    s.hudiConfigsEnabled = hudi;
    s.hudiConfigAllowlist = std::move(allowlist);
    s.concurrentRunsEnabled = concurrent;
    s.maxConcurrentRunsLimit = limit;
    return s;
}

std::vector<std::string> printed(const std::vector<AlterProjectStatement>& statements) {
    std::vector<std::string> out;
    for (const auto& s : statements)
        out.push_back(printStatement(Statement{s}));
    return out;
}

} // namespace

class TestProjectSettingsChange : public QObject {
    Q_OBJECT

private slots:
    void removingAnEntryTurnsItsConfigsNotAllowed() {
        const std::vector<SparkJob> jobs{job("b", {{"hoodie.datasource.write.operation", "upsert"}}),
                                         job("a", {{"hoodie.datasource.meta.sync.glue.catalogId", "1"},
                                                   {"hoodie.x", "1"},
                                                   {"hoodie.write.lock.provider", "p"}})};
        const auto before = settings(true, {"hoodie.datasource.", "hoodie.x"});
        const auto after = settings(true, {"hoodie.x"});
        const ProjectSettingsEffect effect = effectOnJobs(jobs, before, after);
        QCOMPARE(effect.hudiConfigs, (std::vector<HudiConfigStatusChange>{
                                         {"a", "hoodie.datasource.meta.sync.glue.catalogId",
                                          HudiConfigStatus::Applied, HudiConfigStatus::NotAllowed},
                                         {"b", "hoodie.datasource.write.operation", HudiConfigStatus::Applied,
                                          HudiConfigStatus::NotAllowed}}));
        QVERIFY(effect.concurrentRuns.empty());
        // And back: the same configs turn APPLIED.
        const auto back = effectOnJobs(jobs, after, before);
        QCOMPARE(back.hudiConfigs.size(), std::size_t(2));
        QCOMPARE(back.hudiConfigs[0].after, HudiConfigStatus::Applied);
    }

    void theFeatureSwitchChangesEveryListedConfig() {
        const std::vector<SparkJob> jobs{job("a", {{"hoodie.x", "1"}, {"hoodie.metrics.on", "true"}})};
        const auto effect = effectOnJobs(jobs, settings(true, {"hoodie.x"}), settings(false, {"hoodie.x"}));
        QCOMPARE(effect.hudiConfigs.size(), std::size_t(1)); // the reserved key stays RESERVED
        QCOMPARE(effect.hudiConfigs[0].key, std::string("hoodie.x"));
        QVERIFY(effectOnJobs(jobs, settings(true, {"hoodie.x"}), settings(true, {"hoodie.x"})).empty());
    }

    void aLoweredLimitNamesTheJobsAboveIt() {
        const std::vector<SparkJob> jobs{job("one", {}, 1), job("three", {}, 3), job("five", {}, 5)};
        const auto before = settings(false, {}, true, 5);
        auto effect = effectOnJobs(jobs, before, settings(false, {}, true, 2));
        QCOMPARE(effect.concurrentRuns.size(), std::size_t(2));
        QCOMPARE(effect.concurrentRuns[0].job, std::string("five"));
        QCOMPARE(effect.concurrentRuns[0].projectAllows, 2);
        QCOMPARE(effect.concurrentRuns[1].message,
                 std::string("Job three has MAX_CONCURRENT_RUNS 3, above the project's new limit of 2: the "
                             "project admits at most that many runs of it at a time. The job keeps its "
                             "setting."));
        // Switching concurrent runs off is a limit of 1.
        effect = effectOnJobs(jobs, before, settings(false, {}, false, 5));
        QCOMPARE(effect.concurrentRuns.size(), std::size_t(2));
        QCOMPARE(effect.concurrentRuns[0].projectAllows, 1);
        QVERIFY(effect.concurrentRuns[0].message.find("concurrent runs will be disabled") !=
                std::string::npos);
        // Raising it affects nobody.
        QVERIFY(effectOnJobs(jobs, before, settings(false, {}, true, 9)).empty());
    }

    void statementsOnePerEntryAndParsedBack() {
        const auto before = settings(false, {"hoodie.a", "hoodie.b."}, false, 1);
        const auto after = settings(true, {"hoodie.b.", "hoodie.c", "hoodie.d."}, true, 4);
        const auto statements = alterProjectStatements(before, after);
        QCOMPARE(printed(statements),
                 (std::vector<std::string>{
                     "ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                     "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 4",
                     "ALTER PROJECT REMOVE HUDI_CONFIG_ALLOWLIST ('hoodie.a')",
                     "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.c')",
                     "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.d.')"}));
        for (const std::string& text : printed(statements)) {
            const auto parsed = parseStatement(text);
            QVERIFY2(parsed.statement, text.c_str());
        }
        QVERIFY(alterProjectStatements(after, after).empty());
        // Only the switch: the limit is not repeated.
        QCOMPARE(printed(alterProjectStatements(after, settings(true, after.hudiConfigAllowlist, false, 4))),
                 (std::vector<std::string>{"ALTER PROJECT SET CONCURRENT_RUNS = DISABLED"}));
    }

    void completionOffersKeysAndFamiliesButNothingReserved() {
        const auto candidates = allowlistEntryCandidates();
        const auto has = [&](std::string_view e) {
            return std::find(candidates.begin(), candidates.end(), e) != candidates.end();
        };
        QVERIFY(has("hoodie.datasource.write.operation"));
        QVERIFY(has("hoodie.datasource.meta.sync.")); // the seed's family
        QVERIFY(has("hoodie.datasource."));
        QVERIFY(!has("hoodie.")); // one segment only: too wide to suggest
        QVERIFY(!has("hoodie.write.lock.provider"));
        QVERIFY(!has("hoodie.metrics."));
        QVERIFY(std::is_sorted(candidates.begin(), candidates.end()));
    }

    void allowlistEntryNotes_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("note"); // empty: none
        QTest::newRow("a current key") << "hoodie.datasource.write.operation"
                                       << "";
        QTest::newRow("a family with keys") << "hoodie.datasource.meta.sync."
                                            << "";
        QTest::newRow("the widest family") << "hoodie."
                                           << "";
        QTest::newRow("a typo") << "hoodie.metadata.enabled"
                                << "Hudi has no config 'hoodie.metadata.enabled'; did you mean "
                                   "'hoodie.metadata.enable'? Hudi silently ignores keys it does not know.";
        QTest::newRow("nothing close")
            << "hoodie.xyzzy.foo"
            << "'hoodie.xyzzy.foo' is not a config of the Hudi version this platform "
               "runs; Hudi ignores keys it does not read.";
        QTest::newRow("an old name")
            << "hoodie.cleaner.commits.retained"
            << "'hoodie.cleaner.commits.retained' is the old name of 'hoodie.clean.commits.retained': Hudi "
               "still reads it, but this entry does not cover the current name, which Jobs should set.";
        QTest::newRow("set by the platform") << "hoodie.metadata.enable"
                                             << "The platform sets 'hoodie.metadata.enable' to 'true' on "
                                                "every run: a Job's value is stored but "
                                                "never applied (OVERRIDDEN_BY_PLATFORM).";
        QTest::newRow("a family of old names only")
            << "hoodie.cleaner."
            << "Only old names of Hudi configs are under 'hoodie.cleaner.' (such as "
               "'hoodie.cleaner.commits.retained', now 'hoodie.clean.commits.retained'): Hudi still reads "
               "them, "
               "but the family covers none of the current names.";
        QTest::newRow("an empty family")
            << "hoodie.clenaer."
            << "No config of the Hudi version this platform runs is under "
               "'hoodie.clenaer.': the family grants nothing a Spark job's Hudi reads.";
    }

    // What the console shows beside an entry the service accepts and stores as given.
    void allowlistEntryNotes() {
        QFETCH(QString, entry);
        QFETCH(QString, note);
        QVERIFY(!HudiConfigPolicy::checkAllowlistEntry(entry.toStdString())); // accepted
        QCOMPARE(QString::fromStdString(
                     allowlistEntryNote(entry.toStdString()).value_or(AllowlistEntryNote{}).text),
                 note);
    }

    void allowlistEntryReplacements() {
        const auto replacement = [](std::string_view entry) {
            return allowlistEntryNote(entry).value_or(AllowlistEntryNote{}).replacement;
        };
        QCOMPARE(replacement("hoodie.metadata.enabled").value_or(""), std::string("hoodie.metadata.enable"));
        QCOMPARE(replacement("hoodie.cleaner.commits.retained").value_or(""),
                 std::string("hoodie.clean.commits.retained"));
        for (const char* none :
             {"hoodie.metadata.enable", "hoodie.xyzzy.foo", "hoodie.clenaer.", "hoodie.cleaner."})
            QVERIFY2(!replacement(none), none);
    }

    void limitBounds() {
        QVERIFY(!maxConcurrentRunsLimitProblem(1));
        QVERIFY(!maxConcurrentRunsLimitProblem(kMaxConcurrentRunsCeiling));
        QCOMPARE(maxConcurrentRunsLimitProblem(0).value_or(""),
                 std::string("MAX_CONCURRENT_RUNS_LIMIT must be between 1 and 1000, got 0"));
        QVERIFY(maxConcurrentRunsLimitProblem(1001));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestProjectSettingsChange)
#include "tst_projectsettingschange.moc"
