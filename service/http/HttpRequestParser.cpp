#include "service/http/HttpRequestParser.h"

#include "core/wire/HttpMessages.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/beast/http/error.hpp>

#include <cstdint>
#include <utility>

namespace jobdeck {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;

namespace {

std::string_view view(beast::string_view text) {
    return {text.data(), text.size()};
}

int hexValue(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::optional<std::string> percentDecode(std::string_view text, bool plusIsSpace) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%') {
            if (i + 2 >= text.size())
                return std::nullopt;
            const int high = hexValue(text[i + 1]);
            const int low = hexValue(text[i + 2]);
            if (high < 0 || low < 0)
                return std::nullopt;
            out.push_back(static_cast<char>(high * 16 + low));
            i += 2;
        } else if (plusIsSpace && text[i] == '+') {
            out.push_back(' ');
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

} // namespace

void HttpRequestParser::applyLimits(Parser& parser, const HttpServerOptions& options) {
    parser.header_limit(static_cast<std::uint32_t>(options.headerTotalLimit));
    parser.body_limit(options.bodyLimit);
}

std::optional<HttpResponse> HttpRequestParser::headerRefusal(const Message& header,
                                                             const HttpServerOptions& options) {
    const std::size_t limit = options.headerLineLimit;
    if (header.method_string().size() + header.target().size() + 9 > limit)
        return HttpResponse::error(431, requestLineTooLongMessage(limit));
    for (const auto& field : header)
        if (field.name_string().size() + 2 + field.value().size() > limit)
            return HttpResponse::error(431, headerLineTooLongMessage(limit));
    return std::nullopt;
}

std::optional<HttpResponse> HttpRequestParser::readRefusal(beast::error_code ec,
                                                           const HttpServerOptions& options) {
    if (ec == http::error::end_of_stream || ec == net::error::operation_aborted ||
        ec == net::error::connection_reset || ec == net::error::eof || ec == net::error::bad_descriptor ||
        ec == http::error::partial_message || ec == http::error::need_more)
        return std::nullopt;
    if (ec == http::error::body_limit)
        return HttpResponse::error(413, bodyTooLargeMessage(options.bodyLimit));
    if (ec == http::error::header_limit)
        return HttpResponse::error(431, headerTooLargeMessage(options.headerTotalLimit));
    return HttpResponse::error(400, malformedHttpRequestMessage(ec.message()));
}

bool HttpRequestParser::splitTarget(HttpRequest& request) {
    const std::string_view target = request.target;
    const std::size_t mark = target.find('?');
    auto path = percentDecode(target.substr(0, mark), false);
    if (!path)
        return false;
    request.path = std::move(*path);
    if (mark == std::string_view::npos)
        return true;
    std::string_view rest = target.substr(mark + 1);
    while (!rest.empty()) {
        const std::size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
        if (pair.empty())
            continue;
        const std::size_t eq = pair.find('=');
        auto key = percentDecode(pair.substr(0, eq), true);
        auto value =
            percentDecode(eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
        if (!key || !value)
            return false;
        request.query[std::move(*key)] = std::move(*value);
    }
    return true;
}

std::variant<HttpRequest, HttpResponse> HttpRequestParser::request(Message&& message) {
    HttpRequest request;
    request.method = std::string(view(message.method_string()));
    request.target = std::string(view(message.target()));
    request.body = std::move(message.body());
    // The parsed fields themselves: no copy, lower-cased or not, of each header.
    request.headers = std::move(static_cast<http::fields&>(message));
    if (!splitTarget(request))
        return HttpResponse::error(400, malformedPercentEncodingMessage());
    return request;
}

HttpRequestParser::Parsed HttpRequestParser::parse(std::string_view raw, const HttpServerOptions& options) {
    Parser parser;
    applyLimits(parser, options);
    net::const_buffer rest(raw.data(), raw.size());
    beast::error_code ec;
    // Puts what is left until `done()`; the input is all there is, so wanting more is the end of it.
    auto feed = [&](auto done) {
        while (!done()) {
            const std::size_t used = parser.put(rest, ec);
            rest += used;
            if (ec == http::error::need_more) {
                parser.put_eof(ec);
                return !ec && done();
            }
            if (ec || used == 0)
                return !ec && done();
        }
        return true;
    };
    // The answer to a failed read, or none: the connection is closed.
    auto failed = [&]() -> Parsed {
        if (auto refusal = ec ? readRefusal(ec, options) : std::nullopt)
            return std::move(*refusal);
        return std::monostate{};
    };
    if (!feed([&] { return parser.is_header_done(); }))
        return failed();
    if (auto refusal = headerRefusal(parser.get(), options))
        return std::move(*refusal);
    parser.eager(true);
    if (!feed([&] { return parser.is_done(); }))
        return failed();
    auto result = request(parser.release());
    if (auto* refusal = std::get_if<HttpResponse>(&result))
        return std::move(*refusal);
    return std::move(std::get<HttpRequest>(result));
}

HttpResponse HttpRequestParser::routeRefusal(std::string_view method, std::string_view path, bool pathKnown) {
    if (pathKnown)
        return HttpResponse::error(405, methodNotAllowedMessage(method, path));
    return HttpResponse::error(404, pathNotFoundMessage(path));
}

} // namespace jobdeck
