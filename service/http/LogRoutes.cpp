#include "service/http/LogRoutes.h"

#include "core/parameters/LogMasking.h"
#include "core/statements/NotFoundMessages.h"
#include "core/text/Utf8.h"
#include "core/wire/HttpMessages.h"
#include "core/wire/QueryParameters.h"
#include "service/http/HttpServer.h"
#include "service/runs/RunManager.h"
#include "service/runs/RunSecrets.h"
#include "service/stores/Stores.h"

#include <algorithm>
#include <fstream>
#include <optional>
#include <string>

namespace jobdeck {
namespace {

// "/v1/jobs/<name>/runs/<runId>/log" -> {name, runId}; the path is already percent-decoded.
std::optional<std::pair<std::string, std::string>> parsePath(const std::string& path) {
    const std::string prefix = "/v1/jobs/";
    const std::string suffix = "/log";
    if (path.rfind(prefix, 0) != 0 || path.size() < prefix.size() + suffix.size() ||
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
        return std::nullopt;
    const std::string middle = path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
    const auto runs = middle.rfind("/runs/");
    if (runs == std::string::npos || runs == 0 || runs + 6 >= middle.size())
        return std::nullopt;
    const std::string runId = middle.substr(runs + 6);
    if (runId.find('/') != std::string::npos)
        return std::nullopt;
    return std::make_pair(middle.substr(0, runs), runId);
}

// [offset, offset + limit) of the log at `path`, masked, read with the margin maskLogPart needs; `size`:
// the file's size.
MaskedLogPart readMaskedPart(const std::string& path, std::int64_t offset, std::int64_t limit, bool growing,
                             const std::vector<std::string>& secrets, std::int64_t& size) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {{}, offset};
    in.seekg(0, std::ios::end);
    size = static_cast<std::int64_t>(in.tellg());
    if (offset >= size)
        return {{}, offset};
    const std::int64_t margin = logMaskingMargin(secrets);
    const std::int64_t rawStart = std::max<std::int64_t>(0, offset - margin);
    const std::int64_t rawEnd = std::min(size, offset + limit + margin);
    std::string raw(static_cast<std::size_t>(rawEnd - rawStart), '\0');
    in.seekg(rawStart);
    in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
    raw.resize(static_cast<std::size_t>(in.gcount()));
    // Read short (the file was cut meanwhile): what was read is the end of it for now.
    const bool atEnd = rawStart + static_cast<std::int64_t>(raw.size()) < rawEnd || rawEnd == size;
    return maskLogPart(raw, rawStart, offset, offset + limit, growing && atEnd, secrets);
}

} // namespace

void LogRoutes::registerRoutes(HttpServer& server) {
    server.addAuthenticatedRoute(
        "GET", "/v1/jobs/",
        [this](const HttpRequest& request, const RequestContext& authenticated, const Responder& respond) {
            const Principal& principal = authenticated.principal;
            const auto names = parsePath(request.path);
            if (!names) {
                respond(HttpResponse::error(404, pathNotFoundMessage(request.path)));
                return;
            }
            std::int64_t offset = 0;
            std::int64_t limit = maxLimit;
            for (auto [name, target] : {std::pair{"offset", &offset}, std::pair{"limit", &limit}}) {
                const auto it = request.query.find(name);
                if (it == request.query.end())
                    continue;
                const auto parsed = parseNonNegative(it->second);
                if (!parsed) {
                    respond(HttpResponse::error(400, nonNegativeIntegerExpectedMessage(name, it->second)));
                    return;
                }
                *target = *parsed;
            }
            limit = std::min(limit, maxLimit);
            // A name with bytes no text column holds (not UTF-8, a NUL) names no run: not looked up.
            const bool queryable = isQueryableText(names->first) && isQueryableText(names->second);
            const auto record =
                queryable ? m_runs.findRun(principal.projectUid, names->first, names->second) : std::nullopt;
            if (!record) {
                respond(HttpResponse::error(404, jobRunNotFoundMessage(names->second, names->first)));
                return;
            }
            // The status is read before the file, so "complete" never hides output written after it.
            const bool ended = !record->run.isActive();
            std::int64_t size = 0;
            MaskedLogPart part{{}, offset};
            if (!record->logPath.empty())
                part = readMaskedPart(record->logPath, offset, limit, !ended,
                                      runSecretValuesOf(m_stores, *record), size);
            std::string body = std::move(part.text);
            const std::int64_t next = std::max(offset, part.end);
            HttpResponse response;
            response.contentType = "text/plain; charset=utf-8";
            response.body = std::move(body);
            response.headers.emplace_back("X-Log-Next-Offset", std::to_string(next));
            response.headers.emplace_back("X-Log-Complete", ended && next >= size ? "true" : "false");
            respond(std::move(response));
        });
}

} // namespace jobdeck
