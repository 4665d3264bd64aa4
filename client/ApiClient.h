#pragma once

#include "client/ApiReply.h"
#include "client/ConnectionInfo.h"
#include "core/statements/Statement.h"
#include "core/wire/Cluster.h"
#include "core/wire/Project.h"
#include "core/wire/ProjectEvent.h"
#include "core/wire/SparkJob.h"
#include "core/wire/SparkJobRun.h"
#include "core/wire/SparkJobSummary.h"

#include <QByteArray>
#include <QFuture>
#include <QNetworkAccessManager>
#include <QObject>
#include <QSslConfiguration>
#include <QThreadPool>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QNetworkReply;

namespace jobdeck {

// A piece of a run's driver output (GET /v1/jobs/<name>/runs/<runId>/log).
struct LogChunk final {
    QByteArray data;
    qint64 nextOffset = 0;
    bool complete = false;
};

// Typed asynchronous calls to jobdeckd (CONTRACT §1, §2). Every statement goes through
// POST /v1/resource/ with `Prefer: wait=<n>`; while the answer is PENDING the client polls
// GET /v1/status/<requestId> until it is final or the statement timeout runs out. Every HTTP request
// has a timeout. Every write carries an Idempotency-Key (the caller's for RUN JOB, else a fresh UUID per
// call) and is retried with it after a lost response: the service starts one run for a RUN JOB key, and
// answers a repeated key of another write with the first request's answer (docs/wire-format.md).
class ApiClient final : public QObject {
    Q_OBJECT
public:
    explicit ApiClient(QObject* parent = nullptr);
    ~ApiClient() override;

    // An https URL is verified against the system's CAs and the connection's CA certificate file.
    void setConnection(const ConnectionInfo& connection);
    const ConnectionInfo& connection() const { return m_connection; }

    // How long the service may hold the POST before answering PENDING (Prefer: wait=<n>).
    void setPreferWaitSeconds(int seconds) { m_preferWaitSeconds = seconds; }
    // The whole life of one statement: the POST, the retries and the status polls.
    void setStatementTimeout(std::chrono::milliseconds t) { m_statementTimeout = t; }
    // One HTTP exchange beyond any wait the service was asked to hold it for.
    void setRequestTimeout(std::chrono::milliseconds t) { m_requestTimeout = t; }
    // Delays between attempts of a write after a lost response; its size is the number of retries.
    void setWriteRetryDelays(std::vector<std::chrono::milliseconds> delays) {
        m_writeRetryDelays = std::move(delays);
    }

    // Any statement; the value is the whole apiResponse object.
    ApiReply<nlohmann::json>* execute(const Statement& statement, const QString& idempotencyKey = {});

    ApiReply<nlohmann::json>* createJob(const CreateJobStatement& statement);
    ApiReply<nlohmann::json>* alterJob(const AlterJobStatement& statement);
    ApiReply<nlohmann::json>* deleteJob(const QString& name);
    ApiReply<SparkJob>* describeJob(const QString& name);
    ApiReply<std::vector<SparkJob>>* showJobs();
    // SHOW JOBS SUMMARY [LIMIT n]: what the Jobs list shows of every job, or of the first `limit` by
    // name (a job's whole object: describeJob()).
    ApiReply<std::vector<SparkJobSummary>>*
    showJobSummaries(std::optional<std::int64_t> limit = std::nullopt);
    // Value: the jobRunId. An empty idempotencyKey makes the client generate one (a UUID).
    ApiReply<QString>* runJob(const QString& name,
                              const std::vector<std::pair<std::string, std::string>>& argumentOverrides = {},
                              QString idempotencyKey = {});
    ApiReply<SparkJobRun>* describeJobRun(const QString& runId, const QString& jobName);
    ApiReply<nlohmann::json>* cancelJobRun(const QString& runId, const QString& jobName);
    ApiReply<std::vector<SparkJobRun>>* showJobRuns(const ShowJobRunsStatement& statement = {});

    ApiReply<nlohmann::json>* createCluster(const CreateClusterStatement& statement);
    ApiReply<nlohmann::json>* alterCluster(const AlterClusterStatement& statement);
    ApiReply<nlohmann::json>* deleteCluster(const QString& name);
    ApiReply<Cluster>* describeCluster(const QString& name);
    ApiReply<std::vector<Cluster>>* showClusters();

    ApiReply<Project>* describeProject();
    ApiReply<nlohmann::json>* alterProject(const AlterProjectStatement& statement);

    // GET /v1/events?after=&wait= (a long poll held up to waitSeconds by the service).
    ApiReply<EventsPage>* events(qint64 after, int waitSeconds);
    // GET /v1/jobs/<name>/runs/<runId>/log?offset=&limit=
    ApiReply<LogChunk>* runLog(const QString& jobName, const QString& runId, qint64 offset,
                               qint64 limit = qint64(256) * 1024);
    // GET /v1/health, without credentials; the value is the service's version.
    ApiReply<QString>* health(std::chrono::milliseconds timeout = std::chrono::seconds(3));

    static QString newIdempotencyKey();

signals:
    // setConnection() named another service or project than before.
    void connectionChanged();
    // A request did not reach the service or got no answer in time: the connection monitor rechecks.
    void unreachable(const QString& reason);
    // The service answered 401 (the key was revoked, the secret changed): only new credentials help.
    void credentialsRefused(const QString& reason);
    // Bytes of an answer received so far, of the total it announced (for the status bar's progress).
    void transferProgress(qint64 received, qint64 total);

private:
    struct HttpResult;
    struct StatementCall;
    using HttpCallback = std::function<void(const HttpResult&)>;
    // `readItems`: a parser callback for an answer with a long list (ListItemReader).
    ApiReply<nlohmann::json>* executeText(const std::string& statement, const QString& idempotencyKey,
                                          bool retryLostResponse,
                                          nlohmann::json::parser_callback_t readItems = nullptr);
    void postStatement(const std::shared_ptr<StatementCall>& call);
    void pollStatus(const std::shared_ptr<StatementCall>& call);
    void handleStatus(const std::shared_ptr<StatementCall>& call, nlohmann::json body);
    void sendGet(const QString& path, const QList<std::pair<QString, QString>>& query,
                 std::chrono::milliseconds timeout, bool withCredentials, HttpCallback done);
    void send(QNetworkReply* reply, HttpCallback done);
    // send()'s parts: the TLS errors and the size limit while the answer arrives, then what went wrong.
    void watchTransfer(QNetworkReply* reply);
    std::optional<ApiError> errorOf(QNetworkReply* reply, int httpStatus, const QByteArray& body) const;
    QNetworkRequest makeRequest(const QString& path, const QList<std::pair<QString, QString>>& query,
                                std::chrono::milliseconds timeout, bool withCredentials) const;
    // Why no request can be sent (no connection, an unreadable CA certificate file), if so.
    std::optional<ApiError> connectionProblem() const;

    // Parses a status answer off this thread, then continues with it here (invalid JSON rejects).
    void parseStatus(const std::shared_ptr<StatementCall>& call, const HttpResult& result,
                     std::function<void(nlohmann::json)> next);
    // Runs `convert` on the apiResponse of a statement, off this thread (a list of 100,000 jobs);
    // a thrown exception becomes a Protocol error.
    template <class T, class Convert> ApiReply<T>* mapped(ApiReply<nlohmann::json>* raw, Convert convert);
    // Runs work() on m_decoder and hands its result to done() on this thread, unless context is gone.
    template <class R, class Work, class Done> void offThread(QObject* context, Work work, Done done);
    // Hands the result of `future` to done() on this thread, unless context is gone.
    template <class R, class Done> void whenDone(QObject* context, QFuture<R> future, Done done);

    QNetworkAccessManager m_network;
    ConnectionInfo m_connection;
    QSslConfiguration m_tls; // for https: the system's CAs plus the connection's CA file
    QString m_tlsProblem;    // the CA file could not be read
    int m_preferWaitSeconds = 10;
    std::chrono::milliseconds m_statementTimeout = std::chrono::seconds(60);
    std::chrono::milliseconds m_requestTimeout = std::chrono::seconds(15);
    std::vector<std::chrono::milliseconds> m_writeRetryDelays{std::chrono::milliseconds(500),
                                                              std::chrono::milliseconds(1500)};
    qint64 m_maxResponseBytes = 512LL * 1024 * 1024;
    // Decodes answers so a large one never stalls the GUI. One worker: answers are decoded and
    // delivered in the order they arrived. Declared last so it is destroyed (waiting for its work) first.
    QThreadPool m_decoder;
};

} // namespace jobdeck
