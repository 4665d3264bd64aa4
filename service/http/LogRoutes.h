#pragma once

#include <cstdint>

namespace jobdeck {

class HttpServer;
class RunManager;

// GET /v1/jobs/<name>/runs/<runId>/log?offset=<byte>&limit=<bytes>: the driver's output (stdout and
// stderr in order) as text/plain, from `offset` (default 0), at most `limit` bytes (default and
// maximum 1 MiB). X-Log-Next-Offset is where the next read starts; X-Log-Complete is true once the
// run has ended and everything up to the end of the log has been returned.
class LogRoutes final {
public:
    explicit LogRoutes(RunManager& runs)
        : m_runs(runs) {}
    void registerRoutes(HttpServer& server);

    static constexpr std::int64_t maxLimit = std::int64_t{1024} * 1024;

private:
    RunManager& m_runs;
};

} // namespace jobdeck
