#pragma once

#include "tests/support/TestService.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

#include <string>

namespace jobdeck {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

struct HttpResult final {
    int status = 0; // 0: no HTTP answer (see error)
    QString error;  // transport error, empty when an answer arrived
    HttpHeaders headers;
    QByteArray body;

    // Case-insensitive; empty when absent.
    QByteArray header(const QByteArray& name) const;
    // The body as JSON; a discarded value when it is not JSON.
    nlohmann::json json() const;
};

// One blocking request through QNetworkAccessManager (no proxy), bounded by timeoutMs.
HttpResult request(const QUrl& url, const QByteArray& method, const QByteArray& body = {},
                   const HttpHeaders& headers = {}, int timeoutMs = 10000);

// POST /v1/resource/ {"statement": ...} with `Prefer: wait=10` and the credentials; returns the final
// status object. On a transport or HTTP failure the object has no "apiStatus" but "httpStatus",
// "error" and "body", so QCOMPARE on apiStatus fails with the reason visible.
nlohmann::json runStatement(const TestService& service, const ApiCredentials& credentials,
                            const QString& statement, const HttpHeaders& extraHeaders = {});
// runStatement() for set-up steps: true on SUCCESS, otherwise false with the statement and the answer
// printed.
bool statementSucceeds(const TestService& service, const ApiCredentials& credentials,
                       const QString& statement);

// Sends `bytes` as they are over a new loopback TCP connection and returns everything received
// until the server closes the connection, `expectedResponses` HTTP answers have arrived, or the
// timeout. For what QNetworkAccessManager will not send (bad framing, huge headers, pipelining).
QByteArray rawExchange(quint16 port, const QByteArray& bytes, int timeoutMs = 10000,
                       int expectedResponses = 1);

// The status code of the first HTTP answer in `raw` (0 when none).
int rawStatus(const QByteArray& raw);

// Reading status objects in the statement suites (`using namespace jobdeck::teststatus;`); a namespace
// of its own so the run suites' own helpers of the same names stay unambiguous.
namespace teststatus {

extern const std::string kSuccess;
extern const std::string kFailed;
extern const std::string kInvalid;

// apiStatus, or the whole object when it has none (so a failed comparison shows what came back).
std::string statusOf(const nlohmann::json& status);
// errorMessage, empty when absent.
std::string errorOf(const nlohmann::json& status);

} // namespace teststatus

} // namespace jobdeck
