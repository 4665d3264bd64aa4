#pragma once

#include "service/http/HttpServer.h"

#include "service/statements/RequestLifecycle.h"

#include <chrono>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace jobdeck {

class RequestRegistry;
class StatementExecutor;

// The statement API of CONTRACT §1 over HTTP: POST /v1/resource/ (with `Prefer: wait=<seconds>` and an
// optional Idempotency-Key) and GET /v1/status/<requestId>. The routes read the request (path, body,
// headers), hand it to RequestLifecycle, which owns the request from its id to its answer, and write the
// answer it gives. Both start on the IO thread; RequestLifecycle says what may be answered there. A GET
// of a PENDING request is held up to `statusHold` (or its own `Prefer: wait`) for the final status, so
// that a client that polls once right after the POST and then sleeps long (the Airflow hook: 10 s) gets
// the answer at that first poll.
class HttpStatementRoutes final {
public:
    // Longest `Prefer: wait` honoured; longer ones are cut to it.
    static constexpr std::chrono::seconds kMaxWait{60};

    HttpStatementRoutes(StatementExecutor& executor, RequestRegistry& registry, HttpServer& server,
                        std::chrono::seconds statusHold = std::chrono::seconds(2));

    // Adds the two routes to the server given at construction.
    void registerRoutes();
    // Once the server stopped: waits for the statements under way to end.
    void stop() { m_lifecycle.stop(); }

    // The statement of a POST /v1/resource/ body, or the 400 refusing the body (not JSON, not an
    // object, no string "statement", a key repeated at the top level).
    static std::variant<std::string, HttpResponse> readStatement(std::string_view body);
    // The x-onehouse-* headers the audit log records, as valid UTF-8.
    static std::map<std::string, std::string> auditedHeaders(const HttpRequest& request);

private:
    void submit(const HttpRequest& request, const RequestContext& authenticated, Responder respond);
    void status(const HttpRequest& request, const RequestContext& authenticated, Responder respond);

    HttpServer& m_server;
    RequestLifecycle m_lifecycle;
};

} // namespace jobdeck
