// explainHudiConfig: one explanation per status and reason, naming the family, entry or value, and the
// ALTER PROJECT statements that would apply the key (which the statement parser reads back).
#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigPolicy.h"
#include "core/statements/StatementParser.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;
using Reason = HudiConfigExplanation::Reason;

namespace {

HudiConfigSettings settings(bool enabled, std::vector<std::string> allowlist) {
    HudiConfigSettings s;
    s.hudiConfigsEnabled = enabled;
    s.hudiConfigAllowlist = std::move(allowlist);
    return s;
}

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestHudiConfigExplanation : public QObject {
    Q_OBJECT

private slots:
    void appliedNamesTheEntryThatAllowsIt() {
        const auto s = settings(true, {"hoodie.", "hoodie.x", "hoodie.datasource.meta.sync."});
        const auto family = explainHudiConfig("hoodie.datasource.meta.sync.glue.catalogId", s);
        QCOMPARE(family.status, HudiConfigStatus::Applied);
        QCOMPARE(family.reason, Reason::Applied);
        QCOMPARE(family.entry, std::string("hoodie.datasource.meta.sync."));
        QCOMPARE(family.text(), std::string("Applied: allowed by the project's allow-list entry "
                                            "'hoodie.datasource.meta.sync.' (a family)."));
        QVERIFY(family.remedy.empty() && family.alterProject.empty());
        const auto exact = explainHudiConfig("hoodie.x", s);
        QCOMPARE(exact.entry, std::string("hoodie.x")); // the narrowest entry, not the first that covers it
        QVERIFY(contains(exact.text(), "(the exact key)"));
    }

    void featureOffSaysSoAndGivesBothStatementsWhenTheKeyIsNotListed() {
        const auto unlisted = explainHudiConfig("hoodie.a", settings(false, {}));
        QCOMPARE(unlisted.status, HudiConfigStatus::NotAllowed);
        QCOMPARE(unlisted.reason, Reason::FeatureOff);
        QCOMPARE(unlisted.because, std::string("--hudi-conf is not enabled for this project"));
        QCOMPARE(unlisted.alterProject,
                 (std::vector<std::string>{"ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                                           "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.a')"}));
        QVERIFY(contains(unlisted.detail, "not on its allow-list either"));
        QVERIFY(contains(unlisted.remedy, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED; ALTER PROJECT ADD"));

        const auto listed = explainHudiConfig("hoodie.a", settings(false, {"hoodie.a"}));
        QCOMPARE(listed.reason, Reason::FeatureOff);
        QCOMPARE(listed.alterProject, (std::vector<std::string>{"ALTER PROJECT SET HUDI_CONFIGS = ENABLED"}));
        QVERIFY(contains(listed.detail, "although 'hoodie.a' is on its allow-list"));
    }

    void notOnTheAllowlistGivesTheAddStatement() {
        const auto e = explainHudiConfig("hoodie.datasource.write.operation", settings(true, {"hoodie.b."}));
        QCOMPARE(e.status, HudiConfigStatus::NotAllowed);
        QCOMPARE(e.reason, Reason::NotOnAllowlist);
        QCOMPARE(e.because, std::string("it is outside the project's allow-list"));
        QCOMPARE(e.alterProject,
                 (std::vector<std::string>{
                     "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('hoodie.datasource.write.operation')"}));
        // Every statement offered is one the parser reads, so an admin can paste it.
        for (const std::string& statement : e.alterProject)
            QVERIFY(std::holds_alternative<AlterProjectStatement>(*parseStatement(statement).statement));
    }

    void reservedNamesTheFamilyAndNeverOffersAStatement() {
        // Even a listed family and an enabled feature never apply a reserved key.
        const auto s = settings(true, {"hoodie.write."});
        const auto lock = explainHudiConfig("hoodie.write.lock.provider", s);
        QCOMPARE(lock.status, HudiConfigStatus::Reserved);
        QCOMPARE(lock.reason, Reason::Reserved);
        QCOMPARE(lock.entry, std::string("hoodie.write.lock."));
        QCOMPARE(lock.because, std::string("it is reserved for the platform"));
        QVERIFY(contains(lock.detail, "the reserved family 'hoodie.write.lock.*'"));
        QVERIFY(contains(lock.detail, "concurrency control"));
        QVERIFY(lock.alterProject.empty());
        QVERIFY(contains(lock.remedy, "never granted"));

        const auto metrics = explainHudiConfig("hoodie.metrics.on", s);
        QVERIFY(contains(metrics.detail, "metrics collection"));
        const auto freeze = explainHudiConfig("hoodie.write.config.freeze", s);
        QCOMPARE(freeze.entry, std::string("hoodie.write.config.freeze"));
        QVERIFY(contains(freeze.detail, "is a reserved key"));
        QVERIFY(contains(freeze.detail, "protected in the first place"));
    }

    void setByThePlatformNamesTheValueThatWins() {
        const auto e = explainHudiConfig("hoodie.metadata.enable", settings(true, {"hoodie.metadata."}));
        QCOMPARE(e.status, HudiConfigStatus::OverriddenByPlatform);
        QCOMPARE(e.reason, Reason::SetByPlatform);
        QCOMPARE(e.entry, *HudiConfigPolicy::platformManagedValue("hoodie.metadata.enable"));
        QVERIFY(contains(e.detail, "to 'true' on every run, and the platform's value wins"));
        QVERIFY(e.alterProject.empty());
    }

    void statusAgreesWithThePolicyForEveryCase_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("enabled");
        for (const char* key : {"hoodie.a", "hoodie.b.c", "hoodie.write.lock.x", "hoodie.metadata.enable",
                                "hoodie.clean.failed.writes.policy"})
            for (const bool enabled : {false, true})
                QTest::addRow("%s %s", key, enabled ? "on" : "off") << QString::fromLatin1(key) << enabled;
    }

    void statusAgreesWithThePolicyForEveryCase() {
        QFETCH(QString, key);
        QFETCH(bool, enabled);
        const auto s = settings(enabled, {"hoodie.a", "hoodie.b.", "hoodie.metadata."});
        const auto e = explainHudiConfig(key.toStdString(), s);
        QCOMPARE(e.status, HudiConfigPolicy::statusOf(key.toStdString(), s));
        QCOMPARE(e.because, std::string(hudiConfigStatusClause(e.status, s)));
        QVERIFY(!e.detail.empty());
        QCOMPARE(e.remedy.empty(), e.status == HudiConfigStatus::Applied);
    }

    void misplacedPairHasOneSentence() {
        QCOMPARE(misplacedHudiConfigMessage("hoodie.x"),
                 std::string("--hudi-conf hoodie.x comes after the application path, so it is passed to the "
                             "application as an argument and is not a Job configuration. Move it before the "
                             "path if it is meant for the Job."));
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestHudiConfigExplanation)
#include "tst_hudiconfigexplanation.moc"
