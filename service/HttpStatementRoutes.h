#pragma once

#include "service/HttpServer.h"

#include <chrono>

namespace jobdeck {

class RequestRegistry;
class StatementExecutor;

// The statement API of CONTRACT §1: POST /v1/resource/ (with `Prefer: wait=<seconds>`) and
// GET /v1/status/<requestId>. Statements run on the server's worker pool, never on IO threads.
class HttpStatementRoutes final {
public:
    // Longest `Prefer: wait` honoured; longer ones are cut to it.
    static constexpr std::chrono::seconds kMaxWait{60};

    HttpStatementRoutes(StatementExecutor& executor, RequestRegistry& registry, HttpServer& server);

    // Adds the two routes to the server given at construction.
    void registerRoutes();

private:
    void submit(const HttpRequest& request, const Principal& principal, Responder respond);
    void status(const HttpRequest& request, const Principal& principal, Responder respond);

    StatementExecutor& m_executor;
    RequestRegistry& m_registry;
    HttpServer& m_server;
};

} // namespace jobdeck
