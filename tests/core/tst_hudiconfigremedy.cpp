// The ALTER PROJECT statements a configuration's explanation offers an admin,
// read back from the text DESCRIBE JOB carries (the console's "Copy
// statement").
#include "core/hudi/HudiConfigExplanation.h"
#include "core/hudi/HudiConfigRemedy.h"
#include "core/policy/ProjectSettings.h"
#include "tests/runner/SuiteRegistry.h"

#include <QTest>

using namespace jobdeck;

namespace {

ProjectSettings settings(bool enabled, std::vector<std::string> allowlist) {
    ProjectSettings s;
    s.hudiConfigsEnabled = enabled;
    s.hudiConfigAllowlist = std::move(allowlist);
    return s;
}

using Statements = std::vector<std::string>;

} // namespace

class TestHudiConfigRemedy final : public QObject {
    Q_OBJECT
private slots:
    // Every explanation's statements come back as explainHudiConfig made them,
    // and only those.
    void statementsComeBackFromTheText() {
        const std::string key = "hoodie.cleaner.commits.retained";
        for (const ProjectSettings& s : {settings(true, {}), settings(false, {}), settings(false, {key}),
                                         settings(true, {key}), settings(true, {"hoodie.cleaner."})}) {
            const HudiConfigExplanation e = explainHudiConfig(key, s);
            QCOMPARE(alterProjectRemedyIn(e.text()), e.alterProject);
        }
        QCOMPARE(alterProjectRemedyIn(explainHudiConfig(key, settings(false, {})).text()),
                 (Statements{"ALTER PROJECT SET HUDI_CONFIGS = ENABLED",
                             "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ('" + key + "')"}));
        // Reserved and set by the platform: nothing an admin can run.
        QVERIFY(alterProjectRemedyIn(
                    explainHudiConfig("hoodie.write.lock.provider", settings(true, {"hoodie."})).text())
                    .empty());
    }

    // A quote or "; " inside a key stays inside its statement.
    void quotedKeysStayWhole() {
        const std::string key = "hoodie.odd; key's";
        const HudiConfigExplanation e = explainHudiConfig(key, settings(false, {}));
        QCOMPARE(e.alterProject.size(), std::size_t(2));
        QCOMPARE(alterProjectRemedyIn(e.text()), e.alterProject);
    }

    // Text that is not an explanation's, or whose statements are not ALTER
    // PROJECT, offers nothing.
    void otherTextOffersNothing() {
        QVERIFY(alterProjectRemedyIn("").empty());
        QVERIFY(alterProjectRemedyIn("runs of this Job get it").empty());
        QVERIFY(alterProjectRemedyIn("An admin can apply it with: .").empty());
        QVERIFY(alterProjectRemedyIn("An admin can apply it with: DELETE JOB nightly_cleanup.").empty());
        QVERIFY(alterProjectRemedyIn("An admin can apply it with: ALTER PROJECT "
                                     "SET HUDI_CONFIGS = ENABLED; "
                                     "DELETE JOB x.")
                    .empty());
        QVERIFY(alterProjectRemedyIn("An admin can apply it with: ALTER PROJECT "
                                     "SET HUDI_CONFIGS = ENABLED")
                    .empty()); // no full stop: not the explanation's sentence
    }
};

JOBDECK_TEST_APPLESS_MAIN(TestHudiConfigRemedy)
#include "tst_hudiconfigremedy.moc"
