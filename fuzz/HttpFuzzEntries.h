#pragma once

// The check behind fuzz_httprequest, header-only so the corpus test (tests/service/tst_httpfuzzcorpus)
// runs the very same code. It returns an empty string when the input passes, else what went wrong.

#include "core/text/Utf8.h"
#include "service/http/HttpRequestParser.h"
#include "service/http/HttpStatementRoutes.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace jobdeck::fuzz {

// A refusal is one line of UTF-8 in grpc-message and the same line as {"error": ...}.
inline std::string checkRefusal(const HttpResponse& response) {
    if (response.status < 400 || response.status > 599)
        return "refusal with status " + std::to_string(response.status);
    std::string reason;
    for (const auto& [name, value] : response.headers)
        if (name == "grpc-message")
            reason = value;
    if (reason.empty())
        return "refusal without grpc-message";
    if (!isValidUtf8(reason))
        return "grpc-message is not UTF-8";
    for (const char c : reason)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            return "grpc-message has a control character";
    const auto body = nlohmann::json::parse(response.body, nullptr, false);
    if (!body.is_object() || body.value("error", std::string()) != reason)
        return "the body does not carry the grpc-message: " + response.body;
    return {};
}

// The routes jobdeckd registers (ServiceApp, HttpStatementRoutes, EventRoutes, LogRoutes).
struct FuzzRoute {
    std::string method;
    std::string prefix;
};
inline const std::vector<FuzzRoute>& jobdeckdRoutes() {
    static const std::vector<FuzzRoute> routes{{"POST", "/v1/resource"}, {"GET", "/v1/status/"},
                                               {"GET", "/v1/events"},    {"GET", "/v1/jobs/"},
                                               {"GET", "/v1/health"},    {"GET", "/metrics"}};
    return routes;
}

// Raw bytes as a connection reads them: the request line, headers and body are parsed with the
// server's limits, routed, and a statement body read; every refusal is well-formed, and what the
// audit log records is UTF-8.
inline std::string checkHttpRequest(std::string_view input) {
    HttpServerOptions options;
    options.headerLineLimit = 1024; // small limits, so the fuzzer reaches them
    options.headerTotalLimit = 4096;
    options.bodyLimit = 4096;
    HttpRequestParser::Parsed parsed = HttpRequestParser::parse(input, options);
    if (const auto* refusal = std::get_if<HttpResponse>(&parsed))
        return checkRefusal(*refusal);
    const auto* request = std::get_if<HttpRequest>(&parsed);
    if (!request)
        return {};
    if (request->body.size() > options.bodyLimit)
        return "a body over the limit was accepted";
    bool pathKnown = false;
    const FuzzRoute* route =
        HttpRequestParser::matchRoute(jobdeckdRoutes(), request->method, request->path, pathKnown);
    if (!route)
        return checkRefusal(HttpRequestParser::routeRefusal(request->method, request->path, pathKnown));
    for (const auto& [name, value] : HttpStatementRoutes::auditedHeaders(*request))
        if (!isValidUtf8(value))
            return "audited header " + name + " is not UTF-8";
    if (route->prefix != "/v1/resource")
        return {};
    auto statement = HttpStatementRoutes::readStatement(request->body);
    if (const auto* refusal = std::get_if<HttpResponse>(&statement))
        return checkRefusal(*refusal);
    // A statement was read: the body is a JSON object with no top-level key twice.
    const auto body = nlohmann::json::parse(request->body, nullptr, false);
    if (!body.is_object() || !body["statement"].is_string() ||
        body["statement"].get<std::string>() != std::get<std::string>(statement))
        return "readStatement read a statement json::parse does not see";
    return {};
}

} // namespace jobdeck::fuzz
