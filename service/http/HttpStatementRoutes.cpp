#include "service/http/HttpStatementRoutes.h"

#include "core/policy/IdempotencyKey.h"
#include "core/statements/StatementRefusals.h"
#include "core/text/Utf8.h"
#include "core/wire/DatabaseFaults.h"
#include "service/statements/RequestRegistry.h"
#include "service/statements/StatementExecutor.h"
#include "service/stores/DatabaseFaultError.h"

#include <boost/asio/post.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <exception>
#include <utility>
#include <vector>

namespace jobdeck {

namespace {

std::string dumpJson(const nlohmann::json& value) {
    // Statements may carry invalid UTF-8 that error messages quote; replace it, never throw.
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// `Prefer: wait=<seconds>` (RFC 7240), among other preferences; nullopt when absent or unusable,
// which RFC 7240 says to ignore.
std::optional<std::chrono::seconds> preferredWait(std::string_view prefer) {
    while (!prefer.empty()) {
        const std::size_t end = prefer.find_first_of(",;");
        const std::string_view item = trim(prefer.substr(0, end));
        prefer = end == std::string_view::npos ? std::string_view{} : prefer.substr(end + 1);
        if (item.size() <= 5 || item.substr(0, 5) != "wait=")
            continue;
        const std::string_view digits = item.substr(5);
        long long seconds = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
        if (ec != std::errc{} || ptr != digits.data() + digits.size() || seconds < 0)
            continue;
        return std::chrono::seconds(std::min<long long>(seconds, HttpStatementRoutes::kMaxWait.count()));
    }
    return std::nullopt;
}

// The "statement" field of a request body, read without building a JSON tree: the same grammar as
// nlohmann::json::parse. A key repeated at the top level stops the reading: which of two statements
// was meant is not for the service to guess.
class StatementField final : public nlohmann::json_sax<nlohmann::json> {
public:
    bool isObject = false; // the body is a JSON object
    bool found = false;    // with a "statement" field
    bool isString = false; // whose value is a string
    std::string statement;
    std::optional<std::string> repeatedKey; // the first top-level key seen twice

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool string(string_t& text) override {
        if (m_statementNext)
            statement = std::move(text);
        const bool wanted = m_statementNext;
        value();
        isString = isString || wanted;
        return true;
    }
    bool start_object(std::size_t) override {
        isObject = isObject || m_depth == 0;
        value();
        ++m_depth;
        return true;
    }
    bool key(string_t& name) override {
        if (m_depth == 1) {
            if (std::find(m_keys.begin(), m_keys.end(), name) != m_keys.end()) {
                repeatedKey = name;
                return false;
            }
            m_keys.push_back(name);
        }
        m_statementNext = m_depth == 1 && name == "statement";
        return true;
    }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override {
        value();
        ++m_depth;
        return true;
    }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false;
    }

private:
    // A value begins: when it is the statement's, it replaces what an earlier one said.
    bool value() {
        if (m_statementNext) {
            found = true;
            isString = false;
            m_statementNext = false;
        }
        return true;
    }
    bool leave() {
        --m_depth;
        return true;
    }

    std::size_t m_depth = 0;
    bool m_statementNext = false;
    std::vector<std::string> m_keys; // at the top level; a body has few
};

// The answer to a statement sent with `Prefer: wait`: its status (final or PENDING) with its id, and
// the wait applied.
HttpResponse waitedAnswer(const StatusJson& status, const std::string& requestId, std::chrono::seconds wait) {
    HttpResponse response;
    auto answer = status.withRequestId(requestId);
    response.bodyOwner = std::move(answer.text);
    response.sharedBody = answer.head;
    response.body = std::move(answer.tail);
    response.headers.emplace_back("Preference-Applied", "wait=" + std::to_string(wait.count()));
    return response;
}

// A request whose id could not be put on disk: the client gets no id that a restart would forget. A
// group commit's callback knows only that the write failed: a full disk or a timeout just seen is why.
HttpResponse notRecorded(DatabaseFault fault = DatabaseFaultError::recentFault()) {
    return HttpResponse::error(503, requestNotRecordedMessage(fault));
}

// `wait`: the `Prefer: wait` of the GET, said to be applied.
void answerStatus(const std::optional<StatusJson>& status, const std::string& notFound,
                  const Responder& respond, std::optional<std::chrono::seconds> wait = std::nullopt) {
    if (!status) {
        respond(HttpResponse::error(404, notFound));
        return;
    }
    HttpResponse response;
    const auto text = status->sharedText();
    response.sharedBody = *text;
    response.bodyOwner = text;
    if (wait)
        response.headers.emplace_back("Preference-Applied", "wait=" + std::to_string(wait->count()));
    respond(std::move(response));
}

} // namespace

HttpStatementRoutes::HttpStatementRoutes(StatementExecutor& executor, RequestRegistry& registry,
                                         HttpServer& server, std::chrono::seconds statusHold)
    : m_executor(executor)
    , m_registry(registry)
    , m_server(server)
    , m_statusHold(std::min(statusHold, kMaxWait)) {}

void HttpStatementRoutes::registerRoutes() {
    auto submit = [this](const HttpRequest& request, const RequestContext& authenticated, Responder respond) {
        this->submit(request, authenticated, std::move(respond));
    };
    m_server.addAuthenticatedRoute("POST", "/v1/resource", submit, RoutePlacement::IoThread);
    m_server.addAuthenticatedRoute(
        "GET", "/v1/status/",
        [this](const HttpRequest& request, const RequestContext& authenticated, Responder respond) {
            this->status(request, authenticated, std::move(respond));
        },
        RoutePlacement::IoThread);
}

void HttpStatementRoutes::submit(const HttpRequest& request, const RequestContext& authenticated,
                                 Responder respond) {
    if (request.path != "/v1/resource" && request.path != "/v1/resource/") {
        respond(HttpResponse::error(404, "Not found: " + request.path));
        return;
    }
    auto read = readStatement(request.body);
    if (auto* refusal = std::get_if<HttpResponse>(&read)) {
        respond(std::move(*refusal));
        return;
    }

    RequestContext context = authenticated;
    if (request.hasHeader("idempotency-key")) {
        const std::string key(request.header("idempotency-key"));
        if (const auto problem = idempotencyKeyHeaderProblem(key)) {
            respond(HttpResponse::error(400, *problem));
            return;
        }
        context.idempotencyKey = key;
    }
    context.clientHeaders = auditedHeaders(request);
    std::string statement = std::move(std::get<std::string>(read));
    const auto wait = preferredWait(request.header("prefer"));
    if (wait && m_executor.isQuickRead(statement)) {
        // Answered where it runs, with no hand-off; the status is recorded before the answer leaves.
        // Nobody has the id before that, so it is never PENDING in the registry.
        context.requestId = RequestRegistry::newId();
        Outcome outcome = execute(context, statement);
        HttpResponse response = waitedAnswer(outcome.status, context.requestId, *wait);
        m_registry.finish(context.principal.projectUid, context.requestId, outcome.status, outcome.stored);
        respond(std::move(response));
        return;
    }
    // Registered before its key is claimed, so a repeat that finds the claim finds the request too.
    context.requestId = m_registry.begin(authenticated.principal.projectUid);
    // Claiming a key writes to the database: never on an IO thread, which a stalled database would hold.
    auto claimAndRun = [this, context = std::move(context), statement = std::move(statement), wait,
                        respond = std::move(respond)]() mutable {
        try {
            if (context.idempotencyKey && answeredAsRepeat(context, statement, wait, respond))
                return;
        } catch (const std::exception& e) {
            // The key could not be claimed: nothing runs, and nobody has the request's id.
            spdlog::error("could not claim the Idempotency-Key of request {}: {}", context.requestId,
                          e.what());
            m_registry.abandon(context.principal.projectUid, context.requestId);
            respond(notRecorded(DatabaseFaultError::faultOf(e)));
            return;
        }
        submitOnWorker(context, statement, wait, respond);
    };
    if (HttpServer::onIoThread())
        boost::asio::post(m_server.workers(), std::move(claimAndRun));
    else
        claimAndRun();
}

bool HttpStatementRoutes::answeredAsRepeat(RequestContext& context, const std::string& statement,
                                           std::optional<std::chrono::seconds> wait,
                                           const Responder& respond) {
    const auto claim = m_executor.claimIdempotencyKey(context, statement);
    using Kind = RepeatedWrites::Claim::Kind;
    if (claim.kind == Kind::First)
        return false;
    m_registry.abandon(context.principal.projectUid, context.requestId); // nobody was given its id
    if (claim.kind == Kind::Conflict) {
        respond(HttpResponse::error(400, RepeatedWrites::conflictMessage(*context.idempotencyKey)));
        return true;
    }
    // The first request's answer, as it would be polled: reading it may commit queued writes (a worker's).
    auto answer = [this, projectUid = context.principal.projectUid, requestId = claim.requestId, wait,
                   respond] {
        if (!wait) {
            m_registry.acknowledge(projectUid, requestId, RequestRegistry::Durability::Durable);
            respond(HttpResponse::json(dumpJson({{"requestId", requestId}})));
            return;
        }
        m_registry.waitFor(
            projectUid, requestId, *wait, [this, projectUid, requestId, wait, respond](StatusJson status) {
                if (status.isFinal()) {
                    respond(waitedAnswer(status, requestId, *wait));
                    return;
                }
                boost::asio::post(m_server.workers(), [this, projectUid, requestId, wait, respond, status] {
                    m_registry.acknowledge(projectUid, requestId, RequestRegistry::Durability::Durable);
                    respond(waitedAnswer(status, requestId, *wait));
                });
            });
    };
    boost::asio::post(m_server.workers(), [answer = std::move(answer), respond] {
        try {
            answer();
        } catch (const std::exception& e) {
            spdlog::error("could not answer a repeated write: {}", e.what());
            respond(HttpResponse::error(
                503, "The service could not read the first answer to this Idempotency-Key; try again"));
        }
    });
    return true;
}

std::variant<std::string, HttpResponse> HttpStatementRoutes::readStatement(std::string_view body) {
    StatementField field;
    if (!nlohmann::json::sax_parse(body, &field)) {
        if (field.repeatedKey)
            return HttpResponse::error(400, "The request body has the key \"" +
                                                field.repeatedKey->substr(0, 64) +
                                                "\" more than once; send each key once");
        return HttpResponse::error(400, "Malformed JSON in the request body");
    }
    if (!field.isObject || !field.found)
        return HttpResponse::error(400, "The request body must be a JSON object with a \"statement\" field");
    if (!field.isString)
        return HttpResponse::error(400, "The \"statement\" field must be a string");
    return std::move(field.statement);
}

std::map<std::string, std::string> HttpStatementRoutes::auditedHeaders(const HttpRequest& request) {
    std::map<std::string, std::string> headers;
    // Recorded as sent, except bytes that are not UTF-8 (U+FFFD instead): the audit log is JSON,
    // and one client's header must never keep another's entries from being written.
    for (const char* name :
         {"x-onehouse-account-uid", "x-onehouse-link-uid", "x-onehouse-region", "x-onehouse-uuid"})
        if (request.hasHeader(name))
            headers[name] = replaceInvalidUtf8(request.header(name));
    return headers;
}

HttpStatementRoutes::Outcome HttpStatementRoutes::execute(const RequestContext& context,
                                                          const std::string& statement) {
    Outcome outcome;
    try {
        StatementExecutor::StatusRecord record = StatementExecutor::StatusRecord::Committed;
        outcome.status = m_executor.execute(context, statement, &record);
        if (record == StatementExecutor::StatusRecord::NotStored)
            outcome.stored = RequestRegistry::Stored::OnlyIfAcknowledged;
    } catch (const std::exception& e) {
        spdlog::error("request {} failed unexpectedly: {}", context.requestId, e.what());
        outcome.status = StatusJson(ApiStatus::failed(internalErrorMessage()));
        outcome.stored = RequestRegistry::Stored::No;
    }
    return outcome;
}

RequestRegistry::Durability HttpStatementRoutes::ackDurability(std::string_view statement) {
    // Only a read's PENDING acknowledgement may wait for the next group commit: it changes nothing.
    return m_executor.isReadStatement(statement) ? RequestRegistry::Durability::Deferred
                                                 : RequestRegistry::Durability::Durable;
}

void HttpStatementRoutes::run(const RequestContext& context, const std::string& statement) {
    Outcome outcome = execute(context, statement);
    m_registry.finish(context.principal.projectUid, context.requestId, outcome.status, outcome.stored);
}

void HttpStatementRoutes::submitOnWorker(const RequestContext& context, const std::string& statement,
                                         std::optional<std::chrono::seconds> wait, const Responder& respond) {
    const std::string& requestId = context.requestId;
    const std::string& projectUid = context.principal.projectUid;
    if (!wait) {
        // The id is handed out only once it is on disk, so that it is answered after any restart.
        try {
            m_registry.acknowledge(
                projectUid, requestId, ackDurability(statement), [respond, requestId](bool recorded) {
                    respond(recorded ? HttpResponse::json(dumpJson({{"requestId", requestId}}))
                                     : notRecorded());
                });
        } catch (const std::exception& e) {
            // A write's PENDING row could not be committed: it does not run, and nobody has its id.
            spdlog::error("could not record request {}: {}", requestId, e.what());
            respond(notRecorded(DatabaseFaultError::faultOf(e)));
            m_registry.finish(projectUid, requestId,
                              StatusJson(ApiStatus::failed(requestNotRecordedMessage())),
                              RequestRegistry::Stored::OnlyIfAcknowledged);
            return;
        }
        run(context, statement);
        return;
    }
    m_registry.waitFor(projectUid, requestId, *wait,
                       [this, respond, projectUid, requestId, wait, statement](const StatusJson& status) {
                           auto answer = [respond, requestId, wait](const StatusJson& final) {
                               respond(waitedAnswer(final, requestId, *wait));
                           };
                           if (status.isFinal()) {
                               answer(status);
                               return;
                           }
                           // The wait ran out (on a timer thread): record the id off the IO threads, then
                           // answer.
                           boost::asio::post(m_server.workers(), [this, answer, respond, projectUid,
                                                                  requestId, statement, status] {
                               try {
                                   m_registry.acknowledge(projectUid, requestId, ackDurability(statement),
                                                          [answer, respond, status](bool recorded) {
                                                              if (recorded)
                                                                  answer(status);
                                                              else
                                                                  respond(notRecorded());
                                                          });
                               } catch (const std::exception& e) {
                                   spdlog::error("could not record pending request {}: {}", requestId,
                                                 e.what());
                                   respond(notRecorded());
                               }
                           });
                       });
    run(context, statement);
}

void HttpStatementRoutes::status(const HttpRequest& request, const RequestContext& authenticated,
                                 Responder respond) {
    const Principal& principal = authenticated.principal;
    std::string requestId = request.path.substr(std::string_view("/v1/status/").size());
    if (requestId.empty() || requestId.find('/') != std::string::npos || !isQueryableText(requestId)) {
        respond(HttpResponse::error(404, m_registry.notFoundMessage()));
        return;
    }
    const auto preferred = preferredWait(request.header("prefer"));
    const std::chrono::seconds hold = preferred.value_or(m_statusHold);
    const auto wait = preferred ? std::optional(hold) : std::nullopt;
    if (const auto status = m_registry.findQuickly(principal.projectUid, requestId)) {
        if (status->isFinal() || hold.count() == 0)
            answerStatus(status, {}, respond, wait);
        else
            holdPending(principal.projectUid, requestId, hold, preferred.has_value(), respond);
        return;
    }
    // Unknown, PENDING in the database or still queued: looked up again after committing the
    // queued statuses (an fsync), on a worker.
    auto lookup = [this, projectUid = principal.projectUid, requestId = std::move(requestId), hold, wait,
                   respond = std::move(respond)] {
        const auto status = m_registry.find(projectUid, requestId);
        if (status && !status->isFinal() && hold.count() > 0)
            holdPending(projectUid, requestId, hold, wait.has_value(), respond);
        else
            answerStatus(status, m_registry.notFoundMessage(), respond, wait);
    };
    if (HttpServer::onIoThread())
        boost::asio::post(m_server.workers(), std::move(lookup));
    else
        lookup();
}

void HttpStatementRoutes::holdPending(const std::string& projectUid, const std::string& requestId,
                                      std::chrono::seconds hold, bool preferred, const Responder& respond) {
    // Answered from the thread that finishes the request, or from the timer's: no thread waits.
    m_registry.waitFor(projectUid, requestId, hold, [respond, hold, preferred](StatusJson status) {
        answerStatus(status, {}, respond, preferred ? std::optional(hold) : std::nullopt);
    });
}

} // namespace jobdeck
