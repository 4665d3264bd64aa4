// What jobdeckd acknowledged survives kill -9 and a restart on the same data directory: every change
// and its status; a request acknowledged as PENDING is still answered after the restart. Statuses of
// reads are committed in groups after the answer, so a kill right after one may lose it (404), never
// turn it into another status.
#include "tests/runner/SuiteRegistry.h"
#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <QTest>

#include "core/statements/StatementRefusals.h"
#include "service/statements/RequestRegistry.h"

#include <map>
#include <set>

using namespace jobdeck;

namespace {

constexpr auto kSuccess = "API_OPERATION_STATUS_SUCCESS";

std::set<std::string> names(const nlohmann::json& items) {
    std::set<std::string> out;
    for (const auto& item : items)
        out.insert(item.value("name", ""));
    return out;
}

} // namespace

class TestPersistence : public QObject {
    Q_OBJECT

private slots:
    void acknowledgedWritesSurviveKill9() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials credentials =
            service.createKey(QStringLiteral("alpha"), QStringLiteral("operator"));
        QVERIFY(credentials.isValid());

        std::map<std::string, nlohmann::json> statuses; // requestId -> what the client was told
        std::set<std::string> reads;
        auto run = [&](const QString& statement) {
            const nlohmann::json status = runStatement(service, credentials, statement);
            statuses[status.value("requestId", "")] = status;
            if (statement.startsWith(QStringLiteral("DESCRIBE JOB ")))
                reads.insert(status.value("requestId", ""));
            return QString::fromStdString(status.value("apiStatus", ""));
        };
        std::set<std::string> clusters;
        std::set<std::string> jobs;
        for (int i = 0; i < 5; ++i) {
            const std::string cluster = "cluster_" + std::to_string(i);
            QCOMPARE(run(QString::fromStdString("CREATE CLUSTER " + cluster +
                                                " TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")),
                     QString::fromLatin1(kSuccess));
            clusters.insert(cluster);
            const std::string job = "job_" + std::to_string(i);
            QCOMPARE(run(QString::fromStdString("CREATE JOB " + job +
                                                " TYPE = 'JAR' PARAMETERS = ('--class', 'org.example.Main', "
                                                "'/opt/apps/app.jar', '--date', '2024-01-01') CLUSTER = '" +
                                                cluster + "'")),
                     QString::fromLatin1(kSuccess));
            jobs.insert(job);
        }
        QCOMPARE(run(QStringLiteral("ALTER JOB job_0 SET CLUSTER = 'cluster_4'")),
                 QString::fromLatin1(kSuccess));
        QCOMPARE(run(QStringLiteral("DELETE JOB job_1")), QString::fromLatin1(kSuccess));
        jobs.erase("job_1");
        // A failed read and an invalid statement: the invalid one is kept like a write.
        QCOMPARE(run(QStringLiteral("DESCRIBE JOB job_1")), QStringLiteral("API_OPERATION_STATUS_FAILED"));
        QCOMPARE(run(QStringLiteral("DESCRIBE JOBB job_1")), QStringLiteral("API_OPERATION_STATUS_INVALID"));

        service.kill9(); // right after the last answer, nothing gets to flush
        QVERIFY(!service.isRunning());
        QVERIFY2(service.start(), qPrintable(service.lastError()));

        const nlohmann::json shownClusters =
            runStatement(service, credentials, QStringLiteral("SHOW CLUSTERS"));
        QCOMPARE(names(shownClusters["apiResponse"]["showClustersApiResponse"]["clusters"]), clusters);
        const nlohmann::json shownJobs = runStatement(service, credentials, QStringLiteral("SHOW JOBS"));
        QCOMPARE(names(shownJobs["apiResponse"]["showJobsApiResponse"]["sparkJobs"]), jobs);
        const nlohmann::json altered =
            runStatement(service, credentials, QStringLiteral("DESCRIBE JOB job_0"));
        QCOMPARE(altered["apiResponse"]["describeJobApiResponse"]["sparkJob"].value("cluster", ""),
                 std::string("cluster_4"));

        for (const auto& [id, status] : statuses) {
            const HttpResult again =
                request(service.url(QStringLiteral("/v1/status/") + QString::fromStdString(id)), "GET", {},
                        credentials.headers());
            if (reads.contains(id) && again.status == 404)
                continue; // killed within the group-commit interval after the answer
            QCOMPARE(again.status, 200);
            nlohmann::json expected = status;
            expected.erase("requestId");
            QVERIFY2(again.json() == expected, again.body.constData());
        }
        // The key itself survived as well.
        QCOMPARE(request(service.url(QStringLiteral("/v1/status/") +
                                     QString::fromStdString(statuses.begin()->first)),
                         "GET", {}, credentials.headers())
                     .status,
                 200);
    }

    void requestsAcknowledgedAsPendingAreAnsweredAfterKill9() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials credentials =
            service.createKey(QStringLiteral("delta"), QStringLiteral("operator"));
        QCOMPARE(
            QString::fromStdString(runStatement(service, credentials,
                                                QStringLiteral("CREATE CLUSTER c TYPE = 'Spark' MAX_OCU = 1 "
                                                               "MIN_OCU = 1"))
                                       .value("apiStatus", "")),
            QString::fromLatin1(kSuccess));
        // Without Prefer: wait the answer is the id alone, given before the statement runs.
        std::map<std::string, std::string> jobOf; // requestId -> job it creates
        for (int i = 0; i < 20; ++i) {
            const std::string job = "pending_" + std::to_string(i);
            const std::string statement = "CREATE JOB " + job +
                                          " TYPE = 'JAR' PARAMETERS = ('--class', 'Main', 'app.jar') "
                                          "CLUSTER = 'c'";
            const HttpResult accepted =
                request(service.url(QStringLiteral("/v1/resource/")), "POST",
                        QByteArray::fromStdString(nlohmann::json{{"statement", statement}}.dump()),
                        credentials.headers());
            QCOMPARE(accepted.status, 200);
            jobOf[accepted.json().value("requestId", "")] = job;
        }
        service.kill9(); // some of them are likely still queued
        QVERIFY2(service.start(), qPrintable(service.lastError()));

        const nlohmann::json shown = runStatement(service, credentials, QStringLiteral("SHOW JOBS"));
        const std::set<std::string> jobs = names(shown["apiResponse"]["showJobsApiResponse"]["sparkJobs"]);
        for (const auto& [id, job] : jobOf) {
            const HttpResult again =
                request(service.url(QStringLiteral("/v1/status/") + QString::fromStdString(id)), "GET", {},
                        credentials.headers());
            QCOMPARE(again.status, 200);
            const nlohmann::json status = again.json();
            // The status says exactly what happened: created, or never run.
            if (jobs.contains(job)) {
                QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                         QString::fromLatin1(kSuccess));
            } else {
                QCOMPARE(QString::fromStdString(status.value("apiStatus", "")),
                         QStringLiteral("API_OPERATION_STATUS_FAILED"));
                QCOMPARE(status.value("errorMessage", ""), requestInterruptedByRestartMessage());
            }
        }
    }

    void statusesSurviveAGracefulRestart() {
        TestService service;
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const ApiCredentials credentials =
            service.createKey(QStringLiteral("beta"), QStringLiteral("viewer"));
        const ApiCredentials other = service.createKey(QStringLiteral("gamma"), QStringLiteral("viewer"));
        const nlohmann::json status = runStatement(service, credentials, QStringLiteral("SHOW JOBS"));
        const QString id = QString::fromStdString(status.value("requestId", ""));
        QVERIFY(!id.isEmpty());
        QCOMPARE(service.stop(), 0);
        QVERIFY2(service.start(), qPrintable(service.lastError()));
        const HttpResult again =
            request(service.url(QStringLiteral("/v1/status/") + id), "GET", {}, credentials.headers());
        QCOMPARE(again.status, 200);
        QCOMPARE(QString::fromStdString(again.json().value("apiStatus", "")), QString::fromLatin1(kSuccess));
        // Still invisible to another project after the restart, now that it comes from the database.
        QCOMPARE(request(service.url(QStringLiteral("/v1/status/") + id), "GET", {}, other.headers()).status,
                 404);
    }
};

JOBDECK_TEST_GUILESS_MAIN(TestPersistence)
#include "tst_persistence.moc"
