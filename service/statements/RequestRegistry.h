#pragma once

#include "service/stores/StatusJson.h"

#include <boost/asio/io_context.hpp>

#include <atomic>
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

class StatusStore;

// The statuses behind GET /v1/status/<requestId>. A request is PENDING in memory until its
// statement has run; StatementExecutor commits the final status of a write with the statement, and
// the registry keeps recent final statuses in memory so that polling rarely reaches the database.
// A request whose id a client was given while it was still PENDING is stored as PENDING first
// (acknowledge()); one still PENDING when the process ends is FAILED with core's
// requestInterruptedByRestartMessage() at the next start. The status of a read is not written before its
// answer: it goes to the database with a later group commit, when its client was given the id before the
// status (which is told the id only once it is on disk), when it leaves the recent ones in memory, or at a
// graceful stop (storeRemembered()); only kill -9 can lose it. A final status expires `statusRetention` after
// it was written (StatusStore::setStatusRetention; RetentionSweeper deletes the rows): it is then as unknown
// as a made-up id. Ids are random UUIDs, and every lookup is scoped by project: another project's id is as
// unknown as a made-up one.
class RequestRegistry final {
public:
    // The recent final statuses kept in memory (for polls) hold at most this many bytes of status text,
    // and at most 10,000 statuses: the oldest go to the database first, so that answers of large reads
    // polled often (SHOW JOB_RUNS of thousands of runs) cannot fill the process's memory.
    static constexpr std::size_t kRememberedBytesLimit = std::size_t{64} << 20;

    // Whether finish() has to store the status (now), the executor did, or it is a read's.
    enum class Stored { No, Yes, OnlyIfAcknowledged };
    enum class Durability { Durable, Deferred };

    // `timers` runs the deadlines of waitFor(); it must outlive the registry's waits. Fails the
    // requests a previous process left PENDING.
    RequestRegistry(StatusStore& statuses, boost::asio::io_context& timers,
                    std::chrono::seconds statusRetention = std::chrono::hours(24));
    ~RequestRegistry();
    RequestRegistry(const RequestRegistry&) = delete;
    RequestRegistry& operator=(const RequestRegistry&) = delete;

    // Registers a new PENDING request of the project and returns its id.
    std::string begin(const std::string& projectUid);
    // Forgets a request begun but never executed, whose id nobody was given.
    void abandon(const std::string& projectUid, const std::string& requestId);
    // A new id, not registered: for a request whose id nobody sees before finish() has its status.
    static std::string newId();
    // Records the final status and wakes the waiters. With Stored::No it is persisted durably first; a
    // failure to persist is logged and the status kept in memory, so the client still gets its answer
    // from this process.
    void finish(const std::string& projectUid, const std::string& requestId, const StatusJson& status,
                Stored stored);
    // The client is being told the request id while the request may still be PENDING: record it, so
    // that after a restart the id is still answered. Durable for statements that change something
    // (the final status then follows in their own transaction): recorded before it returns; Deferred:
    // with the next group commit. `recorded`, when given, is called once with whether the id is on
    // disk (Durable: before acknowledge returns; Deferred: when the group committed or failed, and the
    // group then starts at once); tell the client the id only after it said true.
    void acknowledge(const std::string& projectUid, const std::string& requestId, Durability durability,
                     std::function<void(bool recorded)> recorded = {});
    // The 404 line of an id that is unknown, of another project, or whose status expired.
    std::string notFoundMessage() const;
    // At a graceful stop: queues the statuses still kept in memory only (the status store writes them).
    void storeRemembered();
    // nullopt when the project has no such request.
    std::optional<StatusJson> find(const std::string& projectUid, const std::string& requestId);
    // The same from memory (pending, or among the recent statuses), else a final status already
    // committed (kept in memory again from then on): never commits the queued writes (an fsync), so
    // it may run on an IO thread. nullopt when not found that way; find() then has the last word.
    std::optional<StatusJson> findQuickly(const std::string& projectUid, const std::string& requestId);
    // Calls `done` (from any thread, exactly once) with the final status as soon as it is known, or
    // with PENDING when `wait` runs out first; never blocks the caller. A request PENDING in the database
    // but not in this process (another replica runs it) is looked up again every 100 ms on a timer.
    void waitFor(const std::string& projectUid, const std::string& requestId, std::chrono::milliseconds wait,
                 std::function<void(StatusJson)> done);

private:
    struct Waiter;
    struct Pending {
        std::string projectUid;
        std::vector<std::shared_ptr<Waiter>> waiters;
        bool acknowledged = false;
    };
    struct Recent {
        std::string projectUid;
        StatusJson status;
        bool stored = true;
        std::chrono::system_clock::time_point writtenAt; // when the status expires, less the retention
    };

    // Looks for the final status of a request of another replica until `deadline`, then PENDING.
    void watchElsewhere(const std::shared_ptr<Waiter>& waiter, const std::string& projectUid,
                        const std::string& requestId, std::chrono::steady_clock::time_point deadline);
    std::optional<StatusJson> findInMemory(const std::string& projectUid, const std::string& requestId);
    void remember(const std::string& requestId, const std::string& projectUid, StatusJson status, bool stored,
                  std::chrono::system_clock::time_point writtenAt = std::chrono::system_clock::now());

    StatusStore& m_statuses;
    boost::asio::io_context& m_timers;
    const std::chrono::seconds m_statusRetention;
    std::mutex m_mutex;
    std::unordered_map<std::string, Pending> m_pending;
    // Recent final statuses, so that polling clients rarely reach the database; bounded, oldest out.
    std::unordered_map<std::string, Recent> m_recent;
    std::deque<const std::string*> m_recentOrder; // keys of m_recent, oldest first
    std::size_t m_recentBytes = 0;                // of their status texts
    // False once the registry is gone: a timer of watchElsewhere() that still fires does nothing.
    std::shared_ptr<std::atomic<bool>> m_alive = std::make_shared<std::atomic<bool>>(true);
};

} // namespace jobdeck
