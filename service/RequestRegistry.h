#pragma once

#include "core/ApiStatus.h"

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace jobdeck {

class Storage;

// The statuses behind GET /v1/status/<requestId>. A request is PENDING in memory until its
// statement has run; the final status is persisted (Storage::saveRequestStatus) before anyone is
// told about it, so a status a client has seen survives a restart. Ids are random UUIDs, and every
// lookup is scoped by project: another project's id is as unknown as a made-up one.
class RequestRegistry final {
public:
    // `timers` runs the deadlines of waitFor(); it must outlive the registry's waits.
    RequestRegistry(Storage& storage, boost::asio::io_context& timers);
    ~RequestRegistry();
    RequestRegistry(const RequestRegistry&) = delete;
    RequestRegistry& operator=(const RequestRegistry&) = delete;

    // Registers a new PENDING request of the project and returns its id.
    std::string begin(const std::string& projectUid);
    // Records the final status and wakes the waiters. A failure to persist is logged and the status
    // kept in memory, so the client still gets its answer from this process.
    void finish(const std::string& projectUid, const std::string& requestId, ApiStatus status);
    // nullopt when the project has no such request.
    std::optional<ApiStatus> find(const std::string& projectUid, const std::string& requestId);
    // Calls `done` (from any thread, exactly once) with the final status as soon as it is known, or
    // with PENDING when `wait` runs out first; never blocks the caller.
    void waitFor(const std::string& projectUid, const std::string& requestId, std::chrono::milliseconds wait,
                 std::function<void(ApiStatus)> done);

private:
    struct Waiter;
    struct Pending {
        std::string projectUid;
        std::vector<std::shared_ptr<Waiter>> waiters;
    };
    struct Recent {
        std::string projectUid;
        ApiStatus status;
    };

    void remember(const std::string& requestId, const std::string& projectUid, ApiStatus status);

    Storage& m_storage;
    boost::asio::io_context& m_timers;
    std::mutex m_mutex;
    std::unordered_map<std::string, Pending> m_pending;
    // Recent final statuses, so that polling clients rarely reach the database; bounded, oldest out.
    std::unordered_map<std::string, Recent> m_recent;
    std::deque<std::string> m_recentOrder;
};

} // namespace jobdeck
