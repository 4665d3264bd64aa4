#include "core/hudi/HudiConfigPolicy.h"
#include "tests/runner/SuiteRegistry.h"

#include <QtTest>

using namespace jobdeck;

namespace {

HudiConfigSettings settings(bool enabled, std::vector<std::string> allowlist) {
    HudiConfigSettings s;
    s.hudiConfigsEnabled = enabled;
    s.hudiConfigAllowlist = std::move(allowlist);
    return s;
}

} // namespace

class TestHudiConfigPolicy : public QObject {
    Q_OBJECT

private slots:
    void reserved_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("reserved");
        QTest::newRow("concurrency mode") << "hoodie.write.concurrency.mode" << true;
        QTest::newRow("lock provider") << "hoodie.write.lock.provider" << true;
        QTest::newRow("lock nested") << "hoodie.write.lock.zookeeper.url" << true;
        QTest::newRow("failed writes old") << "hoodie.cleaner.policy.failed.writes" << true;
        QTest::newRow("failed writes new") << "hoodie.clean.failed.writes.policy" << true;
        QTest::newRow("metrics") << "hoodie.metrics.on" << true;
        QTest::newRow("freeze") << "hoodie.write.config.freeze" << true;
        QTest::newRow("write operation") << "hoodie.datasource.write.operation" << false;
        QTest::newRow("cleaner policy") << "hoodie.cleaner.policy" << false;
        QTest::newRow("freeze prefix") << "hoodie.write.config.freeze.x" << false;
        QTest::newRow("metrics lookalike") << "hoodie.metricsX" << false;
        QTest::newRow("write concurrency bare") << "hoodie.write.concurrency" << false;
    }

    void reserved() {
        QFETCH(QString, key);
        QFETCH(bool, reserved);
        QCOMPARE(HudiConfigPolicy::isReserved(key.toStdString()), reserved);
    }

    void coverage() {
        const std::vector<std::string> list{"hoodie.datasource.meta.sync.",
                                            "hoodie.datasource.write.operation", "hoodie.write."};
        QVERIFY(HudiConfigPolicy::allowlistCovers(list, "hoodie.datasource.meta.sync.glue.catalogId"));
        QVERIFY(HudiConfigPolicy::allowlistCovers(list, "hoodie.datasource.write.operation"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list, "hoodie.datasource.write.operation.type"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list,
                                                   "hoodie.datasource.meta.sync")); // the family's own prefix
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list, "hoodie.datasource.write.table.type"));
        // A wider family covers its keys but never a reserved one.
        QVERIFY(HudiConfigPolicy::allowlistCovers(list, "hoodie.write.markers.type"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list, "hoodie.write.lock.provider"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list, "hoodie.write.concurrency.mode"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers(list, "hoodie.write.config.freeze"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers({}, "hoodie.a"));
        QVERIFY(!HudiConfigPolicy::allowlistCovers({"hoodie."}, "spark.a"));
        QVERIFY(HudiConfigPolicy::allowlistCovers({"hoodie."}, "hoodie.a"));
    }

    void allowlistEntries_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("errorPart"); // empty: accepted
        QTest::newRow("family") << "hoodie.datasource.meta.sync."
                                << "";
        QTest::newRow("exact") << "hoodie.datasource.write.operation"
                               << "";
        QTest::newRow("wider family") << "hoodie.write."
                                      << "";
        QTest::newRow("everything") << "hoodie."
                                    << "";
        QTest::newRow("reserved exact") << "hoodie.write.config.freeze"
                                        << "reserved Hudi config";
        QTest::newRow("reserved in family") << "hoodie.write.lock.provider"
                                            << "reserved Hudi config";
        QTest::newRow("reserved family") << "hoodie.metrics."
                                         << "inside the reserved family 'hoodie.metrics.*'";
        QTest::newRow("inside reserved family") << "hoodie.write.lock.foo."
                                                << "inside the reserved family 'hoodie.write.lock.*'";
        QTest::newRow("concurrency family") << "hoodie.write.concurrency."
                                            << "reserved family";
        QTest::newRow("failed writes") << "hoodie.clean.failed.writes.policy"
                                       << "reserved Hudi config";
        QTest::newRow("spark") << "spark.executor.cores"
                               << "not a Hudi config";
        QTest::newRow("empty") << ""
                               << "is empty";
        QTest::newRow("space") << "hoodie.a b"
                               << "malformed";
        QTest::newRow("double dot") << "hoodie..a"
                                    << "empty name segment";
        QTest::newRow("wildcard") << "hoodie.write.*"
                                  << "malformed";
    }

    void allowlistEntries() {
        QFETCH(QString, entry);
        QFETCH(QString, errorPart);
        const auto error = HudiConfigPolicy::checkAllowlistEntry(entry.toStdString());
        if (errorPart.isEmpty()) {
            QVERIFY2(!error, error ? error->c_str() : "");
        } else {
            QVERIFY(error);
            QVERIFY2(QString::fromStdString(*error).contains(errorPart), error->c_str());
            QVERIFY(QString::fromStdString(*error).contains(entry));
        }
    }

    void statuses() {
        const auto on = settings(true, {"hoodie.datasource.", "hoodie.metadata.enable", "hoodie.write."});
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.datasource.write.operation", on),
                 HudiConfigStatus::Applied);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.table.type", on), HudiConfigStatus::NotAllowed);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.write.lock.provider", on), HudiConfigStatus::Reserved);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.metadata.enable", on),
                 HudiConfigStatus::OverriddenByPlatform);
        const auto off = settings(false, on.hudiConfigAllowlist);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.datasource.write.operation", off),
                 HudiConfigStatus::NotAllowed);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.metadata.enable", off), HudiConfigStatus::NotAllowed);
        QCOMPARE(HudiConfigPolicy::statusOf("hoodie.metrics.on", off), HudiConfigStatus::Reserved);
    }

    void platformManagedTableIsSane() {
        QVERIFY(!HudiConfigPolicy::platformManagedHudiConfigs().empty());
        for (const auto& [key, value] : HudiConfigPolicy::platformManagedHudiConfigs()) {
            QVERIFY2(HudiConfigPolicy::isHudiKey(key), key.c_str());
            QVERIFY2(!HudiConfigPolicy::isReserved(key), key.c_str()); // reserved keys are a separate rule
            QVERIFY(!value.empty());
            QCOMPARE(*HudiConfigPolicy::platformManagedValue(key), value);
        }
        QVERIFY(!HudiConfigPolicy::platformManagedValue("hoodie.table.type"));
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestHudiConfigPolicy)
#include "tst_hudiconfigpolicy.moc"
