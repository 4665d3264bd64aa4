#pragma once
// Helpers shared by the run suites (tst_run*.cpp, tst_events.cpp, tst_logs.cpp): statements against
// the real jobdeckd, waiting for run states, reading logs, and firing many requests at once.

#include "tests/support/TestHttp.h"
#include "tests/support/TestService.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTest>
#include <QThread>
#include <QTimer>

#include <signal.h>

#include <functional>
#include <memory>
#include <vector>

namespace jobdeck::runtest {

inline const QString kPythonApp = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/jobdeck_test_app.py");
inline const QString kJavaSource = QStringLiteral(JOBDECK_SOURCE_DIR "/tests/apps/JobdeckTestApp.java");

inline const char* kQueued = "SPARK_JOB_RUN_STATUS_QUEUED";
inline const char* kRunning = "SPARK_JOB_RUN_STATUS_RUNNING";
inline const char* kCompleted = "SPARK_JOB_RUN_STATUS_COMPLETED";
inline const char* kFailed = "SPARK_JOB_RUN_STATUS_FAILED";
inline const char* kCanceled = "SPARK_JOB_RUN_STATUS_CANCELED";
inline const char* kSuccess = "API_OPERATION_STATUS_SUCCESS";
inline const char* kApiFailed = "API_OPERATION_STATUS_FAILED";

// "( 'a', 'b''c' )"
inline QString tuple(const QStringList& items) {
    QStringList quoted;
    for (QString item : items)
        quoted << "'" + item.replace("'", "''") + "'";
    return "( " + quoted.join(", ") + " )";
}

// "( '--date' = 'x', ... )"
inline QString argumentsClause(const QList<QPair<QString, QString>>& overrides) {
    if (overrides.isEmpty())
        return {};
    QStringList pairs;
    for (auto [name, value] : overrides)
        pairs << "'" + name.replace("'", "''") + "' = '" + value.replace("'", "''") + "'";
    return " ARGUMENTS = ( " + pairs.join(", ") + " )";
}

// SIGKILL to every process whose command line holds `token`: the drivers a suite's replicas left
// running (a failed test's), each started with the suite's token among its arguments.
inline void killProcessesWithToken(const QString& token) {
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile cmdline("/proc/" + pid + "/cmdline");
        if (pid.toInt() > 0 && cmdline.open(QIODevice::ReadOnly) &&
            cmdline.readAll().contains(token.toUtf8()))
            ::kill(pid.toInt(), SIGKILL);
    }
}

inline std::string statusOf(const nlohmann::json& status) {
    return status.value("apiStatus", std::string());
}
inline std::string errorOf(const nlohmann::json& status) {
    return status.value("errorMessage", std::string());
}

// A statement that must succeed; the failure is logged (the caller QVERIFYs the returned status).
inline nlohmann::json must(const TestService& service, const ApiCredentials& who, const QString& statement,
                           const HttpHeaders& headers = {}) {
    auto status = runStatement(service, who, statement, headers);
    if (statusOf(status) != kSuccess)
        qWarning("statement failed: %s -> %s", qPrintable(statement), status.dump().c_str());
    return status;
}

inline HttpHeaders keyHeader(const QByteArray& key) {
    return {{"Idempotency-Key", key}};
}

// RUN JOB; returns the status object (runJobApiResponse.jobRunId on success).
inline nlohmann::json runJob(const TestService& service, const ApiCredentials& who, const QString& job,
                             const QList<QPair<QString, QString>>& overrides = {},
                             const QByteArray& key = {}) {
    return runStatement(service, who, "RUN JOB " + job + argumentsClause(overrides),
                        key.isEmpty() ? HttpHeaders{} : keyHeader(key));
}

inline QString runIdOf(const nlohmann::json& status) {
    const auto response = status.value("apiResponse", nlohmann::json::object());
    if (!response.contains("runJobApiResponse"))
        return {};
    return QString::fromStdString(response["runJobApiResponse"].value("jobRunId", std::string()));
}

// DESCRIBE JOB_RUN -> sparkJobRun (null on failure).
inline nlohmann::json describeRun(const TestService& service, const ApiCredentials& who, const QString& job,
                                  const QString& runId) {
    const auto status =
        runStatement(service, who, "DESCRIBE JOB_RUN `" + runId + "` JOB_NAME = '" + job + "'");
    if (statusOf(status) != kSuccess)
        return nullptr;
    return status["apiResponse"]["describeJobRunApiResponse"]["sparkJobRun"];
}

// Polls DESCRIBE JOB_RUN until `done(run)` or the timeout; returns the last sparkJobRun seen.
inline nlohmann::json waitForRun(const TestService& service, const ApiCredentials& who, const QString& job,
                                 const QString& runId, const std::function<bool(const nlohmann::json&)>& done,
                                 int timeoutMs = 30000) {
    QElapsedTimer timer;
    timer.start();
    nlohmann::json run;
    while (timer.elapsed() < timeoutMs) {
        run = describeRun(service, who, job, runId);
        if (!run.is_null() && done(run))
            return run;
        QThread::msleep(100);
    }
    return run;
}

inline std::function<bool(const nlohmann::json&)> hasStatus(const char* status) {
    return [status](const nlohmann::json& run) { return run.value("status", std::string()) == status; };
}

inline std::function<bool(const nlohmann::json&)> hasEnded() {
    return [](const nlohmann::json& run) {
        const auto s = run.value("status", std::string());
        return s == kCompleted || s == kFailed || s == kCanceled;
    };
}

inline HttpResult logPage(const TestService& service, const ApiCredentials& who, const QString& job,
                          const QString& runId, qint64 offset, qint64 limit = -1) {
    QString query = QString("offset=%1").arg(offset);
    if (limit >= 0)
        query += QString("&limit=%1").arg(limit);
    return request(service.url("/v1/jobs/" + job + "/runs/" + runId + "/log", query), "GET", {},
                   who.headers());
}

// The whole log of a run (all pages).
inline QByteArray fullLog(const TestService& service, const ApiCredentials& who, const QString& job,
                          const QString& runId) {
    QByteArray all;
    qint64 offset = 0;
    for (int i = 0; i < 1000; ++i) {
        const auto page = logPage(service, who, job, runId, offset);
        if (page.status != 200)
            return all;
        all += page.body;
        const qint64 next = page.header("X-Log-Next-Offset").toLongLong();
        if (next == offset)
            return all;
        offset = next;
    }
    return all;
}

// Sends every request at once, each on its own loopback connection (so they really are concurrent,
// unlike QNetworkAccessManager's six per host), and returns the status objects in request order.
// `onClosed`, when given, is called with how many connections have closed so far, each time one does.
inline std::vector<nlohmann::json> concurrentStatements(const TestService& service, const ApiCredentials& who,
                                                        const std::vector<QString>& statements,
                                                        const std::vector<QByteArray>& idempotencyKeys,
                                                        int timeoutMs = 30000,
                                                        const std::function<void(int)>& onClosed = {}) {
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    std::vector<QByteArray> received(statements.size());
    int open = static_cast<int>(statements.size());
    QEventLoop loop;
    for (std::size_t i = 0; i < statements.size(); ++i) {
        const QByteArray body =
            QByteArray::fromStdString(nlohmann::json{{"statement", statements[i].toStdString()}}.dump());
        QByteArray raw =
            "POST /v1/resource/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Prefer: wait=20\r\nConnection: close\r\n";
        for (const auto& [name, value] : who.headers())
            raw += name + ": " + value + "\r\n";
        if (!idempotencyKeys[i].isEmpty())
            raw += "Idempotency-Key: " + idempotencyKeys[i] + "\r\n";
        raw += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
        auto socket = std::make_unique<QTcpSocket>();
        QTcpSocket* s = socket.get();
        QObject::connect(s, &QTcpSocket::connected, s, [s, raw] { s->write(raw); });
        QObject::connect(s, &QTcpSocket::readyRead, s, [s, &received, i] { received[i] += s->readAll(); });
        QObject::connect(s, &QTcpSocket::disconnected, s,
                         [s, &received, i, &open, &loop, &onClosed, &statements] {
                             received[i] += s->readAll();
                             if (--open == 0)
                                 loop.quit();
                             if (onClosed)
                                 onClosed(static_cast<int>(statements.size()) - open);
                         });
        sockets.push_back(std::move(socket));
    }
    for (auto& s : sockets)
        s->connectToHost(QHostAddress::LocalHost, service.port());
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (open > 0)
        loop.exec();
    // At the timeout some are still open: their slots must not run on this frame's locals once it is gone.
    for (auto& s : sockets)
        s->disconnect();
    std::vector<nlohmann::json> results;
    for (const auto& raw : received) {
        const int split = raw.indexOf("\r\n\r\n");
        results.push_back(split < 0
                              ? nlohmann::json(nullptr)
                              : nlohmann::json::parse(raw.mid(split + 4).toStdString(), nullptr, false));
    }
    return results;
}

// Whether `service` launched run `id`. Any replica may claim a QUEUED run, not only the one that
// admitted it: the launcher's run directory, with the driver's pid, is in its data directory.
inline bool launchedOn(const TestService& service, const QString& id) {
    return QFile::exists(service.dataDir() + "/runs/" + id + "/driver-pid");
}

// A driver's pid as the test app printed it ("pid: <n>"), 0 when not (yet) in the log.
inline qint64 driverPidFromLog(const QByteArray& log) {
    for (const auto& line : log.split('\n'))
        if (line.startsWith("pid: "))
            return line.mid(5).toLongLong();
    return 0;
}

// CREATE CLUSTER <cluster> (2 driver slots) and a PYTHON job <job> on it that runs the test app with
// `appArguments`; false (with the statement logged) when either fails.
inline bool createClusterAndPythonJob(const TestService& service, const ApiCredentials& who,
                                      const QString& cluster, const QString& job,
                                      const QStringList& appArguments) {
    return statusOf(
               must(service, who, "CREATE CLUSTER " + cluster + " TYPE = 'Spark' MAX_OCU = 2 MIN_OCU = 1")) ==
               kSuccess &&
           statusOf(must(service, who,
                         "CREATE JOB " + job + " TYPE = 'PYTHON' PARAMETERS = " +
                             tuple(QStringList{kPythonApp} + appArguments) + " CLUSTER = '" + cluster +
                             "'")) == kSuccess;
}

// Creates `admin` and `operator` keys and enables what the run suites use.
struct Project final {
    ApiCredentials admin;
    ApiCredentials op;
    bool create(TestService& service) {
        admin = service.createKey("runs", "admin");
        op = service.createKey("runs", "operator");
        if (!admin.isValid() || !op.isValid())
            return false;
        return statusOf(must(service, admin,
                             "ALTER PROJECT SET CONCURRENT_RUNS = ENABLED MAX_CONCURRENT_RUNS_LIMIT = 10")) ==
                   kSuccess &&
               statusOf(must(service, admin, "ALTER PROJECT SET HUDI_CONFIGS = ENABLED")) == kSuccess &&
               statusOf(
                   must(service, admin,
                        "ALTER PROJECT ADD HUDI_CONFIG_ALLOWLIST ( 'hoodie.upsert.shuffle.parallelism' )")) ==
                   kSuccess;
    }
};

} // namespace jobdeck::runtest

// QCOMPARE cannot print nlohmann::json; this shows both sides when they differ.
#define JSON_COMPARE(actual, expected)                                                                       \
    do {                                                                                                     \
        const nlohmann::json a_ = (actual);                                                                  \
        const nlohmann::json e_ = (expected);                                                                \
        QVERIFY2(a_ == e_, qPrintable(QString("actual %1, expected %2")                                      \
                                          .arg(QString::fromStdString(a_.dump()),                            \
                                               QString::fromStdString(e_.dump()))));                         \
    } while (false)
