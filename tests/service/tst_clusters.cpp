// CREATE / ALTER / DESCRIBE / SHOW / DELETE CLUSTER through the real jobdeckd.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/ServiceDatabase.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QtTest>

using namespace jobdeck;
using namespace jobdeck::teststatus;
using json = nlohmann::json;

class TestClusters final : public QObject {
    Q_OBJECT

    TestService m_service;
    ApiCredentials m_operator;
    ApiCredentials m_viewer;

    json run(const QString& statement, const ApiCredentials* who = nullptr) {
        return runStatement(m_service, who ? *who : m_operator, statement);
    }

private slots:
    void initTestCase() {
        QVERIFY2(m_service.start(), qPrintable(m_service.lastError()));
        m_operator = m_service.createKey("clusters", "operator");
        m_viewer = m_service.createKey("clusters", "viewer");
        QVERIFY(m_operator.isValid() && m_viewer.isValid());
    }

    void createsAndDescribesACluster() {
        const auto created =
            run("CREATE CLUSTER c1 TYPE = 'Spark' MAX_OCU = 4 MIN_OCU = 1 "
                "WITH 'spark.executor.memory' = '4g', 'hoodie.datasource.write.operation' = 'upsert', "
                "'spark.hadoop.fs.s3a.secret.key' = 'topsecret'");
        QCOMPARE(statusOf(created), kSuccess);
        const auto ref = created["apiResponse"]["createClusterApiResponse"];
        QCOMPARE(ref["name"].get<std::string>(), std::string("c1"));
        QVERIFY(!ref["clusterId"].get<std::string>().empty());

        const auto described = run("DESCRIBE CLUSTER c1", &m_viewer);
        QCOMPARE(statusOf(described), kSuccess);
        const auto cluster = described["apiResponse"]["describeClusterApiResponse"]["cluster"];
        QCOMPARE(cluster["clusterId"], ref["clusterId"]);
        QCOMPARE(cluster["type"].get<std::string>(), std::string("Spark"));
        QCOMPARE(cluster["maxOcu"].get<int>(), 4);
        QCOMPARE(cluster["minOcu"].get<int>(), 1);
        QCOMPARE(cluster["sparkConfigs"]["spark.executor.memory"].get<std::string>(), std::string("4g"));
        QCOMPARE(cluster["hudiConfigs"]["hoodie.datasource.write.operation"].get<std::string>(),
                 std::string("upsert"));
        // Secret values are masked in every field.
        QCOMPARE(cluster["sparkConfigs"]["spark.hadoop.fs.s3a.secret.key"].get<std::string>(),
                 std::string("****"));
        QVERIFY2(described.dump().find("topsecret") == std::string::npos, described.dump().c_str());
    }

    void typeIsCaseInsensitiveAndOnlySpark() {
        QCOMPARE(statusOf(run("CREATE CLUSTER c2 TYPE = 'spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
        const auto flink = run("CREATE CLUSTER c3 TYPE = 'Flink' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(statusOf(flink), kInvalid);
        QCOMPARE(errorOf(flink), std::string("Cluster TYPE 'Flink' is not supported; use TYPE = 'Spark'"));
    }

    void refusesBadCapacities() {
        auto r = run("CREATE CLUSTER bad TYPE = 'Spark' MAX_OCU = 0 MIN_OCU = 0");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MAX_OCU must be between 1 and 10000, got 0"));
        r = run("CREATE CLUSTER bad TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 3");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MIN_OCU (3) must not be greater than MAX_OCU (2)"));
        r = run("CREATE CLUSTER bad TYPE = 'Spark' MAX_OCU = 99999999999999 MIN_OCU = 0");
        QCOMPARE(statusOf(r), kInvalid);
        QCOMPARE(errorOf(r), std::string("MAX_OCU must be between 1 and 10000, got 99999999999999"));
        QCOMPARE(statusOf(run("DESCRIBE CLUSTER bad")), kFailed);
    }

    void refusesConfigsThatAreNeitherSparkNorHudiAndReservedOnes() {
        auto r =
            run("CREATE CLUSTER bad TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0 WITH 'fs.s3a.endpoint' = 'x'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("Cluster configuration 'fs.s3a.endpoint' is neither a Spark configuration "
                             "(spark.*) nor a Hudi configuration (hoodie.*)"));
        for (const char* key :
             {"hoodie.write.lock.provider", "hoodie.metrics.on", "hoodie.write.config.freeze",
              "hoodie.cleaner.policy.failed.writes", "hoodie.write.concurrency.mode"}) {
            r = run(QString("CREATE CLUSTER bad TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0 WITH '%1' = 'x'")
                        .arg(key));
            QCOMPARE(statusOf(r), kFailed);
            QCOMPARE(errorOf(r),
                     "Cluster configuration '" + std::string(key) +
                         "' is reserved for the platform and cannot be set (Onehouse manages it)");
        }
        QCOMPARE(statusOf(run("DESCRIBE CLUSTER bad")), kFailed);
    }

    void refusesDuplicateNames() {
        QCOMPARE(statusOf(run("CREATE CLUSTER dup TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
        const auto r = run("CREATE CLUSTER dup TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Cluster dup already exists"));
    }

    void altersCapacityAndMergesWith() {
        QCOMPARE(statusOf(run("CREATE CLUSTER alt TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 "
                              "WITH 'spark.a' = '1', 'spark.b' = '2'")),
                 kSuccess);
        QCOMPARE(statusOf(run("ALTER CLUSTER alt SET MAX_OCU = 8")), kSuccess);
        QCOMPARE(statusOf(run("ALTER CLUSTER alt WITH 'spark.b' = '20', 'hoodie.x.y' = 'z'")), kSuccess);
        const auto cluster =
            run("DESCRIBE CLUSTER alt")["apiResponse"]["describeClusterApiResponse"]["cluster"];
        QCOMPARE(cluster["maxOcu"].get<int>(), 8);
        QCOMPARE(cluster["minOcu"].get<int>(), 1);
        QCOMPARE(cluster["sparkConfigs"], json({{"spark.a", "1"}, {"spark.b", "20"}}));
        QCOMPARE(cluster["hudiConfigs"], json({{"hoodie.x.y", "z"}}));
        QCOMPARE(cluster["with"].size(), std::size_t(3));

        auto r = run("ALTER CLUSTER alt SET MIN_OCU = 9");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("MIN_OCU (9) must not be greater than MAX_OCU (8)"));
        r = run("ALTER CLUSTER nosuch SET MAX_OCU = 2");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Cluster nosuch does not exist"));
        r = run("ALTER CLUSTER alt WITH 'hoodie.metrics.on' = 'true'");
        QCOMPARE(statusOf(r), kFailed);
        // Nothing of a refused ALTER is applied.
        const auto after =
            run("DESCRIBE CLUSTER alt")["apiResponse"]["describeClusterApiResponse"]["cluster"];
        QCOMPARE(after["hudiConfigs"], json({{"hoodie.x.y", "z"}}));
    }

    // CONTRACT §2: **** sent back for a secret in ALTER keeps the stored value, also for a secret inside a
    // value (a URL's password); a **** no stored value stands for is refused, nothing applied.
    void maskedSecretsSentBackKeepTheirValues() {
        QCOMPARE(statusOf(run("CREATE CLUSTER keep TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH "
                              "'spark.hadoop.fs.s3a.secret.key' = 'S3-Secret1', "
                              "'spark.jars.repositories' = 'https://ci:Repo-Secret1@repo.example/m2'")),
                 kSuccess);
        const auto described =
            run("DESCRIBE CLUSTER keep")["apiResponse"]["describeClusterApiResponse"]["cluster"];
        QCOMPARE(described["with"],
                 json::array(
                     {{{"key", "spark.hadoop.fs.s3a.secret.key"}, {"value", "****"}},
                      {{"key", "spark.jars.repositories"}, {"value", "https://ci:****@repo.example/m2"}}}));
        // The pairs as DESCRIBE shows them, one of them edited around its masked password.
        QCOMPARE(statusOf(run("ALTER CLUSTER keep WITH 'spark.hadoop.fs.s3a.secret.key' = '****', "
                              "'spark.jars.repositories' = 'https://ci:****@repo.example/maven2'")),
                 kSuccess);
        ServiceDatabase database(m_service);
        QVERIFY2(database.isOpen(), qPrintable(database.lastError()));
        const QString stored = database.value("SELECT with_pairs FROM clusters WHERE name = 'keep'");
        QCOMPARE(json::parse(stored.toStdString()),
                 json::array({json::array({"spark.hadoop.fs.s3a.secret.key", "S3-Secret1"}),
                              json::array({"spark.jars.repositories",
                                           "https://ci:Repo-Secret1@repo.example/maven2"})}));

        auto r = run("ALTER CLUSTER keep WITH 'spark.db.password' = '****', 'spark.a' = '1'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("The value of 'spark.db.password' is masked (****) but the cluster has "
                             "no stored value for it; send the real value."));
        r = run("CREATE CLUSTER copied TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1 WITH "
                "'spark.jars.repositories' = 'https://ci:****@repo.example/m2'");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r),
                 std::string("The value of 'https://ci@repo.example' is masked (****) but the cluster "
                             "has no stored value for it; send the real value."));
        QCOMPARE(statusOf(run("DESCRIBE CLUSTER copied")), kFailed);
        QCOMPARE(database.value("SELECT with_pairs FROM clusters WHERE name = 'keep'"), stored);
    }

    void showsAllClustersSortedByName() {
        const auto r = run("SHOW CLUSTERS", &m_viewer);
        QCOMPARE(statusOf(r), kSuccess);
        const auto clusters = r["apiResponse"]["showClustersApiResponse"]["clusters"];
        QVERIFY(clusters.is_array());
        std::vector<std::string> names;
        for (const auto& c : clusters)
            names.push_back(c["name"].get<std::string>());
        QVERIFY(std::is_sorted(names.begin(), names.end()));
        QVERIFY(std::find(names.begin(), names.end(), "c1") != names.end());
        QVERIFY2(r.dump().find("topsecret") == std::string::npos, "secret value in SHOW CLUSTERS");
    }

    void deleteIsRefusedWhileJobsUseTheCluster() {
        QCOMPARE(statusOf(run("CREATE CLUSTER busy TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0")), kSuccess);
        for (const char* job : {"j_b", "j_a"})
            QCOMPARE(
                statusOf(run(QString("CREATE JOB %1 TYPE = 'JAR' PARAMETERS = ('--class', 'X', 'app.jar') "
                                     "CLUSTER = 'busy'")
                                 .arg(job))),
                kSuccess);
        auto r = run("DELETE CLUSTER busy");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(
            errorOf(r),
            std::string(
                "Cluster busy is used by Jobs j_a, j_b; delete them or move them to another cluster first"));
        QCOMPARE(statusOf(run("DELETE JOB j_a")), kSuccess);
        r = run("DELETE CLUSTER busy");
        QCOMPARE(errorOf(r),
                 std::string("Cluster busy is used by Job j_b; delete them or move them to another "
                             "cluster first"));
        QCOMPARE(statusOf(run("ALTER JOB j_b SET CLUSTER = 'c1'")), kSuccess);
        r = run("DELETE CLUSTER busy");
        QCOMPARE(statusOf(r), kSuccess);
        QCOMPARE(r["apiResponse"]["deleteClusterApiResponse"]["name"].get<std::string>(),
                 std::string("busy"));
        r = run("DESCRIBE CLUSTER busy");
        QCOMPARE(statusOf(r), kFailed);
        QCOMPARE(errorOf(r), std::string("Cluster busy does not exist"));
        QCOMPARE(errorOf(run("DELETE CLUSTER busy")), std::string("Cluster busy does not exist"));
    }

    void viewersCannotChangeClusters() {
        const std::pair<const char*, const char*> cases[] = {
            {"CREATE CLUSTER v TYPE = 'Spark' MAX_OCU = 1 MIN_OCU = 0", "CREATE CLUSTER"},
            {"ALTER CLUSTER c1 SET MAX_OCU = 2", "ALTER CLUSTER"},
            {"DELETE CLUSTER c1", "DELETE CLUSTER"},
        };
        for (const auto& [statement, action] : cases) {
            const auto r = run(statement, &m_viewer);
            QCOMPARE(statusOf(r), kFailed);
            QCOMPARE(errorOf(r), "Permission denied: viewer cannot " + std::string(action));
        }
        QCOMPARE(statusOf(run("DESCRIBE CLUSTER c1")), kSuccess);
    }

    // A graceful stop is tst_http's subject; here it only ends the service.
    void cleanupTestCase() { m_service.stop(); }
};

JOBDECK_TEST_GUILESS_MAIN(TestClusters)
#include "tst_clusters.moc"
