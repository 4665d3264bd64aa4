#pragma once

#include "service/http/HttpServer.h"

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace jobdeck {

// What the server does with a request's bytes before a route runs, as functions without a socket:
// HttpServer's connections call them as they read, and the fuzz target fuzz_httprequest calls them
// on raw bytes (parse()), so both go through the same code.
class HttpRequestParser final {
public:
    using Parser = boost::beast::http::request_parser<boost::beast::http::string_body>;
    using Message = Parser::value_type;

    // Sets the header and body limits of `options` on a fresh parser.
    static void applyLimits(Parser& parser, const HttpServerOptions& options);
    // The 431 for a request line or header line over options.headerLineLimit; nullopt within it.
    static std::optional<HttpResponse> headerRefusal(const Message& header, const HttpServerOptions& options);
    // The answer to a read that failed with `ec`; nullopt when the connection is only to be closed
    // (the client went away or stopped half-way).
    static std::optional<HttpResponse> readRefusal(boost::beast::error_code ec,
                                                   const HttpServerOptions& options);
    // The request of a complete message, or the 400 for a target whose percent-encoding is broken.
    static std::variant<HttpRequest, HttpResponse> request(Message&& message);
    // Splits request.target into the decoded path and query; false when the encoding is broken.
    static bool splitTarget(HttpRequest& request);

    // The first request in `raw`, read as a connection reads it: the request, the answer refusing it,
    // or std::monostate when the connection would be closed without an answer (incomplete bytes).
    using Parsed = std::variant<std::monostate, HttpRequest, HttpResponse>;
    static Parsed parse(std::string_view raw, const HttpServerOptions& options);

    // The route (anything with `method` and `prefix`) a request goes to: the longest prefix of
    // `path` among those registered for `method`; `pathKnown` tells whether any method has one.
    template <class Route>
    static const Route* matchRoute(const std::vector<Route>& routes, std::string_view method,
                                   std::string_view path, bool& pathKnown) {
        const Route* best = nullptr;
        pathKnown = false;
        for (const auto& route : routes) {
            if (!path.starts_with(route.prefix))
                continue;
            pathKnown = true;
            if (route.method == method && (!best || route.prefix.size() > best->prefix.size()))
                best = &route;
        }
        return best;
    }
    // The 404 or 405 for a request no route takes.
    static HttpResponse routeRefusal(std::string_view method, std::string_view path, bool pathKnown);
};

} // namespace jobdeck
