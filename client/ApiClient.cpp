#include "client/ApiClient.h"

#include "client/ListItemReader.h"
#include "client/TlsTrust.h"
#include "core/policy/IdempotencyKey.h"
#include "core/statements/StatementPrinter.h"
#include "core/text/AsciiText.h"
#include "core/wire/ApiStatus.h"

#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTimer>
#include <QUrlQuery>
#include <QUuid>

#include <QDeadlineTimer>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace jobdeck {

using nlohmann::json;
using namespace std::chrono_literals;

struct ApiClient::HttpResult {
    std::optional<ApiError> error;
    int httpStatus = 0;
    QByteArray body;
    QNetworkReply* reply = nullptr; // valid only during the callback, for headers
};

struct ApiClient::StatementCall {
    QByteArray body;
    QString idempotencyKey;
    bool retryLostResponse = false;
    std::size_t retriesDone = 0;
    QPointer<ApiReply<json>> reply;
    QDeadlineTimer deadline;
    QString requestId;
    int pollDelayMs = 100;
    // Reads a long list's items as the answer is parsed (ListItemReader); empty for other statements.
    json::parser_callback_t readItems;
};

namespace {

// An answer's body, taken as it arrives into one buffer of the announced size: read at the end, a large
// answer would be held twice (the reply's chunks and their copy).
struct ReceivedBody final {
    QByteArray body;
    bool started = false;

    void take(QNetworkReply* reply) {
        // Straight into the buffer: readAll() would copy each piece once more.
        const qsizetype at = body.size();
        body.resize(at + reply->bytesAvailable());
        body.resize(at + std::max<qint64>(0, reply->read(body.data() + at, body.size() - at)));
    }
};

std::shared_ptr<ReceivedBody> receiveBody(QNetworkReply* reply, qint64 limit) {
    auto in = std::make_shared<ReceivedBody>();
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [reply, in, limit] {
        if (!in->started) {
            in->started = true;
            bool known = false;
            const qint64 length = reply->header(QNetworkRequest::ContentLengthHeader).toLongLong(&known);
            if (known && length > 0 && length <= limit)
                in->body.reserve(length);
        }
        in->take(reply);
    });
    return in;
}

QString reasonLine(QNetworkReply* reply, const QByteArray& body) {
    // The contract puts a one-line reason in grpc-message and in {"error": ...}.
    const QByteArray header = reply->rawHeader("grpc-message");
    if (!header.isEmpty())
        return QString::fromUtf8(QByteArray::fromPercentEncoding(header));
    const json parsed = json::parse(body.begin(), body.end(), nullptr, false);
    if (parsed.is_object() && parsed.contains("error") && parsed["error"].is_string())
        return QString::fromStdString(parsed["error"].get<std::string>());
    return {};
}

const json& member(const json& j, const char* a, const char* b) {
    // Protocol errors name the missing field, so a mismatch with the service is easy to find.
    if (!j.is_object() || !j.contains(a) || !j[a].is_object())
        throw std::runtime_error("the answer has no object " + quoted(std::string_view(a)));
    const json& inner = j[a];
    if (!inner.contains(b))
        throw std::runtime_error("the answer has no " + quoted(std::string(a) + "." + b));
    return inner[b];
}

std::string toStd(const QString& s) {
    return s.toStdString();
}

} // namespace

ApiClient::ApiClient(QObject* parent)
    : QObject(parent) {
    m_network.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_decoder.setMaxThreadCount(1);
}

ApiClient::~ApiClient() = default;

void ApiClient::setConnection(const ConnectionInfo& connection) {
    const bool another = !connection.sameServiceAs(m_connection);
    m_connection = connection;
    m_tls = QSslConfiguration::defaultConfiguration();
    m_tlsProblem.clear();
    if (!connection.caCertificateFile.isEmpty()) {
        m_tlsProblem = TlsTrust::caCertificateProblem(connection.caCertificateFile);
        // Explicitly the system's store plus the file: adding to the default configuration would turn
        // off its loading of system roots on demand.
        m_tls.setCaCertificates(QSslConfiguration::systemCaCertificates() +
                                TlsTrust::caCertificates(connection.caCertificateFile));
    }
    if (another)
        emit connectionChanged();
}

std::optional<ApiError> ApiClient::connectionProblem() const {
    if (!m_connection.isValid())
        return ApiError{ApiError::Kind::Network, QStringLiteral("No service connection is configured")};
    if (!m_tlsProblem.isEmpty())
        return ApiError{ApiError::Kind::Network, m_tlsProblem};
    return std::nullopt;
}

QString ApiClient::newIdempotencyKey() {
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QNetworkRequest ApiClient::makeRequest(const QString& path, const QList<std::pair<QString, QString>>& query,
                                       std::chrono::milliseconds timeout, bool withCredentials) const {
    QUrl url = m_connection.baseUrl;
    url.setPath(path, QUrl::TolerantMode); // names in the path are percent-encoded already
    if (!query.isEmpty()) {
        QUrlQuery q;
        for (const auto& [k, v] : query)
            q.addQueryItem(k, QString::fromUtf8(QUrl::toPercentEncoding(v)));
        url.setQuery(q);
    }
    QNetworkRequest request(url);
    if (url.scheme() == QLatin1String("https"))
        request.setSslConfiguration(m_tls);
    request.setTransferTimeout(static_cast<int>(timeout.count()));
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    if (withCredentials) {
        request.setRawHeader("x-onehouse-project-uid", m_connection.projectUid.toUtf8());
        request.setRawHeader("x-onehouse-api-key", m_connection.apiKey.toUtf8());
        request.setRawHeader("x-onehouse-api-secret", m_connection.apiSecret.toUtf8());
    }
    return request;
}

void ApiClient::watchTransfer(QNetworkReply* reply) {
    const qint64 limit = m_maxResponseBytes;
    // Not ignored: the handshake fails and `finished` reports it with these reasons.
    connect(reply, &QNetworkReply::sslErrors, reply, [reply](const QList<QSslError>& errors) {
        reply->setProperty("jobdeckTlsErrors", QVariant::fromValue(errors));
    });
    connect(reply, &QNetworkReply::downloadProgress, reply,
            [this, reply, limit](qint64 received, qint64 total) {
                if (received > limit) {
                    reply->setProperty("jobdeckTooLarge", true);
                    reply->abort();
                    return;
                }
                if (total > 0)
                    emit transferProgress(received, total);
            });
}

std::optional<ApiError> ApiClient::errorOf(QNetworkReply* reply, int httpStatus,
                                           const QByteArray& body) const {
    const auto err = reply->error();
    if (reply->property("jobdeckTooLarge").toBool())
        return ApiError{ApiError::Kind::Protocol,
                        QStringLiteral("The answer is larger than %1 bytes").arg(m_maxResponseBytes)};
    if (httpStatus == 401) {
        const QString reason = reasonLine(reply, body);
        return ApiError{ApiError::Kind::Auth,
                        reason.isEmpty() ? QStringLiteral("The service refused the credentials") : reason};
    }
    if (httpStatus != 0 && httpStatus != 200) {
        const QString reason = reasonLine(reply, body);
        return ApiError{ApiError::Kind::Failed,
                        reason.isEmpty() ? QStringLiteral("HTTP %1 from the service").arg(httpStatus)
                                         : reason};
    }
    if (err == QNetworkReply::OperationCanceledError || err == QNetworkReply::TimeoutError)
        return ApiError{ApiError::Kind::Timeout,
                        QStringLiteral("No answer from %1 in time").arg(m_connection.baseUrl.toString())};
    if (err == QNetworkReply::SslHandshakeFailedError) {
        const QUrl url = m_connection.baseUrl;
        return ApiError{
            ApiError::Kind::Network,
            TlsTrust::untrustedMessage(QStringLiteral("%1:%2").arg(url.host()).arg(url.port(443)),
                                       reply->property("jobdeckTlsErrors").value<QList<QSslError>>())};
    }
    if (err != QNetworkReply::NoError)
        return ApiError{
            ApiError::Kind::Network,
            QStringLiteral("Cannot reach %1: %2").arg(m_connection.baseUrl.toString(), reply->errorString())};
    return std::nullopt;
}

void ApiClient::send(QNetworkReply* reply, HttpCallback done) {
    watchTransfer(reply);
    const auto in = receiveBody(reply, m_maxResponseBytes);
    connect(reply, &QNetworkReply::finished, this, [this, reply, in, done = std::move(done)] {
        reply->deleteLater();
        HttpResult result;
        result.reply = reply;
        result.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (reply->bytesAvailable() > 0)
            in->take(reply);
        result.body = std::move(in->body);
        result.error = errorOf(reply, result.httpStatus, result.body);
        // The service cannot be reached (no answer, no TLS, no connection): not a refusal.
        if (result.error &&
            (result.error->kind == ApiError::Kind::Timeout || result.error->kind == ApiError::Kind::Network))
            emit unreachable(result.error->message);
        if (result.error && result.error->kind == ApiError::Kind::Auth)
            emit credentialsRefused(result.error->message);
        done(result);
    });
}

void ApiClient::sendGet(const QString& path, const QList<std::pair<QString, QString>>& query,
                        std::chrono::milliseconds timeout, bool withCredentials, HttpCallback done) {
    if (const auto problem = connectionProblem()) {
        HttpResult result;
        result.error = *problem;
        QTimer::singleShot(0, this, [result, done = std::move(done)] { done(result); });
        return;
    }
    send(m_network.get(makeRequest(path, query, timeout, withCredentials)), std::move(done));
}

ApiReply<json>* ApiClient::execute(const Statement& statement, const QString& idempotencyKey) {
    // Every write carries a key, one per call, so that sending it again is safe: Qt re-sends a POST
    // once when a kept-alive connection drops before any answer, and a lost answer is retried here. The
    // service answers a repeated key with the first request's answer (RUN JOB: CONTRACT §4).
    const bool isWrite = !isReadStatement(statement);
    QString key = idempotencyKey;
    if (isWrite && key.isEmpty())
        key = newIdempotencyKey();
    return executeText(printStatement(statement), key, isWrite);
}

ApiReply<json>* ApiClient::executeText(const std::string& statement, const QString& idempotencyKey,
                                       bool retryLostResponse, json::parser_callback_t readItems) {
    auto* reply = new ApiReply<json>(this);
    auto call = std::make_shared<StatementCall>();
    call->body = QByteArray::fromStdString(json{{"statement", statement}}.dump());
    call->idempotencyKey = idempotencyKey;
    call->retryLostResponse = retryLostResponse;
    call->readItems = std::move(readItems);
    call->reply = reply;
    call->deadline = QDeadlineTimer(m_statementTimeout.count());
    if (const auto problem = connectionProblem()) {
        QTimer::singleShot(0, reply, [reply, problem = *problem] { reply->reject(problem); });
        return reply;
    }
    if (!idempotencyKey.isEmpty()) {
        if (auto problem = idempotencyKeyProblem(idempotencyKey.toStdString())) {
            QTimer::singleShot(0, reply, [reply, message = QString::fromStdString(*problem)] {
                reply->reject({ApiError::Kind::Invalid, message});
            });
            return reply;
        }
    }
    postStatement(call);
    return reply;
}

void ApiClient::postStatement(const std::shared_ptr<StatementCall>& call) {
    const auto holdFor = std::chrono::seconds(m_preferWaitSeconds);
    QNetworkRequest request =
        makeRequest(QStringLiteral("/v1/resource/"), {},
                    std::chrono::duration_cast<std::chrono::milliseconds>(holdFor) + m_requestTimeout, true);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Prefer", QByteArray("wait=") + QByteArray::number(m_preferWaitSeconds));
    if (!call->idempotencyKey.isEmpty())
        request.setRawHeader("Idempotency-Key", call->idempotencyKey.toUtf8());
    send(m_network.post(request, call->body), [this, call](const HttpResult& r) {
        if (!call->reply)
            return;
        if (r.error) {
            const bool lost =
                r.error->kind == ApiError::Kind::Network || r.error->kind == ApiError::Kind::Timeout;
            // Writes are safe to repeat with their Idempotency-Key; reads are polled, not re-sent.
            if (lost && call->retryLostResponse && call->retriesDone < m_writeRetryDelays.size() &&
                !call->deadline.hasExpired()) {
                const auto delay = m_writeRetryDelays[call->retriesDone++];
                QTimer::singleShot(delay, this, [this, call] { postStatement(call); });
                return;
            }
            call->reply->reject(*r.error);
            return;
        }
        parseStatus(call, r, [this, call](json body) {
            if (!body.contains("apiStatus")) {
                // A service that ignores Prefer: wait answers {"requestId"} only.
                if (!body.contains("requestId") || !body["requestId"].is_string()) {
                    call->reply->reject(
                        {ApiError::Kind::Protocol, QStringLiteral("The answer has no requestId")});
                    return;
                }
                call->requestId = QString::fromStdString(body["requestId"].get<std::string>());
                pollStatus(call);
                return;
            }
            handleStatus(call, std::move(body));
        });
    });
}

void ApiClient::handleStatus(const std::shared_ptr<StatementCall>& call, json body) {
    // A list of 100,000 jobs is large: the response is moved out, never copied, on its way to the
    // caller. What stays is read as the status (a null apiResponse counts as absent).
    json response = json::object();
    if (const auto it = body.find("apiResponse"); it != body.end() && it->is_object())
        response = std::move(*it);
    ApiStatus status;
    try {
        status = body.get<ApiStatus>();
    } catch (const std::exception& e) {
        call->reply->reject(
            {ApiError::Kind::Protocol,
             QStringLiteral("Unreadable status from the service: %1").arg(QString::fromUtf8(e.what()))});
        return;
    }
    if (status.requestId)
        call->requestId = QString::fromStdString(*status.requestId);
    switch (status.apiStatus) {
    case ApiOperationStatus::Success:
        call->reply->resolve(std::move(response));
        return;
    case ApiOperationStatus::Failed: {
        ApiError error(ApiError::Kind::Failed, QString::fromStdString(status.errorMessage.value_or("")),
                       QString::fromStdString(status.diagnosticCode.value_or("")),
                       status.parameterIndex.value_or(-1));
        error.reason = QString::fromStdString(status.errorReason.value_or(""));
        call->reply->reject(std::move(error));
        return;
    }
    case ApiOperationStatus::Invalid:
        call->reply->reject(
            {ApiError::Kind::Invalid, QString::fromStdString(status.errorMessage.value_or(""))});
        return;
    case ApiOperationStatus::Pending:
        if (call->requestId.isEmpty()) {
            call->reply->reject(
                {ApiError::Kind::Protocol, QStringLiteral("A PENDING answer without a requestId")});
            return;
        }
        QTimer::singleShot(call->pollDelayMs, this, [this, call] { pollStatus(call); });
        call->pollDelayMs = std::min(call->pollDelayMs * 2, 1000);
        return;
    }
}

void ApiClient::pollStatus(const std::shared_ptr<StatementCall>& call) {
    if (!call->reply)
        return;
    if (call->deadline.hasExpired()) {
        call->reply->reject(
            {ApiError::Kind::Timeout, QStringLiteral("The statement did not finish within %1 s (request %2)")
                                          .arg(std::chrono::duration<double>(m_statementTimeout).count())
                                          .arg(call->requestId)});
        return;
    }
    sendGet(QStringLiteral("/v1/status/") + call->requestId, {}, m_requestTimeout, true,
            [this, call](const HttpResult& r) {
                if (!call->reply)
                    return;
                if (r.error) {
                    // Reading a status is harmless to repeat; a lost answer is retried until the deadline.
                    const bool lost =
                        r.error->kind == ApiError::Kind::Network || r.error->kind == ApiError::Kind::Timeout;
                    if (lost && !call->deadline.hasExpired()) {
                        QTimer::singleShot(500, this, [this, call] { pollStatus(call); });
                        return;
                    }
                    call->reply->reject(*r.error);
                    return;
                }
                parseStatus(call, r, [this, call](json body) { handleStatus(call, std::move(body)); });
            });
}

template <class R, class Done> void ApiClient::whenDone(QObject* context, QFuture<R> future, Done done) {
    // The watcher belongs to context: when context is deleted first, done() is never called.
    auto* watcher = new QFutureWatcher<R>(context);
    connect(watcher, &QFutureWatcherBase::finished, context, [watcher, done = std::move(done)]() mutable {
        watcher->deleteLater();
        done(watcher->future().takeResult());
    });
    watcher->setFuture(std::move(future));
}

template <class R, class Work, class Done> void ApiClient::offThread(QObject* context, Work work, Done done) {
    whenDone<R>(context, QtConcurrent::run(&m_decoder, std::move(work)), std::move(done));
}

void ApiClient::parseStatus(const std::shared_ptr<StatementCall>& call, const HttpResult& result,
                            std::function<void(json)> next) {
    auto done = [call, next = std::move(next)](json body) {
        if (!body.is_object()) {
            call->reply->reject(
                {ApiError::Kind::Protocol, QStringLiteral("The service answered with invalid JSON")});
            return;
        }
        next(std::move(body));
    };
    offThread<json>(
        call->reply,
        [bytes = result.body, readItems = call->readItems] {
            return json::parse(bytes.begin(), bytes.end(), readItems, false);
        },
        std::move(done));
}

namespace {

// What a conversion on the decoder thread hands back: the value, or the exception's message.
template <class T> struct Converted final {
    std::optional<T> value;
    QString error;
};

} // namespace

template <class T, class Convert> ApiReply<T>* ApiClient::mapped(ApiReply<json>* raw, Convert convert) {
    auto* out = new ApiReply<T>(this);
    raw->then(out, [this, out, convert = std::move(convert)](ApiReply<json>& r) {
        if (r.isError()) {
            out->reject(r.error());
            return;
        }
        // The answer moves to the decoder and is freed there too (freeing 100,000 jobs' DOM takes time).
        offThread<Converted<T>>(
            out,
            [response = r.takeValue(), convert]() -> Converted<T> {
                try {
                    return {convert(response), {}};
                } catch (const std::exception& e) {
                    return {std::nullopt, QString::fromUtf8(e.what())};
                }
            },
            [out](Converted<T> c) {
                if (c.value)
                    out->resolve(std::move(*c.value));
                else
                    out->reject({ApiError::Kind::Protocol,
                                 QStringLiteral("Unexpected answer from the service: %1").arg(c.error)});
            });
    });
    return out;
}

ApiReply<json>* ApiClient::createJob(const CreateJobStatement& statement) {
    return execute(statement);
}
ApiReply<json>* ApiClient::alterJob(const AlterJobStatement& statement) {
    return execute(statement);
}
ApiReply<json>* ApiClient::deleteJob(const QString& name) {
    return execute(DeleteJobStatement{toStd(name)});
}

ApiReply<SparkJob>* ApiClient::describeJob(const QString& name) {
    return mapped<SparkJob>(execute(DescribeJobStatement{toStd(name)}), [](const json& r) {
        return member(r, "describeJobApiResponse", "sparkJob").get<SparkJob>();
    });
}

ApiReply<std::vector<SparkJob>>* ApiClient::showJobs() {
    return mapped<std::vector<SparkJob>>(execute(ShowJobsStatement{}), [](const json& r) {
        return member(r, "showJobsApiResponse", "sparkJobs").get<std::vector<SparkJob>>();
    });
}

ApiReply<std::vector<SparkJobSummary>>* ApiClient::showJobSummaries(std::optional<std::int64_t> limit) {
    // Each summary is decoded as soon as it is parsed, never held as JSON beside the others.
    auto jobs = std::make_shared<ListItemReader<SparkJobSummary>>(
        std::vector<std::string>{"apiResponse", "showJobsSummaryApiResponse", "jobs"});
    const Statement statement = ShowJobsStatement{true, limit};
    return mapped<std::vector<SparkJobSummary>>(
        executeText(printStatement(statement), {}, false, ListItemReader<SparkJobSummary>::callback(jobs)),
        [jobs](const json& r) {
            if (!member(r, "showJobsSummaryApiResponse", "jobs").is_array())
                throw std::runtime_error("the answer's 'showJobsSummaryApiResponse.jobs' is not a list");
            return jobs->take();
        });
}

ApiReply<QString>*
ApiClient::runJob(const QString& name,
                  const std::vector<std::pair<std::string, std::string>>& argumentOverrides,
                  QString idempotencyKey) {
    if (idempotencyKey.isEmpty())
        idempotencyKey = newIdempotencyKey();
    return mapped<QString>(
        execute(RunJobStatement{toStd(name), argumentOverrides}, idempotencyKey), [](const json& r) {
            return QString::fromStdString(member(r, "runJobApiResponse", "jobRunId").get<std::string>());
        });
}

ApiReply<SparkJobRun>* ApiClient::describeJobRun(const QString& runId, const QString& jobName) {
    return mapped<SparkJobRun>(
        execute(DescribeJobRunStatement{toStd(runId), toStd(jobName)}), [](const json& r) {
            return member(r, "describeJobRunApiResponse", "sparkJobRun").get<SparkJobRun>();
        });
}

ApiReply<json>* ApiClient::cancelJobRun(const QString& runId, const QString& jobName) {
    return execute(CancelJobRunStatement{toStd(runId), toStd(jobName)});
}

ApiReply<std::vector<SparkJobRun>>* ApiClient::showJobRuns(const ShowJobRunsStatement& statement) {
    return mapped<std::vector<SparkJobRun>>(execute(statement), [](const json& r) {
        return member(r, "showJobRunsApiResponse", "sparkJobRuns").get<std::vector<SparkJobRun>>();
    });
}

ApiReply<json>* ApiClient::createCluster(const CreateClusterStatement& statement) {
    return execute(statement);
}
ApiReply<json>* ApiClient::alterCluster(const AlterClusterStatement& statement) {
    return execute(statement);
}
ApiReply<json>* ApiClient::deleteCluster(const QString& name) {
    return execute(DeleteClusterStatement{toStd(name)});
}

ApiReply<Cluster>* ApiClient::describeCluster(const QString& name) {
    return mapped<Cluster>(execute(DescribeClusterStatement{toStd(name)}), [](const json& r) {
        return member(r, "describeClusterApiResponse", "cluster").get<Cluster>();
    });
}

ApiReply<std::vector<Cluster>>* ApiClient::showClusters() {
    return mapped<std::vector<Cluster>>(execute(ShowClustersStatement{}), [](const json& r) {
        return member(r, "showClustersApiResponse", "clusters").get<std::vector<Cluster>>();
    });
}

ApiReply<Project>* ApiClient::describeProject() {
    return mapped<Project>(execute(DescribeProjectStatement{}), [](const json& r) {
        return member(r, "describeProjectApiResponse", "project").get<Project>();
    });
}

ApiReply<json>* ApiClient::alterProject(const AlterProjectStatement& statement) {
    return execute(statement);
}

ApiReply<EventsPage>* ApiClient::events(qint64 after, int waitSeconds) {
    auto* reply = new ApiReply<EventsPage>(this);
    QPointer<ApiReply<EventsPage>> guard(reply);
    sendGet(QStringLiteral("/v1/events"),
            {{QStringLiteral("after"), QString::number(after)},
             {QStringLiteral("wait"), QString::number(waitSeconds)}},
            std::chrono::seconds(waitSeconds) + m_requestTimeout, true, [guard](const HttpResult& r) {
                if (!guard)
                    return;
                if (r.error) {
                    guard->reject(*r.error);
                    return;
                }
                try {
                    guard->resolve(json::parse(r.body.begin(), r.body.end()).get<EventsPage>());
                } catch (const std::exception& e) {
                    guard->reject(
                        {ApiError::Kind::Protocol,
                         QStringLiteral("Unreadable events page: %1").arg(QString::fromUtf8(e.what()))});
                }
            });
    return reply;
}

ApiReply<LogChunk>* ApiClient::runLog(const QString& jobName, const QString& runId, qint64 offset,
                                      qint64 limit) {
    auto* reply = new ApiReply<LogChunk>(this);
    QPointer<ApiReply<LogChunk>> guard(reply);
    const QString path = QStringLiteral("/v1/jobs/%1/runs/%2/log")
                             .arg(QString::fromUtf8(QUrl::toPercentEncoding(jobName)),
                                  QString::fromUtf8(QUrl::toPercentEncoding(runId)));
    sendGet(path,
            {{QStringLiteral("offset"), QString::number(offset)},
             {QStringLiteral("limit"), QString::number(limit)}},
            m_requestTimeout, true, [guard, offset](const HttpResult& r) {
                if (!guard)
                    return;
                if (r.error) {
                    guard->reject(*r.error);
                    return;
                }
                LogChunk chunk;
                chunk.data = r.body;
                bool ok = false;
                chunk.nextOffset = r.reply->rawHeader("X-Log-Next-Offset").toLongLong(&ok);
                if (!ok)
                    chunk.nextOffset = offset + r.body.size();
                chunk.complete = r.reply->rawHeader("X-Log-Complete").trimmed().toLower() == "true";
                guard->resolve(std::move(chunk));
            });
    return reply;
}

ApiReply<QString>* ApiClient::health(std::chrono::milliseconds timeout) {
    auto* reply = new ApiReply<QString>(this);
    QPointer<ApiReply<QString>> guard(reply);
    sendGet(QStringLiteral("/v1/health"), {}, timeout, false, [guard](const HttpResult& r) {
        if (!guard)
            return;
        if (r.error) {
            guard->reject(*r.error);
            return;
        }
        const json body = json::parse(r.body.begin(), r.body.end(), nullptr, false);
        if (!body.is_object() || body.value("status", std::string()) != "ok") {
            guard->reject(
                {ApiError::Kind::Protocol, QStringLiteral("The service's health answer is not ok")});
            return;
        }
        guard->resolve(QString::fromStdString(body.value("version", std::string())));
    });
    return reply;
}

} // namespace jobdeck
