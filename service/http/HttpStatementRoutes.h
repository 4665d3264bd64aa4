#pragma once

#include "service/http/HttpServer.h"

#include "service/statements/RequestRegistry.h"
#include "service/statements/StatementExecutor.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace jobdeck {

// The statement API of CONTRACT §1: POST /v1/resource/ (with `Prefer: wait=<seconds>`) and
// GET /v1/status/<requestId>. Both routes start on the IO thread; only quick reads answered at once
// (StatementExecutor::isQuickRead with `Prefer: wait`, a status in memory or final in the database)
// finish there, the rest goes to the server's worker pool. A GET of a PENDING request is held up to
// `statusHold` (or its own `Prefer: wait`) for the final status, so that a client that polls once
// right after the POST and then sleeps long (the Airflow hook: 10 s) gets the answer at that first
// poll; the hold is a timer of RequestRegistry::waitFor, never a thread.
class HttpStatementRoutes final {
public:
    // Longest `Prefer: wait` honoured; longer ones are cut to it.
    static constexpr std::chrono::seconds kMaxWait{60};

    HttpStatementRoutes(StatementExecutor& executor, RequestRegistry& registry, HttpServer& server,
                        std::chrono::seconds statusHold = std::chrono::seconds(2));

    // Adds the two routes to the server given at construction.
    void registerRoutes();

    // The statement of a POST /v1/resource/ body, or the 400 refusing the body (not JSON, not an
    // object, no string "statement", a key repeated at the top level).
    static std::variant<std::string, HttpResponse> readStatement(std::string_view body);
    // The x-onehouse-* headers the audit log records, as valid UTF-8.
    static std::map<std::string, std::string> auditedHeaders(const HttpRequest& request);

private:
    void submit(const HttpRequest& request, const RequestContext& authenticated, Responder respond);
    void status(const HttpRequest& request, const RequestContext& authenticated, Responder respond);
    // Answers the request's status once it is final, or PENDING after `hold`.
    void holdPending(const std::string& projectUid, const std::string& requestId, std::chrono::seconds hold,
                     bool preferred, const Responder& respond);
    void submitOnWorker(const RequestContext& context, const std::string& statement,
                        std::optional<std::chrono::seconds> wait, const Responder& respond);
    // A write other than RUN JOB whose Idempotency-Key was seen within RepeatedWrites::kWindow: answered
    // with the first request's id and status (or 400 when the key came with another statement), and
    // true. Otherwise false (context.writeKeyHash set for a first write with a key).
    bool answeredAsRepeat(RequestContext& context, const std::string& statement,
                          std::optional<std::chrono::seconds> wait, const Responder& respond);
    struct Outcome {
        StatusJson status;
        RequestRegistry::Stored stored = RequestRegistry::Stored::Yes;
    };
    // Never throws: an unexpected failure becomes a FAILED status that is not stored.
    Outcome execute(const RequestContext& context, const std::string& statement);
    RequestRegistry::Durability ackDurability(std::string_view statement);
    // execute() and record the final status.
    void run(const RequestContext& context, const std::string& statement);

    StatementExecutor& m_executor;
    RequestRegistry& m_registry;
    HttpServer& m_server;
    const std::chrono::seconds m_statusHold;
};

} // namespace jobdeck
