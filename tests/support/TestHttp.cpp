#include "tests/support/TestHttp.h"

#include <QBuffer>
#include <QDeadlineTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTcpSocket>
#include <QTimer>

#include <memory>

namespace jobdeck {

namespace {

QNetworkAccessManager& manager() {
    // One per thread, so kept-alive connections are reused across requests of a test.
    thread_local std::unique_ptr<QNetworkAccessManager> instance;
    if (!instance) {
        instance = std::make_unique<QNetworkAccessManager>();
        instance->setProxy(QNetworkProxy::NoProxy);
    }
    return *instance;
}

// How many complete HTTP answers (with Content-Length bodies) `raw` holds.
int completeResponses(const QByteArray& raw) {
    int count = 0;
    qsizetype at = 0;
    while (true) {
        const qsizetype headerEnd = raw.indexOf("\r\n\r\n", at);
        if (headerEnd < 0)
            return count;
        qsizetype length = 0;
        for (const QByteArray& line : raw.mid(at, headerEnd - at).split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == "content-length")
                length = line.mid(colon + 1).trimmed().toLongLong();
        }
        if (raw.size() < headerEnd + 4 + length)
            return count;
        at = headerEnd + 4 + length;
        ++count;
    }
}

} // namespace

QByteArray HttpResult::header(const QByteArray& name) const {
    for (const auto& [key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

nlohmann::json HttpResult::json() const {
    return nlohmann::json::parse(body.toStdString(), nullptr, false);
}

HttpResult request(const QUrl& url, const QByteArray& method, const QByteArray& body,
                   const HttpHeaders& headers, int timeoutMs) {
    QNetworkRequest networkRequest(url);
    networkRequest.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    networkRequest.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                                QNetworkRequest::ManualRedirectPolicy);
    if (!body.isEmpty())
        networkRequest.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto& [name, value] : headers)
        networkRequest.setRawHeader(name, value);

    QNetworkReply* reply = body.isEmpty() && method != "POST" && method != "PUT"
                               ? manager().sendCustomRequest(networkRequest, method)
                               : manager().sendCustomRequest(networkRequest, method, body);
    QEventLoop loop;
    QTimer timer;
    timer.setSingleShot(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();

    HttpResult result;
    if (!reply->isFinished()) {
        reply->abort();
        result.error = QStringLiteral("timed out after %1 ms").arg(timeoutMs);
    } else {
        result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        result.headers = reply->rawHeaderPairs();
        result.body = reply->readAll();
        if (result.status == 0)
            result.error = reply->errorString();
    }
    reply->deleteLater();
    return result;
}

nlohmann::json runStatement(const TestService& service, const ApiCredentials& credentials,
                            const QString& statement, const HttpHeaders& extraHeaders) {
    HttpHeaders headers = credentials.headers();
    headers.append({QByteArrayLiteral("Prefer"), QByteArrayLiteral("wait=10")});
    headers += extraHeaders;
    const std::string body = nlohmann::json{{"statement", statement.toStdString()}}.dump();
    const HttpResult result = request(service.url(QStringLiteral("/v1/resource/")), "POST",
                                      QByteArray::fromStdString(body), headers, 15000);
    nlohmann::json status = result.json();
    if (result.status == 200 && status.is_object() && status.contains("apiStatus"))
        return status;
    return nlohmann::json{{"httpStatus", result.status},
                          {"error", result.error.toStdString()},
                          {"body", result.body.toStdString()}};
}

bool statementSucceeds(const TestService& service, const ApiCredentials& credentials,
                       const QString& statement) {
    const nlohmann::json status = runStatement(service, credentials, statement);
    if (status.value("apiStatus", std::string()) == "API_OPERATION_STATUS_SUCCESS")
        return true;
    qWarning("%s -> %s", qPrintable(statement), status.dump().c_str());
    return false;
}

QByteArray rawExchange(quint16 port, const QByteArray& bytes, int timeoutMs, int expectedResponses) {
    QTcpSocket socket;
    socket.setProxy(QNetworkProxy::NoProxy);
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    const QDeadlineTimer deadline(timeoutMs);
    if (!socket.waitForConnected(static_cast<int>(deadline.remainingTime())))
        return {};
    // Write in slices so a server that answers early (413) and closes is noticed.
    qsizetype sent = 0;
    QByteArray received;
    while (sent < bytes.size() && socket.state() == QAbstractSocket::ConnectedState &&
           !deadline.hasExpired()) {
        const qsizetype n =
            socket.write(bytes.constData() + sent, std::min<qsizetype>(64 * 1024, bytes.size() - sent));
        if (n < 0)
            break;
        sent += n;
        socket.waitForBytesWritten(static_cast<int>(std::max<qint64>(1, deadline.remainingTime())));
        received += socket.readAll();
    }
    while (completeResponses(received) < expectedResponses && !deadline.hasExpired()) {
        if (!socket.waitForReadyRead(static_cast<int>(std::max<qint64>(1, deadline.remainingTime()))))
            break;
        received += socket.readAll();
    }
    received += socket.readAll();
    return received;
}

int rawStatus(const QByteArray& raw) {
    if (!raw.startsWith("HTTP/1."))
        return 0;
    return raw.mid(9, 3).toInt();
}

namespace teststatus {

const std::string kSuccess = "API_OPERATION_STATUS_SUCCESS";
const std::string kFailed = "API_OPERATION_STATUS_FAILED";
const std::string kInvalid = "API_OPERATION_STATUS_INVALID";

std::string statusOf(const nlohmann::json& status) {
    return status.value("apiStatus", status.dump());
}

std::string errorOf(const nlohmann::json& status) {
    return status.value("errorMessage", std::string());
}

} // namespace teststatus

} // namespace jobdeck
