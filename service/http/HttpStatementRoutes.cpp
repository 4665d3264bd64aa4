#include "service/http/HttpStatementRoutes.h"

#include "core/policy/IdempotencyKey.h"
#include "core/text/Utf8.h"
#include "core/wire/HttpMessages.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <optional>
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

// A POST's status with its id, or a poll's; the wait applied, when one was.
HttpResponse statusResponse(const RequestLifecycle::Answer& answer) {
    HttpResponse response;
    if (answer.requestId.empty()) {
        const auto text = answer.status.sharedText();
        response.sharedBody = *text;
        response.bodyOwner = text;
    } else {
        auto withId = answer.status.withRequestId(answer.requestId);
        response.bodyOwner = std::move(withId.text);
        response.sharedBody = withId.head;
        response.body = std::move(withId.tail);
    }
    if (answer.waitApplied)
        response.headers.emplace_back("Preference-Applied",
                                      "wait=" + std::to_string(answer.waitApplied->count()));
    return response;
}

HttpResponse responseTo(const RequestLifecycle::Answer& answer) {
    using Kind = RequestLifecycle::Answer::Kind;
    switch (answer.kind) {
    case Kind::RequestId:
        return HttpResponse::json(dumpJson({{"requestId", answer.requestId}}));
    case Kind::Status:
        return statusResponse(answer);
    case Kind::Conflict:
        return HttpResponse::error(400, answer.message);
    case Kind::NotFound:
        return HttpResponse::error(404, answer.message);
    case Kind::Unavailable:
        break;
    }
    return HttpResponse::error(503, answer.message);
}

RequestLifecycle::Respond answering(Responder respond) {
    return [respond = std::move(respond)](RequestLifecycle::Answer answer) { respond(responseTo(answer)); };
}

} // namespace

HttpStatementRoutes::HttpStatementRoutes(StatementExecutor& executor, RequestRegistry& registry,
                                         HttpServer& server, std::chrono::seconds statusHold)
    : m_server(server)
    , m_lifecycle(executor, registry, server.workers(), &HttpServer::onIoThread, server.workerThreads(),
                  std::min(statusHold, kMaxWait)) {}

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
        respond(HttpResponse::error(404, pathNotFoundMessage(request.path)));
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
    m_lifecycle.submit(std::move(context), std::move(std::get<std::string>(read)),
                       preferredWait(request.header("prefer")), answering(std::move(respond)));
}

std::variant<std::string, HttpResponse> HttpStatementRoutes::readStatement(std::string_view body) {
    StatementField field;
    if (!nlohmann::json::sax_parse(body, &field)) {
        if (field.repeatedKey)
            return HttpResponse::error(400, repeatedBodyKeyMessage(field.repeatedKey->substr(0, 64)));
        return HttpResponse::error(400, malformedBodyMessage());
    }
    if (!field.isObject || !field.found)
        return HttpResponse::error(400, bodyWithoutStatementMessage());
    if (!field.isString)
        return HttpResponse::error(400, statementNotAStringMessage());
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

void HttpStatementRoutes::status(const HttpRequest& request, const RequestContext& authenticated,
                                 Responder respond) {
    m_lifecycle.poll(authenticated.principal.projectUid,
                     request.path.substr(std::string_view("/v1/status/").size()),
                     preferredWait(request.header("prefer")), answering(std::move(respond)));
}

} // namespace jobdeck
